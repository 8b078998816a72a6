import PhotoCore

/// The slideshow's remembered choices: how long each photo shows, and whether it starts
/// again after the last photo.
///
/// The one place that knows where they are kept: today the settings file (`Preferences`,
/// `BrowserSettings.slideshowInterval` and `.slideshowEnding`). Keeping them in GSettings
/// (the `slideshow-interval` key) changes this file alone.
@MainActor
enum SlideshowSettings {
    /// Seconds a photo shows: one of `SlideshowModel.intervals`.
    static var interval: Int {
        get { Preferences.shared.settings?.slideshowInterval ?? SlideshowModel.defaultInterval }
        set {
            guard SlideshowModel.intervals.contains(newValue) else { return }
            Preferences.shared.update { $0.slideshowInterval = newValue }
        }
    }

    /// What happens after the last photo.
    static var ending: SlideshowModel.Ending {
        get { Preferences.shared.settings?.slideshowEnding ?? .loop }
        set { Preferences.shared.update { $0.slideshowEnding = newValue } }
    }
}
