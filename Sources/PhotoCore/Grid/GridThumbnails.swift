/// The grid's thumbnails: those in memory (the most recent, within a byte budget), those
/// being made and who holds them, the previews shown until they are made, and the failures
/// that may pass. The app's `ThumbnailLoader` keeps one on the main thread and runs the
/// decodes it starts; this decides what is asked for, what is kept and what is forgotten.
///
/// - A request joins the one under way for the same key; released by its last holder, it is
///   cancelled (`PendingRequests`).
/// - A result that nobody waits for any more is dropped.
/// - A preview counts only while its request is under way, and goes when the thumbnail comes.
/// - A failure that may not last is forgotten after a while (`TransientFailures`), and when
///   the memory budget pushes it out.
public struct GridThumbnails<Key: Hashable & Sendable, Ticket: Sendable, Image> {
    private var cache: RecentCache<Key, Image>
    private var previews: RecentCache<Key, Image>
    private var pending = PendingRequests<Key, Ticket>()
    private var transient: TransientFailures<Key>

    /// Thumbnails kept within `cacheLimit` bytes, previews within `previewLimit`; a failure that
    /// may not last forgotten after `failureDelay` seconds.
    public init(cacheLimit: Int, previewLimit: Int = 16 << 20, failureDelay: Double = 10) {
        cache = RecentCache(limit: cacheLimit)
        previews = RecentCache(limit: previewLimit)
        transient = TransientFailures(delay: failureDelay)
    }

    // MARK: What is there

    /// The thumbnail (or failure) in memory, counted as a use; a passing failure past its
    /// time is forgotten first.
    public mutating func cached(_ key: Key, at now: Double) -> Image? {
        forgetIfDue(key, at: now)
        return cache.value(for: key)
    }

    /// Whether the thumbnail is in memory, without counting as a use.
    public mutating func isCached(_ key: Key, at now: Double) -> Bool {
        forgetIfDue(key, at: now)
        return cache.contains(key)
    }

    /// The preview shown for `key` until its thumbnail is made, if there is one.
    public mutating func preview(_ key: Key) -> Image? { previews.value(for: key) }

    /// Whether a request for `key` is under way.
    public func isPending(_ key: Key) -> Bool { pending.isPending(key) }

    /// How many requests are under way.
    public var pendingCount: Int { pending.count }

    private mutating func forgetIfDue(_ key: Key, at now: Double) {
        if transient.isDue(key, at: now) { cache.remove(key) }
    }

    // MARK: Requests

    /// One more holder of `key`: true when a request is under way already (it joined it),
    /// false when one is to start (then `started`).
    public mutating func join(_ key: Key) -> Bool { pending.join(key) }

    /// The request for `key` started, as `ticket`.
    public mutating func started(_ key: Key, ticket: Ticket) { pending.started(key, ticket: ticket) }

    /// A preview arrived for `key` (nil: the file has none): kept if its request is still
    /// under way. Returns whether it is (then the rest of the work goes on: `continued`).
    public mutating func previewArrived(_ preview: Image?, bytes: Int, for key: Key) -> Bool {
        guard pending.isPending(key) else { return false }
        if let preview { _ = previews.store(preview, bytes: bytes, for: key) }
        return true
    }

    /// The request for `key` goes on as `ticket`; false when nobody holds it any more (cancel
    /// `ticket`).
    public mutating func continued(_ key: Key, ticket: Ticket) -> Bool { pending.continued(key, ticket: ticket) }

    /// One holder of `key` lets go: the ticket to cancel when it was the last.
    public mutating func release(_ key: Key) -> Ticket? { pending.leave(key) }

    /// The request for `key` ended with `thumbnail` (a failure's, when `failure` is set). False
    /// when nobody waits for it any more: it is dropped. Else it is kept, its preview goes, and
    /// a failure that may not last is timed.
    public mutating func finished(_ key: Key, thumbnail: Image, bytes: Int, failure: DecodeFailure?, at now: Double) -> Bool {
        guard pending.finish(key) else { return false }
        transient.finished(key, failure: failure, at: now)
        previews.remove(key)
        for evicted in cache.store(thumbnail, bytes: bytes, for: key) { transient.forget(evicted) }
        return true
    }

    /// Every request ends (the folder was closed): the tickets to cancel.
    public mutating func cancelAll() -> [Ticket] { pending.removeAll() }

    /// Forgets every failure that may not last, so that the tiles showing one ask again;
    /// returns their keys.
    public mutating func forgetPassingFailures() -> Set<Key> {
        let keys = transient.removeAll()
        for key in keys { cache.remove(key) }
        return Set(keys)
    }
}
