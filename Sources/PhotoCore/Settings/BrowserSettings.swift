/// What the browser remembers between runs (kept in GSettings by the app), every value
/// within its range.
public struct BrowserSettings: Sendable, Equatable {
    /// The order folders are shown in; newest first by date taken unless the person chose.
    public var order: PhotoOrder
    /// The grid's tile size.
    public var tileSize: TileSize
    /// The size a new window opens at, and whether maximized.
    public var window: WindowState
    /// The URI of the folder opened last (where the folder chooser starts), if any.
    public var lastFolder: String?
    /// How long a slideshow shows each photo.
    public var slideshowInterval: SlideshowInterval
    /// Whether a slideshow starts again after the last photo, or ends there.
    public var slideshowEnding: SlideshowModel.Ending

    public init(order: PhotoOrder = .newestFirst, tileSize: TileSize = .standard, window: WindowState = .standard,
                lastFolder: String? = nil, slideshowInterval: SlideshowInterval = .standard,
                slideshowEnding: SlideshowModel.Ending = .loop) {
        self.order = order
        self.tileSize = tileSize
        self.window = window
        self.lastFolder = lastFolder
        self.slideshowInterval = slideshowInterval
        self.slideshowEnding = slideshowEnding
    }

    /// The keys of the settings file of earlier versions (`[browser]` in `settings.ini`).
    public static let settingsFileKeys = ["sort-by", "sort-reversed"]

    /// These settings with what the settings file of earlier versions held (its `[browser]`
    /// group's entries) put over them, read as those versions read it: `sort-by` chooses
    /// the key (ascending unless `sort-reversed` says otherwise), `sort-reversed` the
    /// direction. A missing or unknown value changes nothing, so a file from another version
    /// never stops the browser from starting.
    public func applyingSettingsFile(_ entries: [String: String]) -> BrowserSettings {
        var settings = self
        if let key = entries["sort-by"].flatMap(SortKey.init(rawValue:)) {
            settings.order = PhotoOrder(key: key, reversed: false)
        }
        if let reversed = entries["sort-reversed"] {
            settings.order.reversed = reversed == "true"
        }
        return settings
    }
}
