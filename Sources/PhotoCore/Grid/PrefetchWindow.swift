/// The thumbnails fetched ahead of the scroll: the screenful after the tiles in view, in the
/// direction the grid last scrolled. Kept as a diff, as `NeighbourTracker` keeps the
/// viewer's images: each update says what to ask for and what to let go of.
public struct PrefetchWindow<Key: Hashable & Sendable>: Sendable {
    /// What was asked for and not let go of since.
    public private(set) var held: Set<Key> = []

    public init() {}

    /// The positions of the next screenful: as many photos as are in view (`visible`, the
    /// first and last positions in view), after them when scrolling down, before them
    /// when scrolling up; empty when nothing is in view, and while the album is still being
    /// listed (`albumListed` false: the next screenful is not known before its last photo is).
    public static func range(visible: ClosedRange<Int>?, count: Int, scrollingDown: Bool, albumListed: Bool = true) -> Range<Int> {
        guard let visible, count > 0, albumListed else { return 0..<0 }
        let screenful = visible.count
        if scrollingDown {
            let start = min(visible.upperBound + 1, count)
            return start..<min(start + screenful, count)
        }
        let end = max(min(visible.lowerBound, count), 0)
        return max(end - screenful, 0)..<end
    }

    /// How far `index` is from the tiles in view, in photos, for the prefetch's priority.
    public static func distance(of index: Int, from visible: ClosedRange<Int>, scrollingDown: Bool) -> Int {
        scrollingDown ? index - visible.upperBound : visible.lowerBound - index
    }

    /// Makes `wanted` (each key with its priority) the prefetched set; returns the keys to
    /// ask for, most wanted first, and those to let go of.
    public mutating func update(wanted: [Key: Int]) -> (request: [(key: Key, priority: Int)], release: [Key]) {
        let release = held.filter { wanted[$0] == nil }
        let request = wanted.filter { !held.contains($0.key) }
            .map { (key: $0.key, priority: $0.value) }
            .sorted { $0.priority > $1.priority }
        held = Set(wanted.keys)
        return (request, Array(release))
    }

    /// A prefetched thumbnail arrived: it no longer needs holding.
    public mutating func arrived(_ key: Key) {
        held.remove(key)
    }

    /// Lets go of everything (returns what was held).
    public mutating func releaseAll() -> [Key] {
        defer { held.removeAll() }
        return Array(held)
    }
}
