/// Requests under way, each shared by the holders that asked for it: a tile showing a photo
/// holds one, a prefetch of the next screenful holds one. When the last holder lets go, the
/// request is cancelled; a result that arrives for a request nobody holds any more is
/// dropped, so a recycled tile never receives its previous photo's thumbnail.
public struct PendingRequests<Key: Hashable & Sendable, Ticket: Sendable>: Sendable {
    private var entries: [Key: (ticket: Ticket, holders: Int)] = [:]

    public init() {}

    public var count: Int { entries.count }

    /// Whether a request for `key` is under way.
    public func isPending(_ key: Key) -> Bool { entries[key] != nil }

    /// Joins the request for `key` as one more holder; false when none is under way (the
    /// caller starts one and records it with `started`).
    public mutating func join(_ key: Key) -> Bool {
        guard let entry = entries[key] else { return false }
        entries[key] = (entry.ticket, entry.holders + 1)
        return true
    }

    /// Records a request just started for `key`, with its first holder.
    public mutating func started(_ key: Key, ticket: Ticket) {
        entries[key] = (ticket, 1)
    }

    /// The request for `key` goes on as other work (a second step: a photo's whole file after
    /// its embedded preview), under `ticket`, for the same holders; false when nobody holds
    /// it any more (the caller does not start that work).
    public mutating func continued(_ key: Key, ticket: Ticket) -> Bool {
        guard let entry = entries[key] else { return false }
        entries[key] = (ticket, entry.holders)
        return true
    }

    /// One holder of `key` lets go; returns the request's ticket to cancel when it was the
    /// last holder, else nil.
    public mutating func leave(_ key: Key) -> Ticket? {
        guard let entry = entries[key] else { return nil }
        if entry.holders > 1 {
            entries[key] = (entry.ticket, entry.holders - 1)
            return nil
        }
        entries[key] = nil
        return entry.ticket
    }

    /// The request for `key` finished; false when nobody holds it any more (its result is
    /// to be dropped).
    public mutating func finish(_ key: Key) -> Bool {
        entries.removeValue(forKey: key) != nil
    }

    /// Forgets every request; returns their tickets to cancel.
    public mutating func removeAll() -> [Ticket] {
        defer { entries.removeAll() }
        return entries.values.map(\.ticket)
    }
}
