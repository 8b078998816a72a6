import PhotoCore

/// The slideshow's remembered choices, in the app's GSettings (`Preferences`): how long each
/// photo shows (`slideshow-interval`), and whether it starts again after the last photo
/// (`slideshow-ending`).
@MainActor
enum SlideshowSettings {
    /// Seconds a photo shows (the menu offers `SlideshowModel.intervals`; Preferences any
    /// number within `SlideshowInterval`'s range).
    static var interval: Int {
        get { Preferences.shared.settings.slideshowInterval.seconds }
        set { Preferences.shared.update { $0.slideshowInterval = SlideshowInterval(seconds: newValue) } }
    }

    /// What happens after the last photo.
    static var ending: SlideshowModel.Ending {
        get { Preferences.shared.settings.slideshowEnding }
        set { Preferences.shared.update { $0.slideshowEnding = newValue } }
    }
}
