/// Failures kept in memory for a while only. A thumbnail that failed for a reason that may
/// not last (`DecodeFailure.isLasting` is false: the decoder ran out of time on a busy
/// machine, the file was unreadable for the moment) is due to be asked for again once
/// `delay` seconds have passed: the next tile bound to the photo, prefetch or viewer then
/// asks anew, instead of showing the failure for as long as the folder is open.
///
/// Times are seconds on any clock that only moves forward (the caller's uptime).
public struct TransientFailures<Key: Hashable> {
    /// Seconds a passing failure is kept.
    public let delay: Double
    private var due: [Key: Double] = [:]

    public init(delay: Double = 10) {
        self.delay = delay
    }

    /// Notes how `key`'s request ended at `now`: with a failure that may not last, it is due
    /// again after the delay; with anything else (an image, a lasting failure), it is not.
    public mutating func finished(_ key: Key, failure: DecodeFailure?, at now: Double) {
        if let failure, !failure.isLasting {
            due[key] = now + delay
        } else {
            due[key] = nil
        }
    }

    /// Whether `key`'s failure is to be forgotten at `now`, so that it is asked for again;
    /// when it is, it is no longer noted.
    public mutating func isDue(_ key: Key, at now: Double) -> Bool {
        guard let time = due[key], now >= time else { return false }
        due[key] = nil
        return true
    }

    /// Stops noting `key` (its failure left memory some other way).
    public mutating func forget(_ key: Key) {
        due[key] = nil
    }

    /// Stops noting every failure, and returns their keys: all are to be asked for again now
    /// (decoding became available again).
    public mutating func removeAll() -> [Key] {
        defer { due.removeAll() }
        return Array(due.keys)
    }

    /// How many failures are noted.
    public var count: Int { due.count }
}
