/// The orders a folder can be shown in.
public enum SortKey: String, Sendable, CaseIterable {
    /// File name, natural order (`IMG_2` before `IMG_10`).
    case name
    /// Modification time.
    case modified
    /// When the photo was taken (EXIF `DateTimeOriginal`), falling back to the
    /// modification time for photos whose date is not known (not read yet, or none).
    case dateTaken
}

/// A sort key and a direction.
public struct PhotoOrder: Sendable, Hashable {
    /// The same type as `SortKey`, by the name that reads well inside `PhotoOrder`.
    public typealias Key = SortKey

    public var key: SortKey
    /// Newest or last first when true.
    public var reversed: Bool

    public init(key: SortKey, reversed: Bool = false) {
        self.key = key
        self.reversed = reversed
    }

    public static let byName = PhotoOrder(key: .name)

    /// Newest photo first, by the date it was taken: the app's default order.
    public static let newestFirst = PhotoOrder(key: .dateTaken, reversed: true)

    /// Whether `a` comes before `b`. Ties fall back to name, then to the URI, so the order
    /// is total and stable across runs.
    public func areInIncreasingOrder(_ a: Photo, _ b: Photo) -> Bool {
        let primary: Bool?
        switch key {
        case .name:
            let order = NaturalSortKey.compare(a.nameKey, b.nameKey)
            primary = order == 0 ? nil : order < 0
        case .modified:
            primary = a.modified == b.modified ? nil : a.modified < b.modified
        case .dateTaken:
            let x = a.dateTakenOrModified, y = b.dateTakenOrModified
            primary = x == y ? nil : x < y
        }
        if let primary { return reversed ? !primary : primary }
        let byName = NaturalSortKey.compare(a.nameKey, b.nameKey)
        if byName != 0 { return byName < 0 }
        return a.id < b.id
    }
}
