/// Decoded tiles kept within a number of bytes, the least recently used out first.
///
/// Reading a tile (`value(for:)`) or putting one in makes it the most recent, so the tiles a
/// view draws each frame stay while those it left go first. A tile larger than the whole
/// budget is not kept.
public struct TileCache<Key: Hashable, Value> {
    public let capacity: Int
    public private(set) var totalBytes = 0
    private var entries: [Key: (value: Value, bytes: Int, used: UInt64)] = [:]
    private var clock: UInt64 = 0

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    public var count: Int { entries.count }
    public var keys: [Key] { Array(entries.keys) }

    /// The tile, made the most recent; nil when it is not kept.
    public mutating func value(for key: Key) -> Value? {
        guard entries[key] != nil else { return nil }
        clock += 1
        entries[key]!.used = clock
        return entries[key]!.value
    }

    /// The tile, leaving the order as it is.
    public func peek(_ key: Key) -> Value? { entries[key]?.value }

    public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Keeps `value` as the most recent; lets the least recent go until the total fits.
    /// Returns the keys let go.
    @discardableResult
    public mutating func insert(_ value: Value, for key: Key, bytes: Int) -> [Key] {
        remove(key)
        guard bytes <= capacity else { return [] }
        clock += 1
        entries[key] = (value, max(0, bytes), clock)
        totalBytes += max(0, bytes)
        var evicted: [Key] = []
        if totalBytes > capacity {
            // Oldest first; sorting once is cheaper than a scan per eviction.
            for (old, entry) in entries.sorted(by: { $0.value.used < $1.value.used }) where old != key {
                guard totalBytes > capacity else { break }
                entries[old] = nil
                totalBytes -= entry.bytes
                evicted.append(old)
            }
        }
        return evicted
    }

    public mutating func remove(_ key: Key) {
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.bytes }
    }

    public mutating func removeAll() {
        entries.removeAll()
        totalBytes = 0
    }
}
