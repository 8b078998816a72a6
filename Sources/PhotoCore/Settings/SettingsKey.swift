/// The keys of the app's GSettings schema (`data/io.github.gphotobrowse.Gphotobrowse.gschema.xml`),
/// one for each value `BrowserSettings` holds, and the record that the settings file of
/// earlier versions was read. A test checks the schema has exactly these, with the model's
/// defaults and ranges.
public enum SettingsKey: String, Sendable, CaseIterable {
    /// `date-taken`, `name` or `modified` (`SortKey.settingsName`).
    case sortBy = "sort-by"
    case sortReversed = "sort-reversed"
    /// `TileSize.edge`.
    case tileSize = "tile-size"
    case windowWidth = "window-width"
    case windowHeight = "window-height"
    case windowMaximized = "window-maximized"
    /// The URI of the folder opened last, or empty.
    case lastFolder = "last-folder"
    /// `SlideshowInterval.seconds`.
    case slideshowInterval = "slideshow-interval"
    /// `SlideshowModel.Ending.rawValue`: `loop` or `stop`.
    case slideshowEnding = "slideshow-ending"
    /// Whether `settings.ini` of earlier versions was read into these settings (once).
    case settingsFileMigrated = "settings-file-migrated"
}

extension SortKey {
    /// The key's name in the settings (the schema's enumeration).
    public var settingsName: String {
        switch self {
        case .dateTaken: "date-taken"
        case .name: "name"
        case .modified: "modified"
        }
    }

    /// The key named `name` in the settings, if any.
    public init?(settingsName name: String) {
        guard let key = Self.allCases.first(where: { $0.settingsName == name }) else { return nil }
        self = key
    }
}
