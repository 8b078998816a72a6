import Dispatch

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

extension PhotoOrder {
    /// `a` and `b`, each in this order and with no id in both, as one list in this order
    /// (`a`'s photo first on a tie). When one is far shorter (a large listing joining its
    /// first screen, a few photos joining a large album), the shorter is merged into the
    /// longer from the end, in place: the longer's photos are swapped, not copied.
    public func merged(_ a: inout [Photo], _ b: inout [Photo]) -> [Photo] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        if a.count * 16 < b.count {
            merge(a, into: &b, shortIsFirst: true)
            return b
        }
        if b.count * 16 < a.count {
            merge(b, into: &a, shortIsFirst: false)
            return a
        }
        var out: [Photo] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if areInIncreasingOrder(b[j], a[i]) { out.append(b[j]); j += 1 } else { out.append(a[i]); i += 1 }
        }
        out.append(contentsOf: a[i...])
        out.append(contentsOf: b[j...])
        return out
    }

    /// `short` merged into `out` from the end; `shortIsFirst`: `short` is `merged`'s `a`. Each
    /// of `short`'s photos finds its place by a binary search, and the longer's photos after
    /// it move up by swaps.
    private func merge(_ short: [Photo], into out: inout [Photo], shortIsFirst: Bool) {
        var i = out.count - 1, j = short.count - 1
        out.append(contentsOf: short)  // room at the end, overwritten below
        var place = out.count - 1
        while j >= 0 {
            // The first of the longer's photos not placed yet that goes after short[j].
            var low = 0, high = i + 1
            while low < high {
                let middle = (low + high) / 2
                let goesAfter = shortIsFirst ? !areInIncreasingOrder(out[middle], short[j]) : areInIncreasingOrder(short[j], out[middle])
                if goesAfter { high = middle } else { low = middle + 1 }
            }
            while i >= low {
                out.swapAt(i, place)
                i -= 1
                place -= 1
            }
            out[place] = short[j]
            j -= 1
            place -= 1
        }
    }
}

extension PhotoOrder {
    /// How many photos a sort takes before it sorts half of them on another thread: a
    /// listing's hand-over sorts 100,000 at once, which the main thread waits for.
    static let sortedInTwoFrom = 20_000

    /// `photos` in this order: a long list as two halves sorted at once (this thread and
    /// another), then merged.
    public func sorted(_ photos: [Photo]) -> [Photo] {
        guard photos.count >= Self.sortedInTwoFrom else { return photos.sorted(by: areInIncreasingOrder) }
        let middle = photos.count / 2
        let halves = SortedHalves(first: Array(photos[..<middle]), second: Array(photos[middle...]))
        DispatchQueue.concurrentPerform(iterations: 2) { half in halves.sort(half, by: self) }
        return merged(&halves.first, &halves.second)
    }
}

/// Two halves of a list, each sorted by its own thread (`PhotoOrder.sorted`), which waits
/// for both: neither is touched by two threads.
private final class SortedHalves: @unchecked Sendable {
    var first: [Photo]
    var second: [Photo]

    init(first: [Photo], second: [Photo]) {
        self.first = first
        self.second = second
    }

    func sort(_ half: Int, by order: PhotoOrder) {
        if half == 0 { first.sort(by: order.areInIncreasingOrder) } else { second.sort(by: order.areInIncreasingOrder) }
    }
}
