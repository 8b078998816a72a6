/// What the browser remembers between runs.
public struct BrowserSettings: Sendable, Equatable {
    /// The order folders are shown in; newest first by date taken unless the person chose.
    public var order: PhotoOrder

    public init(order: PhotoOrder = .newestFirst) {
        self.order = order
    }

    /// Settings as text keys and values (the settings file's `[browser]` group).
    public var entries: [String: String] {
        ["sort-by": order.key.rawValue, "sort-reversed": order.reversed ? "true" : "false"]
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
        self = settings
    }
}
