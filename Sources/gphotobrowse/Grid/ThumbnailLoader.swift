import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A thumbnail as the grid holds it: a texture over the decoded pixels (which the viewer
/// paints its placeholder from, without reading the texture back), or the reason there is none.
enum Thumbnail {
    case image(Texture, pixels: DecodedImage)
    case failed(String)

    var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}

/// Gets thumbnails on the shared decode pool and keeps the recent ones in memory.
/// Photos on other machines show the preview embedded in their first bytes first.
///
/// Each comes from the freedesktop thumbnail cache that file managers share when it holds a
/// valid one, else it is decoded and written there (`ThumbnailProvider`, the same code
/// the benchmark runs). Thumbnails are keyed by `PhotoVersion`: a photo rewritten on disk
/// gets a new one.
///
/// What is kept, shared and forgotten is the core's `GridThumbnails`: requests are shared by
/// their holders; when the last holder lets go before the decode started, the decode is
/// dropped, a running one is told to stop; a failure that may not last (a timeout, a file
/// unreadable for the moment) is forgotten after a while, so the photo is asked for again.
/// Which workers make a thumbnail is PhotoIO's `ThumbnailRoute`. This runs the work and
/// turns its pixels into textures.
@MainActor
final class ThumbnailLoader {
    private let live = LiveObjects.Token("ThumbnailLoader")
    /// The cache size asked for (its edge is the box thumbnails are shrunk to fit).
    let size: ThumbnailSize
    private let provider: ThumbnailProvider
    /// What is in memory, under way, previewed or failed for a while (the core decides).
    private var thumbnails: GridThumbnails<PhotoVersion, QueuedWork, Thumbnail>
    /// Web photos being fetched: the address downloaded for each (its thumbnail's, or its own).
    private var downloading: [String: PhotoVersion] = [:]
    private var progressObservation: Observation?
    private var progressObservers: [Int: (PhotoVersion, DownloadProgress) -> Void] = [:]
    private var readyObservers: [Int: (PhotoVersion, Thumbnail) -> Void] = [:]
    private var previewObservers: [Int: (PhotoVersion, Thumbnail) -> Void] = [:]
    /// The last observer's number.
    private var lastObserver = 0

    /// The window's jobs, which the decodes and downloads belong to.
    private let jobs: WindowJobs

    init(size: ThumbnailSize, jobs: WindowJobs, provider: ThumbnailProvider = ThumbnailProvider(decoder: IsolatedDecoder.shared),
         cacheLimit: Int = 64 << 20) {
        self.size = size
        self.jobs = jobs
        self.provider = provider
        thumbnails = GridThumbnails(cacheLimit: cacheLimit)
    }

    private var now: Double { ProcessInfo.processInfo.systemUptime }

    /// Calls `observer` on the main thread whenever a thumbnail is ready or has failed,
    /// until the observation returned goes (held by the observer's owner).
    func observeReady(_ observer: @escaping (_ key: PhotoVersion, _ thumbnail: Thumbnail) -> Void) -> Observation {
        let number = nextObserver()
        readyObservers[number] = observer
        return Observation { [weak self] in self?.readyObservers[number] = nil }
    }

    /// Calls `observer` on the main thread as a web photo's thumbnail downloads, until the
    /// observation returned goes.
    func observeProgress(_ observer: @escaping (_ key: PhotoVersion, _ progress: DownloadProgress) -> Void) -> Observation {
        let number = nextObserver()
        progressObservers[number] = observer
        if progressObservation == nil {
            progressObservation = Downloads.shared.observe { [weak self] url, progress in
                guard let self, let key = self.downloading[url] else { return }
                for (_, observer) in self.progressObservers.sorted(by: { $0.key < $1.key }) { observer(key, progress) }
            }
        }
        return Observation { [weak self] in self?.progressObservers[number] = nil }
    }

    private func nextObserver() -> Int {
        lastObserver += 1
        return lastObserver
    }

    /// The thumbnail if it is in memory.
    func cached(_ key: PhotoVersion) -> Thumbnail? { thumbnails.cached(key, at: now) }

    /// Whether the thumbnail is in memory, without counting as a use.
    func isCached(_ key: PhotoVersion) -> Bool { thumbnails.isCached(key, at: now) }

    /// Forgets every failure that may not last (decoding was unavailable, a timeout), so
    /// that the tiles showing one ask again; returns their keys.
    func forgetPassingFailures() -> Set<PhotoVersion> { thumbnails.forgetPassingFailures() }

    /// Asks for a thumbnail; observers hear when it is there. Each request must be balanced
    /// by `release` once its holder no longer needs it. Higher priority runs first.
    func request(_ key: PhotoVersion, priority: Int) {
        if thumbnails.join(key) { return }
        let request = ThumbnailRequest(uri: key.id, modifiedMicroseconds: key.modified, fileSize: key.size, size: size)
        let route = ThumbnailRoute(uri: key.id, priority: priority)
        switch route.work {
        case .firstLook:
            thumbnails.started(key, ticket: requestFirstLook(key, request, route: route, priority: priority))
        case .download(let address):
            downloading[address] = key
            thumbnails.started(key, ticket: submit(key, request, on: .downloads, lane: route.lane, priority: priority))
        case .decode:
            thumbnails.started(key, ticket: submit(key, request, on: .shared, lane: nil, priority: priority))
        }
    }

    /// Makes the thumbnail on `pool` (read from the cache, or decoded and saved there).
    private func submit(_ key: PhotoVersion, _ request: ThumbnailRequest, on pool: DecodePool, lane: String?, priority: Int) -> QueuedWork {
        let provider = self.provider
        return jobs.submit(to: pool, priority: priority, lane: lane) { [weak self] flag in
            let result = provider.thumbnail(for: request, cancellation: flag)
            if case .failure(let failure) = result, failure.kind == .cancelled { return }
            onMain { self?.finish(key, result) }
        }
    }

    /// A photo on another machine: its cached thumbnail, else first the preview embedded in
    /// its first bytes (before any whole file is read), then the thumbnail made from the
    /// whole file. Both wait on the server: on the download workers.
    private func requestFirstLook(_ key: PhotoVersion, _ request: ThumbnailRequest, route: ThumbnailRoute, priority: Int) -> QueuedWork {
        let provider = self.provider
        return jobs.submit(to: .downloads, priority: route.priority, lane: route.lane) { [weak self] flag in
            let look = provider.firstLook(for: request, cancellation: flag)
            if case .final(let outcome) = look, case .failure(let failure) = outcome.result, failure.kind == .cancelled { return }
            onMain { self?.firstLookArrived(key, look, request: request, lane: route.lane, priority: priority) }
        }
    }

    private func firstLookArrived(_ key: PhotoVersion, _ look: ThumbnailFirstLook, request: ThumbnailRequest, lane: String?, priority: Int) {
        switch look {
        case .final(let outcome):
            finish(key, outcome.result)
        case .preview(let image):
            guard thumbnails.isPending(key) else { return }
            let preview = image.map { Thumbnail.image($0.makeTexture(), pixels: $0) }
            _ = thumbnails.previewArrived(preview, bytes: image?.pixels.count ?? 0, for: key)
            if let preview {
                for (_, observer) in previewObservers.sorted(by: { $0.key < $1.key }) { observer(key, preview) }
            }
            let whole = submit(key, request, on: .downloads, lane: lane, priority: priority)
            if !thumbnails.continued(key, ticket: whole) { whole.cancel() }
        }
    }

    /// The embedded preview shown for `key` until its thumbnail is made, if there is one.
    func preview(_ key: PhotoVersion) -> Thumbnail? { thumbnails.preview(key) }

    /// Calls `observer` on the main thread when a photo's embedded preview is there, before
    /// its thumbnail (photos on other machines), until the observation returned goes.
    func observePreview(_ observer: @escaping (_ key: PhotoVersion, _ preview: Thumbnail) -> Void) -> Observation {
        let number = nextObserver()
        previewObservers[number] = observer
        return Observation { [weak self] in self?.previewObservers[number] = nil }
    }

    /// Whether a decode for `key` is queued or running.
    func isPending(_ key: PhotoVersion) -> Bool { thumbnails.isPending(key) }

    /// One holder of `key` no longer needs it.
    func release(_ key: PhotoVersion) {
        if let work = thumbnails.release(key) {
            work.cancel()
            forgetDownload(of: key)
        }
    }

    /// Cancels everything (the folder was closed).
    func cancelAll() {
        for work in thumbnails.cancelAll() { work.cancel() }
        downloading.removeAll()
        progressObservation = nil
    }

    private func finish(_ key: PhotoVersion, _ result: Result<DecodedImage, DecodeFailure>) {
        guard thumbnails.isPending(key) else { return }
        let thumbnail: Thumbnail
        var bytes = 64
        var failure: DecodeFailure?
        switch result {
        case .success(let image):
            thumbnail = .image(image.makeTexture(), pixels: image)
            bytes = image.pixels.count
        case .failure(let failed):
            thumbnail = .failed(failed.reason)
            failure = failed
        }
        guard thumbnails.finished(key, thumbnail: thumbnail, bytes: bytes, failure: failure, at: now) else { return }
        forgetDownload(of: key)
        // In the order they were added, as before observers could stop.
        for (_, observer) in readyObservers.sorted(by: { $0.key < $1.key }) { observer(key, thumbnail) }
    }

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
