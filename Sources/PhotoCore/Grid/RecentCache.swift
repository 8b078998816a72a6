/// The recently used values (thumbnails in memory), up to a number of bytes: past it, the
/// least recently used quarter goes in one pass rather than one entry per insert.
public struct RecentCache<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, used: UInt64, bytes: Int)] = [:]
    private var clock: UInt64 = 0
    /// The bytes the values hold, as told to `store`.
    public private(set) var bytes = 0
    /// Past this many bytes, `store` evicts.
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    public var count: Int { entries.count }

    /// The value for `key`, counting as a use.
    public mutating func value(for key: Key) -> Value? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.value, clock, entry.bytes)
        return entry.value
    }

    /// Whether a value for `key` is held, without counting as a use.
    public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Stores `value` (holding `bytes`) for `key`; returns the keys evicted to stay within
    /// the limit (never `key` itself).
    @discardableResult
    public mutating func store(_ value: Value, bytes size: Int, for key: Key) -> [Key] {
        if let old = entries[key] { bytes -= old.bytes }
        clock += 1
        entries[key] = (value, clock, size)
        bytes += size
        guard bytes > limit else { return [] }
        let victims = entries.filter { $0.key != key }
            .sorted { $0.value.used < $1.value.used }
            .prefix(max(1, entries.count / 4))
        for (victim, entry) in victims {
            bytes -= entry.bytes
            entries[victim] = nil
        }
        return victims.map(\.key)
    }

    /// Drops the value for `key`.
    public mutating func remove(_ key: Key) {
        guard let old = entries.removeValue(forKey: key) else { return }
        bytes -= old.bytes
    }
}
