/// What to do with full images after the current photo changed: a diff, not a state.
public struct FullImagePlan: Sendable, Equatable {
    /// Photo ids whose full image to load, most wanted first (the current photo, then its
    /// nearest neighbours, the next before the previous).
    public let load: [String]
    /// Photo ids whose full image to drop (and whose pending loads to cancel), in the
    /// order they were asked to load.
    public let release: [String]

    /// A plan to load `load` (most wanted first) and release `release`.
    public init(load: [String], release: [String]) {
        self.load = load
        self.release = release
    }

    /// True when nothing is to be loaded or released.
    public var isEmpty: Bool { load.isEmpty && release.isEmpty }
}

/// Keeps the full images of a `NeighbourWindow` around the current photo, as a diff.
///
/// Each `move(to:in:)` recomputes the window on the order it is given, by identity (photo
/// ids, not positions), and returns what to load and what to release against what it
/// holds, as Loupe drops the pages outside `files_around` and adds the missing ones. So one
/// call covers every way the window can change: paging, a jump across the folder, photos
/// added or removed around the current one, a re-sort. A photo that stays in the window is
/// neither loaded again nor released.
///
/// The tracker knows nothing of decoding: `held` is what it has asked to load and not yet
/// released, whether or not the load has finished or succeeded.
///
/// ```swift
/// var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
/// tracker.move(to: "b", in: ["a", "b", "c", "d"])   // load ["b", "c", "a"], release []
/// tracker.move(to: "c", in: ["a", "b", "c", "d"])   // load ["d"], release ["a"]
/// ```
public struct NeighbourTracker: Sendable {
    /// The policy: how many neighbours on each side.
    public let window: NeighbourWindow
    /// Photo ids asked to load and not released since.
    public private(set) var held: Set<String> = []
    /// `held` in the order the ids were asked to load, which orders `release`.
    private var heldInOrder: [String] = []

    /// A tracker holding nothing yet.
    public init(window: NeighbourWindow = NeighbourWindow()) {
        self.window = window
    }

    /// Makes `current` the current photo of `order` (photo ids in display order) and
    /// returns what to load and release.
    ///
    /// When `current` is nil or not in `order` (it was deleted), nothing is wanted and
    /// everything held is released; to keep the neighbours that stay, choose the next
    /// photo first (`NeighbourWindow.replacement(for:oldOrder:newOrder:)`) and move to it.
    /// Ids that appear twice in `order` count once, at their first position.
    @discardableResult
    public mutating func move(to current: String?, in order: [String]) -> FullImagePlan {
        apply(wanted: wanted(around: current, in: order))
    }

    /// `move(to:in:)` on a `PhotoList`, looking the current photo up by id instead of
    /// scanning the order: O(radius) rather than O(count).
    @discardableResult
    public mutating func move(to current: String?, in list: PhotoList) -> FullImagePlan {
        let indices = current.flatMap(list.index(of:)).map { window.indicesByPriority(around: $0, count: list.count) } ?? []
        return apply(wanted: indices.map { list[$0].id })
    }

    /// The ids the window wants around `current` in `order`, most wanted first; empty when
    /// `current` is nil or not in `order`.
    public func wanted(around current: String?, in order: [String]) -> [String] {
        guard let current, let index = order.firstIndex(of: current) else { return [] }
        return window.indicesByPriority(around: index, count: order.count).map { order[$0] }
    }

    /// Releases everything held, as when the viewer closes.
    @discardableResult
    public mutating func releaseAll() -> FullImagePlan {
        apply(wanted: [])
    }

    /// Forgets that `id` is held without releasing it, so that the next move loads it
    /// again: for a file that changed on disk (the caller drops the stale image itself).
    /// Returns whether it was held.
    @discardableResult
    public mutating func forget(_ id: String) -> Bool {
        guard held.remove(id) != nil else { return false }
        heldInOrder.removeAll { $0 == id }
        return true
    }

    private mutating func apply(wanted: [String]) -> FullImagePlan {
        var wantedSet = Set<String>()
        let wanted = wanted.filter { wantedSet.insert($0).inserted }
        let release = heldInOrder.filter { !wantedSet.contains($0) }
        let load = wanted.filter { !held.contains($0) }
        heldInOrder = heldInOrder.filter { wantedSet.contains($0) } + load
        held = wantedSet
        return FullImagePlan(load: load, release: release)
    }
}
