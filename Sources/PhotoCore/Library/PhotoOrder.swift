/// The orders a folder can be shown in.
public enum SortKey: String, Sendable, CaseIterable {
    /// File name, natural order (`IMG_2` before `IMG_10`).
    case name
    /// Modification time.
    case modified
}

/// A sort key and a direction.
public struct PhotoOrder: Sendable, Hashable {
    public var key: SortKey
    /// Newest or last first when true.
    public var reversed: Bool

    public init(key: SortKey, reversed: Bool = false) {
        self.key = key
        self.reversed = reversed
    }

    public static let byName = PhotoOrder(key: .name)

    /// Whether `a` comes before `b`. Ties fall back to name, then to the URI, so the order
    /// is total and stable across runs.
    public func areInIncreasingOrder(_ a: Photo, _ b: Photo) -> Bool {
        let primary: Bool?
        switch key {
        case .name:
            primary = a.nameKey == b.nameKey ? nil : a.nameKey < b.nameKey
        case .modified:
            primary = a.modified == b.modified ? nil : a.modified < b.modified
        }
        if let primary { return reversed ? !primary : primary }
        if a.nameKey != b.nameKey { return a.nameKey < b.nameKey }
        return a.id < b.id
    }
}
