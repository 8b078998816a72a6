/// What the browser remembers between runs.
public struct BrowserSettings: Sendable, Equatable {
    /// The order folders are shown in; newest first by date taken unless the person chose.
    public var order: PhotoOrder
    /// Seconds each photo of a slideshow shows: one of `SlideshowModel.intervals`.
    public var slideshowInterval: Int
    /// Whether a slideshow starts again after the last photo, or ends there.
    public var slideshowEnding: SlideshowModel.Ending

    public init(order: PhotoOrder = .newestFirst, slideshowInterval: Int = SlideshowModel.defaultInterval,
                slideshowEnding: SlideshowModel.Ending = .loop) {
        self.order = order
        self.slideshowInterval = slideshowInterval
        self.slideshowEnding = slideshowEnding
    }

    /// Settings as text keys and values (the settings file's `[browser]` group).
    public var entries: [String: String] {
        ["sort-by": order.key.rawValue, "sort-reversed": order.reversed ? "true" : "false",
         "slideshow-interval": String(slideshowInterval), "slideshow-ending": slideshowEnding.rawValue]
    }

    /// Settings from stored entries; a missing or unknown value keeps its default, so a
    /// file from another version never stops the browser from starting.
    public init(entries: [String: String]) {
        var settings = BrowserSettings()
        if let key = entries["sort-by"].flatMap(SortKey.init(rawValue:)) {
            settings.order.key = key
            settings.order.reversed = false
        }
        if let reversed = entries["sort-reversed"] {
            settings.order.reversed = reversed == "true"
        }
        if let interval = entries["slideshow-interval"].flatMap(Int.init), SlideshowModel.intervals.contains(interval) {
            settings.slideshowInterval = interval
        }
        if let ending = entries["slideshow-ending"].flatMap(SlideshowModel.Ending.init(rawValue:)) {
            settings.slideshowEnding = ending
        }
        self = settings
    }
}
