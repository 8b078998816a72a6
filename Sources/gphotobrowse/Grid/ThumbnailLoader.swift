import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A thumbnail as the grid holds it: a texture over the decoded pixels (which the viewer
/// paints its placeholder from, without reading the texture back), or the reason there is none.
enum Thumbnail {
    case image(Texture, pixels: DecodedImage)
    case failed(String)
}

/// Gets thumbnails on the shared decode pool and keeps the recent ones in memory.
///
/// Each comes from the freedesktop thumbnail cache that file managers share when it holds a
/// valid one, else it is decoded and written there (`ThumbnailProvider`, the same code
/// the benchmark runs). Thumbnails are keyed by `PhotoVersion`: a photo rewritten on disk
/// gets a new one.
///
/// Requests are shared by their holders (the core's `PendingRequests`): when the last holder
/// lets go before the decode started, the decode is dropped; a running one is told to stop.
/// A failure that may not last (a timeout, a file unreadable for the moment) is forgotten
/// after a while (the core's `TransientFailures`), so the photo is asked for again.
@MainActor
final class ThumbnailLoader {
    private let live = LiveObjects.Token("ThumbnailLoader")
    /// The cache size asked for (its edge is the box thumbnails are shrunk to fit).
    let size: ThumbnailSize
    private let provider: ThumbnailProvider
    private var cache: RecentCache<PhotoVersion, Thumbnail>
    private var pending = PendingRequests<PhotoVersion, QueuedWork>()
    /// Web photos being fetched: the address downloaded for each (its thumbnail's, or its own).
    private var downloading: [String: PhotoVersion] = [:]
    private var progressToken: Int?
    private var progressObservers: [(PhotoVersion, DownloadProgress) -> Void] = []
    private var transient = TransientFailures<PhotoVersion>()
    private var readyObservers: [(PhotoVersion, Thumbnail) -> Void] = []

    init(size: ThumbnailSize, provider: ThumbnailProvider = ThumbnailProvider(decoder: IsolatedDecoder.shared), cacheLimit: Int = 64 << 20) {
        self.size = size
        self.provider = provider
        cache = RecentCache(limit: cacheLimit)
    }

    /// Calls `observer` on the main thread whenever a thumbnail is ready or has failed.
    func observeReady(_ observer: @escaping (_ key: PhotoVersion, _ thumbnail: Thumbnail) -> Void) {
        readyObservers.append(observer)
    }

    /// Calls `observer` on the main thread as a web photo's thumbnail downloads.
    func observeProgress(_ observer: @escaping (_ key: PhotoVersion, _ progress: DownloadProgress) -> Void) {
        progressObservers.append(observer)
        guard progressToken == nil else { return }
        progressToken = WebDownloads.shared.observe { [weak self] url, progress in
            guard let self, let key = self.downloading[url] else { return }
            for observer in self.progressObservers { observer(key, progress) }
        }
    }

    /// The thumbnail if it is in memory.
    func cached(_ key: PhotoVersion) -> Thumbnail? {
        forgetIfDue(key)
        return cache.value(for: key)
    }

    /// Whether the thumbnail is in memory, without counting as a use.
    func isCached(_ key: PhotoVersion) -> Bool {
        forgetIfDue(key)
        return cache.contains(key)
    }

    /// Drops a failure that may not last once its time is up.
    private func forgetIfDue(_ key: PhotoVersion) {
        if transient.isDue(key, at: ProcessInfo.processInfo.systemUptime) { cache.remove(key) }
    }

    /// Asks for a thumbnail; observers hear when it is there. Each request must be balanced
    /// by `release` once its holder no longer needs it. Higher priority runs first.
    func request(_ key: PhotoVersion, priority: Int) {
        if pending.join(key) { return }
        let request = ThumbnailRequest(uri: key.id, modifiedMicroseconds: key.modified, fileSize: key.size, size: size)
        let provider = self.provider
        // A web photo waits on its server, not on a processor: it has workers of its own.
        let isWeb = WebPhotoFiles.isWebAddress(key.id)
        if isWeb { downloading[WebPhotoFiles.shared.thumbnailAddress(of: key.id)] = key }
        let pool = isWeb ? DecodePool.downloads : DecodePool.shared
        let ticket = pool.submit(priority: priority) { [weak self] flag in
            let result = provider.thumbnail(for: request, cancellation: flag)
            if case .failure(let failure) = result, failure.kind == .cancelled { return }
            onMain { self?.finish(key, result) }
        }
        pending.started(key, ticket: QueuedWork(pool: pool, ticket: ticket))
    }

    /// Whether a decode for `key` is queued or running.
    func isPending(_ key: PhotoVersion) -> Bool { pending.isPending(key) }

    /// One holder of `key` no longer needs it.
    func release(_ key: PhotoVersion) {
        if let work = pending.leave(key) {
            work.cancel()
            forgetDownload(of: key)
        }
    }

    /// Cancels everything (the folder was closed).
    func cancelAll() {
        for work in pending.removeAll() { work.cancel() }
        downloading.removeAll()
        if let progressToken { WebDownloads.shared.stop(progressToken) }
        progressToken = nil
    }

    private func finish(_ key: PhotoVersion, _ result: Result<DecodedImage, DecodeFailure>) {
        guard pending.finish(key) else { return }
        forgetDownload(of: key)
        let thumbnail: Thumbnail
        var bytes = 64
        switch result {
        case .success(let image):
            thumbnail = .image(image.makeTexture(), pixels: image)
            bytes = image.pixels.count
        case .failure(let failure):
            thumbnail = .failed(failure.reason)
        }
        let failure: DecodeFailure? = if case .failure(let failure) = result { failure } else { nil }
        transient.finished(key, failure: failure, at: ProcessInfo.processInfo.systemUptime)
        for evicted in cache.store(thumbnail, bytes: bytes, for: key) { transient.forget(evicted) }
        for observer in readyObservers { observer(key, thumbnail) }
    }
}

extension ThumbnailLoader {
    private func forgetDownload(of key: PhotoVersion) {
        guard WebPhotoFiles.isWebAddress(key.id) else { return }
        downloading[WebPhotoFiles.shared.thumbnailAddress(of: key.id)] = nil
    }
}

/// Work queued on a pool, to cancel on the pool it went to.
struct QueuedWork: Sendable {
    let pool: DecodePool
    let ticket: DecodePool.Ticket

    func cancel() { pool.cancel(ticket) }
}

extension DecodePool {
    /// The process's decode workers: one per core.
    static let shared = DecodePool()
}
