/// Changes gathered for a moment and handled together: a program touching a thousand files
/// costs a few lookups, not a thousand. The first change since the last `take` asks for the
/// one flush that will take them all.
///
/// ```swift
/// if batch.add(uris) { after(milliseconds: 150) { handle(batch.take()) } }
/// ```
public struct ChangeBatch<Element: Hashable & Sendable>: Sendable {
    /// The changes gathered since the last `take`.
    public private(set) var pending = Set<Element>()
    /// Whether a flush has been asked for and not yet taken.
    public private(set) var isFlushScheduled = false

    public init() {}

    /// Gathers `changes`; true when the caller should schedule the flush (nothing was
    /// gathered before, and `changes` is not empty).
    public mutating func add(_ changes: [Element]) -> Bool {
        pending.formUnion(changes)
        guard !pending.isEmpty, !isFlushScheduled else { return false }
        isFlushScheduled = true
        return true
    }

    /// The changes gathered, now handled: the next `add` schedules a flush again.
    public mutating func take() -> Set<Element> {
        isFlushScheduled = false
        defer { pending.removeAll() }
        return pending
    }

    /// Forgets the changes gathered (the flush already scheduled finds none).
    public mutating func clear() {
        pending.removeAll()
    }
}
