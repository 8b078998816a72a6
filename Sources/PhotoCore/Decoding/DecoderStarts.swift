/// Whether decoder processes start, and when to try again after one could not.
///
/// Decoding never falls back to the browser: while no decoder process starts (a program
/// missing, a transient fork or memory failure), requests fail at once as "could not be
/// decoded safely" (`DecodeFailure.Kind.unavailable`), and a start is tried again after a
/// delay that doubles with each failure, from `firstDelay` up to `maxDelay` seconds; Retry
/// (`retryNow`) tries at once. One caller at a time gets to try when the delay is over
/// (`beginStart` moves the next try on), so a burst of requests does not fork a burst of
/// processes that cannot start.
///
/// Times are seconds on any clock that only moves forward (the caller's uptime).
///
/// ```swift
/// var starts = DecoderStarts()
/// starts.failed("the program is missing", at: 0)   // true: decoding became unavailable
/// starts.beginStart(at: 0.5)                        // false: not before 1 s
/// starts.beginStart(at: 1)                          // true: try once
/// starts.started()                                  // true: available again
/// ```
public struct DecoderStarts: Sendable, Equatable {
    /// Whether decoding can be done now.
    public enum Availability: Sendable, Equatable {
        case available
        /// No decoder process starts; `reason` says why, in a sentence.
        case unavailable(reason: String)
    }

    public let firstDelay: Double
    public let maxDelay: Double
    public private(set) var availability = Availability.available
    /// Starts failed in a row.
    public private(set) var failures = 0
    /// When a start may be tried again, while unavailable.
    public private(set) var nextTry: Double = 0

    public init(firstDelay: Double = 1, maxDelay: Double = 60) {
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
    }

    /// The delay after `failures` failed starts in a row.
    public func delay(afterFailures failures: Int) -> Double {
        guard failures > 0 else { return 0 }
        var delay = firstDelay
        for _ in 1..<failures where delay < maxDelay { delay *= 2 }
        return min(delay, maxDelay)
    }

    /// Whether the caller may try to start a process at `now`: always while decoding is
    /// available; while not, once the delay has passed, and then only this caller until
    /// the delay has passed again.
    public mutating func beginStart(at now: Double) -> Bool {
        guard availability != .available else { return true }
        guard now >= nextTry else { return false }
        nextTry = now + delay(afterFailures: max(failures, 1))
        return true
    }

    /// A start failed at `now` for `reason`. Returns whether decoding just became
    /// unavailable (or unavailable for another reason).
    @discardableResult
    public mutating func failed(_ reason: String, at now: Double) -> Bool {
        failures += 1
        nextTry = now + delay(afterFailures: failures)
        let was = availability
        availability = .unavailable(reason: reason)
        return was != availability
    }

    /// A process started. Returns whether decoding just became available again.
    @discardableResult
    public mutating func started() -> Bool {
        failures = 0
        nextTry = 0
        let was = availability
        availability = .available
        return was != .available
    }

    /// Retry: the next start may be tried at once.
    public mutating func retryNow(at now: Double) {
        nextTry = min(nextTry, now)
    }
}
