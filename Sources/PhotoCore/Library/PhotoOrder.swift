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
        return Self.merged(a, b, by: areInIncreasingOrder)
    }

    /// Two runs, each in the order `isBefore` gives, as one run in that order (`a`'s element
    /// first on a tie): photos, or a sort's records.
    fileprivate static func merged<Element>(_ a: [Element], _ b: [Element], by isBefore: (Element, Element) -> Bool) -> [Element] {
        var out: [Element] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if isBefore(b[j], a[i]) { out.append(b[j]); j += 1 } else { out.append(a[i]); i += 1 }
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

    /// `photos` in this order. What orders each photo (its date or time, its name key's first
    /// 24 bytes) is taken out once into a record beside its place, and the records are sorted:
    /// comparing two reads no photo (each a look through to its names, a cache miss in a list of
    /// 100,000), and only two records alike in all of it compare their photos. A long list is
    /// sorted as two halves at once (this thread and another), then merged.
    public func sorted(_ photos: [Photo]) -> [Photo] {
        var photos = photos
        sort(&photos)
        return photos
    }

    /// Puts `photos` in this order, in place (`sorted`): the photos are moved to their places,
    /// not copied, so a list of 100,000 costs no reference count a photo.
    public func sort(_ photos: inout [Photo]) {
        guard photos.count > 1 else { return }
        let records = sortedRecords(of: photos)
        Self.permute(&photos, to: records)
    }

    /// The records of `photos`, sorted: a long list as two halves at once (each made and
    /// sorted by its own thread: making a record reads its photo, a cache miss a photo), then
    /// merged.
    private func sortedRecords(of photos: [Photo]) -> [SortRecord] {
        if photos.count < Self.sortedInTwoFrom {
            var records = records(of: photos, in: photos.indices)
            sort(&records, of: photos)
            return records
        }
        let halves = SortedHalves(middle: photos.count / 2)
        DispatchQueue.concurrentPerform(iterations: 2) { half in halves.sort(half, of: photos, by: self) }
        return merged(halves.first, halves.second, of: photos)
    }

    /// The records of the photos at `places`.
    fileprivate func records(of photos: [Photo], in places: Range<Int>) -> [SortRecord] {
        places.map { SortRecord(photos[$0], place: $0, in: self) }
    }

    /// Moves each photo to its place: `records[k].place` is where the photo that goes at `k`
    /// is now. One cycle of the permutation at a time, each photo moved once.
    private static func permute(_ photos: inout [Photo], to records: [SortRecord]) {
        var isPlaced = [Bool](repeating: false, count: photos.count)
        photos.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for start in records.indices where !isPlaced[start] {
                var place = start
                let first = (base + start).move()
                while true {
                    isPlaced[place] = true
                    let from = Int(records[place].place)
                    if from == start { break }
                    (base + place).moveInitialize(from: base + from, count: 1)
                    place = from
                }
                (base + place).initialize(to: first)
            }
        }
    }

    /// `records` of `photos` sorted.
    fileprivate func sort(_ records: inout [SortRecord], of photos: [Photo]) {
        photos.withUnsafeBufferPointer { photos in records.sort { a, b in isBefore(a, b, of: photos) } }
    }

    /// Two sorted runs of records of `photos` as one (the first's record first on a tie).
    private func merged(_ a: [SortRecord], _ b: [SortRecord], of photos: [Photo]) -> [SortRecord] {
        photos.withUnsafeBufferPointer { photos in Self.merged(a, b) { isBefore($0, $1, of: photos) } }
    }

    /// Whether record `a` comes before `b`: by what they hold, else by their photos.
    @inline(__always) private func isBefore(_ a: SortRecord, _ b: SortRecord, of photos: UnsafeBufferPointer<Photo>) -> Bool {
        a.isBefore(b) ?? areInIncreasingOrder(photos[Int(a.place)], photos[Int(b.place)])
    }
}

/// A photo's place in a sort, with what orders it held inline (`PhotoOrder.sorted`): its
/// date taken or time (none for a sort by name) and its name key's first 24 bytes, each made
/// so that a smaller value comes first in the order asked for.
private struct SortRecord {
    let primary: Int64
    let name0, name1, name2: UInt64
    let place: Int32

    init(_ photo: Photo, place: Int, in order: PhotoOrder) {
        let key = photo.nameKey
        // A name asked for last first compares its bytes the other way round: `~` reverses
        // an integer's order. Otherwise names break ties in their own order, whichever
        // direction the dates go (`areInIncreasingOrder`).
        let nameFlip: UInt64 = order.key == .name && order.reversed ? ~0 : 0
        (name0, name1, name2) = (key.head0 ^ nameFlip, key.head1 ^ nameFlip, key.head2 ^ nameFlip)
        let value: Int64
        switch order.key {
        case .name: value = 0
        case .modified: value = photo.modified
        case .dateTaken: value = photo.dateTakenOrModified
        }
        primary = order.key != .name && order.reversed ? ~value : value
        self.place = Int32(place)
    }

    /// Whether this record comes before `other`, nil when they are alike in all they hold.
    @inline(__always) func isBefore(_ other: SortRecord) -> Bool? {
        if primary != other.primary { return primary < other.primary }
        if name0 != other.name0 { return name0 < other.name0 }
        if name1 != other.name1 { return name1 < other.name1 }
        if name2 != other.name2 { return name2 < other.name2 }
        return nil
    }
}

/// Two halves of a list's records, each made and sorted by its own thread
/// (`PhotoOrder.sort`), which waits for both: neither is touched by two threads.
private final class SortedHalves: @unchecked Sendable {
    /// Where the second half starts.
    let middle: Int
    var first: [SortRecord] = []
    var second: [SortRecord] = []

    init(middle: Int) {
        self.middle = middle
    }

    func sort(_ half: Int, of photos: [Photo], by order: PhotoOrder) {
        if half == 0 {
            first = order.records(of: photos, in: 0..<middle)
            order.sort(&first, of: photos)
        } else {
            second = order.records(of: photos, in: middle..<photos.count)
            order.sort(&second, of: photos)
        }
    }
}
