/// Which photos around the current one hold their full (display-size) image while viewing.
///
/// Policy as data, as Loupe does it (`const BUFFER: usize = 2; files_around(current, BUFFER)`):
/// the window is the current photo and `radius` photos on each side of it in display order,
/// clamped to the folder. It does not slide inwards at the ends: on the first photo with a
/// radius of 1 the window is the first two photos, not the first three. `NeighbourTracker`
/// applies the window as a diff.
public struct NeighbourWindow: Sendable, Hashable {
    /// How many photos on each side of the current one are kept; never negative.
    public let radius: Int

    /// A window of the current photo and `radius` photos on each side (a negative radius
    /// counts as 0: the current photo alone).
    public init(radius: Int = 1) {
        self.radius = max(0, radius)
    }

    /// The positions in the window around `current` in a folder of `count` photos.
    ///
    /// `current ± radius`, clamped to `0..<count`; nil for an empty folder. A `current`
    /// outside `0..<count` is first clamped into it.
    ///
    /// ```swift
    /// NeighbourWindow(radius: 1).indices(around: 0, count: 5)   // 0...1
    /// NeighbourWindow(radius: 1).indices(around: 2, count: 5)   // 1...3
    /// NeighbourWindow(radius: 1).indices(around: 0, count: 0)   // nil
    /// ```
    public func indices(around current: Int, count: Int) -> ClosedRange<Int>? {
        guard count > 0 else { return nil }
        let c = min(max(current, 0), count - 1)
        return max(0, c - radius)...min(count - 1, c + radius)
    }

    /// The positions in the window, most wanted first: the current one, then its
    /// neighbours by distance, the next before the previous at each distance (paging goes
    /// forwards more often than back).
    ///
    /// ```swift
    /// NeighbourWindow(radius: 2).indicesByPriority(around: 5, count: 10)   // [5, 6, 4, 7, 3]
    /// ```
    public func indicesByPriority(around current: Int, count: Int) -> [Int] {
        guard let range = indices(around: current, count: count) else { return [] }
        let c = min(max(current, 0), count - 1)
        var out = [c]
        out.reserveCapacity(range.count)
        for distance in stride(from: 1, through: radius, by: 1) {
            if c + distance <= range.upperBound { out.append(c + distance) }
            if c - distance >= range.lowerBound { out.append(c - distance) }
        }
        return out
    }

    /// The photo to show after `removed` left the folder while it was the current one.
    ///
    /// The first photo after it in `oldOrder` that is still in `newOrder` (the one that
    /// took its place), else the nearest one before it, else the first of `newOrder`
    /// (`removed` was not in `oldOrder`); nil when `newOrder` is empty. This is Loupe's
    /// rule on delete: the next photo, or the previous one after the last.
    public static func replacement(for removed: String, oldOrder: [String], newOrder: [String]) -> String? {
        guard !newOrder.isEmpty else { return nil }
        let remaining = Set(newOrder)
        guard let position = oldOrder.firstIndex(of: removed) else { return newOrder.first }
        if let after = oldOrder[(position + 1)...].first(where: { remaining.contains($0) }) { return after }
        if let before = oldOrder[..<position].last(where: { remaining.contains($0) }) { return before }
        return newOrder.first
    }

    /// `replacement(for:oldOrder:newOrder:)` for a photo that `splice` took out of `list`
    /// (`list` as it is after the splice), without the whole old order: the old order is the
    /// new one with `splice.inserted` swapped back for `splice.removedIDs`.
    ///
    /// Nil when `list` is empty, or when `removed` is still in `list` (it was moved, not
    /// removed: the caller follows it instead).
    public static func replacement(for removed: String, after splice: PhotoList.Splice, in list: PhotoList) -> String? {
        guard !list.isEmpty, list.index(of: removed) == nil else { return nil }
        let old = splice.removedIDs
        guard let position = old.firstIndex(of: removed) else { return list[0].id }
        let remains = { (id: String) in list.index(of: id) != nil }
        if let after = old[(position + 1)...].first(where: remains) { return after }
        // What followed the splice in the old order follows it in the new one, and stayed.
        let following = splice.position + splice.inserted.count
        if following < list.count { return list[following].id }
        if let before = old[..<position].last(where: remains) { return before }
        if splice.position > 0 { return list[splice.position - 1].id }
        return list[0].id
    }
}
