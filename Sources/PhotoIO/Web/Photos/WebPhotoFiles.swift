import Foundation
import PhotoCore
import Synchronization

/// The files of web photos on this computer: each photo's (or its thumbnail's) download
/// into the disk cache, cancelled when whoever asked lets go, with its progress told to the
/// one observer the app installs; and which thumbnail address stands for which photo, as
/// the web albums' lists say.
///
/// Blocking: `fetch` runs on worker threads, never on the main thread.
public final class WebPhotoFiles: Sendable {
    /// The process's web photos, in the default cache.
    public static let shared = WebPhotoFiles(cache: WebCache())

    public let cache: WebCache
    private let client: WebClient
    private struct State {
        var thumbnails: [String: String] = [:]
        var observer: (@Sendable (String, DownloadProgress) -> Void)?
        /// The download of each address being fetched, shared by every fetch of it.
        var transfers: [String: SharedTransfer] = [:]
        /// Addresses whose answer was refused for good while the app runs (too large).
        var refused: [String: WebFailure] = [:]
    }
    private let state = Mutex(State())

    /// The most bytes a photo may have.
    private let photoByteLimit: Int64?
    /// How long a download whose fetches all let go carries on, for a fetch to take it over
    /// (the viewer opening the photo whose tile let go of it).
    let handoverGrace: Double

    public init(cache: WebCache, client: WebClient = .shared, photoByteLimit: Int64? = nil, handoverGrace: Double = 2) {
        self.cache = cache
        self.client = client
        self.photoByteLimit = photoByteLimit
        self.handoverGrace = handoverGrace
    }

    /// Whether `uri` is a web address (http or https): such photos are fetched here, never
    /// through GIO.
    public static func isWebAddress(_ uri: String) -> Bool { WebAddress.isWebAddress(uri) }

    // MARK: Thumbnails

    /// Records the thumbnail addresses a list gives for its photos (photo address to
    /// thumbnail address).
    public func setThumbnails(_ thumbnails: [String: String]) {
        guard !thumbnails.isEmpty else { return }
        state.withLock { $0.thumbnails.merge(thumbnails) { _, new in new } }
    }

    /// What to download for a photo's thumbnail: the list's thumbnail, else the photo.
    public func thumbnailAddress(of photo: String) -> String {
        state.withLock { $0.thumbnails[photo] } ?? photo
    }

    // MARK: Progress

    /// Calls `observer` (on the downloading thread) with each download's address and
    /// progress; one observer for the process.
    public func observeProgress(_ observer: @escaping @Sendable (_ url: String, _ progress: DownloadProgress) -> Void) {
        state.withLock { $0.observer = observer }
    }

    // MARK: Fetching

    /// The file of `url` in the cache: downloaded now, revalidated, or as cached (see
    /// `WebRequest.CachePolicy`). Stops with `.cancelled` soon after `cancellation` is set.
    ///
    /// Fetches of one address at once share one download: a later fetch (the viewer's,
    /// while the tile's download runs) waits for it and gets its file, rather than
    /// downloading it again. The download stops only when every fetch sharing it has let go
    /// for `handoverGrace` seconds. An answer refused as too large is remembered while the
    /// process runs: it is not downloaded again to its limit.
    public func fetch(_ url: String, policy: WebRequest.CachePolicy, cancellation: CancellationFlag) -> Result<DownloadedFile, WebFailure> {
        while true {
            if cancellation.isCancelled { return .failure(.cancelled) }
            let (transfer, isOwn, refusal) = state.withLock { state -> (SharedTransfer?, Bool, WebFailure?) in
                if let refusal = state.refused[url] { return (nil, false, refusal) }
                if let running = state.transfers[url] {
                    running.join()
                    return (running, false, nil)
                }
                let started = SharedTransfer(WebDownload(
                    WebRequest(url: url, content: .photo, byteLimit: photoByteLimit, cachePolicy: policy), client: client, cache: cache))
                state.transfers[url] = started
                return (started, true, nil)
            }
            if let refusal { return .failure(refusal) }
            guard let transfer else { continue }
            if isOwn { run(transfer, url: url, cancellation: cancellation) }
            switch transfer.wait(cancellation: cancellation) {
            case nil:
                return .failure(.cancelled)
            case .failure(let failure) where failure.kind == .cancelled:
                // Stopped as every fetch let go, just before this one joined: start again.
                continue
            case let result?:
                return result
            }
        }
    }

    /// Runs `transfer`'s download on this thread until it ends, or until every fetch has let
    /// go of it for the grace period.
    private func run(_ transfer: SharedTransfer, url: String, cancellation: CancellationFlag) {
        let grace = handoverGrace
        let watch = CancellationWatch(download: transfer.download) {
            if cancellation.isCancelled { transfer.leaveOnce(cancellation) }
            return transfer.isAbandoned(for: grace)
        }
        let observer = state.withLock { $0.observer }
        var lastTold = 0.0
        let result = transfer.download.run { progress in
            guard let observer else { return }
            // At most ten times a second, and always the first and the last.
            let now = Date.timeIntervalSinceReferenceDate
            let isLast = progress.total.map { progress.received >= $0 } ?? false
            guard isLast || lastTold == 0 || now - lastTold >= 0.1 else { return }
            lastTold = now
            observer(url, progress)
        }
        watch.stop()
        state.withLock { state in
            if state.transfers[url] === transfer { state.transfers[url] = nil }
            if case .failure(let failure) = result, failure.kind == .tooLarge { state.refused[url] = failure }
        }
        transfer.finish(result)
    }

    /// The complete cached file of `url`, if there is one (no network).
    public func cachedFile(_ url: String) -> WebCacheEntry? {
        cache.entry(for: url)
    }
}

/// One download that several fetches of its address share: the fetches holding it, and its
/// result once it ended.
private final class SharedTransfer: Sendable {
    let download: WebDownload
    private struct State {
        var holders = 1
        var lastLeft: Double?
        var result: Result<DownloadedFile, WebFailure>?
        /// The flags of fetches that let go (a fetch leaves once).
        var left: [ObjectIdentifier] = []
    }
    private let state = Mutex(State())
    private let ended = DispatchSemaphore(value: 0)

    init(_ download: WebDownload) { self.download = download }

    /// One more fetch shares it.
    func join() { state.withLock { $0.holders += 1 } }

    /// The fetch of `flag` lets go, once.
    func leaveOnce(_ flag: CancellationFlag) {
        state.withLock { state in
            let id = ObjectIdentifier(flag)
            guard !state.left.contains(id) else { return }
            state.left.append(id)
            state.holders -= 1
            if state.holders == 0 { state.lastLeft = ProcessInfo.processInfo.systemUptime }
        }
    }

    /// Whether no fetch has held it for `grace` seconds.
    func isAbandoned(for grace: Double) -> Bool {
        state.withLock { state in
            guard state.holders <= 0, let lastLeft = state.lastLeft else { return false }
            return ProcessInfo.processInfo.systemUptime - lastLeft >= grace
        }
    }

    func finish(_ result: Result<DownloadedFile, WebFailure>) {
        state.withLock { $0.result = result }
        ended.signal()
    }

    /// Its result once it ended; nil when `cancellation` was set first (the fetch then lets go).
    func wait(cancellation: CancellationFlag) -> Result<DownloadedFile, WebFailure>? {
        while true {
            if let result = state.withLock({ $0.result }) { return result }
            if cancellation.isCancelled {
                leaveOnce(cancellation)
                return nil
            }
            if ended.wait(timeout: .now() + 0.1) == .success {
                ended.signal()  // for the other fetches waiting
            }
        }
    }
}

/// Cancels a download when `shouldStop` says so, asking ten times a second: a download
/// waiting for a silent server reads no chunk that could look at a flag.
private final class CancellationWatch {
    private let timer: any DispatchSourceTimer

    init(download: WebDownload, shouldStop: @escaping @Sendable () -> Bool) {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
        timer.setEventHandler { [weak download] in
            guard let download, !download.isCancelled, shouldStop() else { return }
            download.cancel()
        }
        self.timer = timer
        timer.resume()
    }

    func stop() { timer.cancel() }
}
