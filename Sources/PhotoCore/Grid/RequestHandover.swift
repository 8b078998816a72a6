/// Requests that survive a splice: a re-sort unbinds the tiles of the photos it moves and
/// binds them again, often to the same photos in other places. Letting go of their requests
/// at once would cancel decodes only to start them again; during a splice the requests tiles
/// let go of are held back, and afterwards a newly bound tile showing the same photo takes
/// its request over. Whatever nobody takes is let go of then.
public struct RequestHandover<Key: Hashable & Sendable>: Sendable {
    /// Keys let go of during the splice under way; nil outside a splice.
    private var heldBack: [Key]?

    public init() {}

    public var isInSplice: Bool { heldBack != nil }

    /// A splice begins: what is let go of until `end` is held back.
    public mutating func begin() {
        heldBack = []
    }

    /// A holder lets go of `key`: true when it is held back for the splice (the caller must
    /// not release it now), false outside a splice.
    public mutating func letGo(_ key: Key) -> Bool {
        guard heldBack != nil else { return false }
        heldBack?.append(key)
        return true
    }

    /// The splice is over. `waiting` are the holders bound during it that have not asked
    /// for their key yet; each takes over a held-back request for its key (one holder per
    /// request). Returns who took what, and the keys nobody took, to release.
    public mutating func end<Holder>(waiting: [(holder: Holder, key: Key)]) -> (taken: [(holder: Holder, key: Key)], release: [Key]) {
        guard let held = heldBack else { return ([], []) }
        heldBack = nil
        var available: [Key: Int] = [:]
        for key in held { available[key, default: 0] += 1 }
        var taken: [(holder: Holder, key: Key)] = []
        for candidate in waiting where (available[candidate.key] ?? 0) > 0 {
            available[candidate.key]! -= 1
            taken.append(candidate)
        }
        var release: [Key] = []
        for (key, count) in available { release += Array(repeating: key, count: count) }
        return (taken, release)
    }
}
