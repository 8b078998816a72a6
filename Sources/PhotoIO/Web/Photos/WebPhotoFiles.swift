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
        /// One lock per address being fetched, and how many fetches hold or wait for it.
        var fetching: [String: (lock: NSLock, users: Int)] = [:]
    }
    private let state = Mutex(State())

    public init(cache: WebCache, client: WebClient = .shared) {
        self.cache = cache
        self.client = client
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
    /// Fetches of one address at once go one after the other: the later ones then find the
    /// file the first one brought (a thumbnail that is its photo, while the viewer downloads
    /// it), rather than downloading it again beside it.
    public func fetch(_ url: String, policy: WebRequest.CachePolicy, cancellation: CancellationFlag) -> Result<DownloadedFile, WebFailure> {
        if cancellation.isCancelled { return .failure(.cancelled) }
        let lock = state.withLock { state -> NSLock in
            let entry = state.fetching[url] ?? (NSLock(), 0)
            state.fetching[url] = (entry.lock, entry.users + 1)
            return entry.lock
        }
        defer {
            state.withLock { state in
                guard let entry = state.fetching[url] else { return }
                state.fetching[url] = entry.users > 1 ? (entry.lock, entry.users - 1) : nil
            }
        }
        while !lock.lock(before: Date().addingTimeInterval(0.1)) {
            if cancellation.isCancelled { return .failure(.cancelled) }
        }
        defer { lock.unlock() }
        return download(url, policy: policy, cancellation: cancellation)
    }

    private func download(_ url: String, policy: WebRequest.CachePolicy, cancellation: CancellationFlag) -> Result<DownloadedFile, WebFailure> {
        if cancellation.isCancelled { return .failure(.cancelled) }
        let download = WebDownload(WebRequest(url: url, content: .photo, cachePolicy: policy), client: client, cache: cache)
        let watch = CancellationWatch(flag: cancellation, download: download)
        defer { watch.stop() }
        let observer = state.withLock { $0.observer }
        var lastTold = 0.0
        return download.run { progress in
            guard let observer else { return }
            // At most ten times a second, and always the first and the last.
            let now = Date.timeIntervalSinceReferenceDate
            let isLast = progress.total.map { progress.received >= $0 } ?? false
            guard isLast || lastTold == 0 || now - lastTold >= 0.1 else { return }
            lastTold = now
            observer(url, progress)
        }
    }

    /// The complete cached file of `url`, if there is one (no network).
    public func cachedFile(_ url: String) -> WebCacheEntry? {
        cache.entry(for: url)
    }
}

/// Cancels a download when its flag is set, checking ten times a second: a download waiting
/// for a silent server reads no chunk that could look at the flag.
private final class CancellationWatch {
    private let timer: any DispatchSourceTimer

    init(flag: CancellationFlag, download: WebDownload) {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
        timer.setEventHandler { [weak download] in
            guard flag.isCancelled, let download, !download.isCancelled else { return }
            download.cancel()
        }
        self.timer = timer
        timer.resume()
    }

    func stop() { timer.cancel() }
}
