/// Tells when paging through photos has settled, so that full images load only then.
///
/// Holding an arrow key pages every 30 ms or so; loading a full image for each photo shown
/// that briefly would queue decodes nobody sees. Each page pushes the settle time to
/// `delay` after it, so a held key never settles and letting go settles `delay` after the
/// last page. Before the first page it is settled: opening the viewer loads at once.
///
/// Times are seconds from a clock the caller chooses (a monotonic one, e.g.
/// `g_get_monotonic_time() / 1e6`), which keeps this testable without waiting.
public struct PagingSettler: Sendable, Equatable {
    /// How long after the last page paging counts as settled, in seconds.
    public let delay: Double
    /// When the last page happened, or nil before any.
    public private(set) var lastPage: Double?

    /// A settler that waits `delay` seconds (at least 0) after the last page.
    public init(delay: Double = 0.15) {
        self.delay = max(0, delay)
    }

    /// Records a page at `time`.
    public mutating func paged(at time: Double) {
        lastPage = time
    }

    /// When paging settles (or settled): `delay` after the last page; nil before any page.
    public var settleTime: Double? {
        lastPage.map { $0 + delay }
    }

    /// Whether paging has settled at `time`: true before any page and from `settleTime` on.
    public func isSettled(at time: Double) -> Bool {
        guard let settleTime else { return true }
        return time >= settleTime
    }

    /// Seconds from `time` until paging settles; 0 when it already has. What to arm a
    /// one-shot timer with after a page.
    public func remainingDelay(at time: Double) -> Double {
        guard let settleTime else { return 0 }
        return max(0, settleTime - time)
    }
}
