import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A decoded photo ready to paint, and what it was decoded from.
struct ViewerImage {
    /// The version of the photo decoded: a photo rewritten on disk since is decoded again.
    let version: PhotoVersion
    let surface: CanvasSurface
    /// An animation's frames and how long each shows (ms), when the photo is animated.
    var frames: [(surface: CanvasSurface, duration: Int)] = []
    var loops = true
    /// The photo's file ends before its image does: what there is shows, with a word.
    var endMissing = false
    /// A video's container's rotation, in clockwise quarter turns: what its player turns by.
    var videoTurns = 0
    /// The photo's own size (after EXIF orientation): what zoom and pan are computed on.
    let sourceSize: PixelSize
    /// The format the decoder found ("jpeg": a large one is drawn from tiles when zoomed).
    let format: String
    /// Whether this is the photo at full resolution (decoded for a zoom past the fit).
    var isFullResolution: Bool { surface.size.width >= sourceSize.width && surface.size.height >= sourceSize.height }
}

/// The viewer's full images: the shown photo and its neighbours, decoded at display size
/// once paging has settled, and the shown photo at full resolution when the zoom needs it.
///
/// `NeighbourTracker` (the core's policy) says what to load and release; this class runs
/// those decodes on the shared pool, cancels the ones no longer wanted, and holds at most
/// the neighbour window's display-size images plus one full-resolution image.
@MainActor
final class ViewerImages {
    private let live = LiveObjects.Token("ViewerImages")
    private let decoder: IsolatedDecoder
    private var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
    private var settler = PagingSettler(delay: 0.15)
    private var settleTimer: UInt32 = 0
    /// The photo and order the last page asked for, until paging settles.
    private var pending: (current: String?, list: PhotoList)?
    private(set) var images: [String: ViewerImage] = [:]
    private var failures: [String: (version: PhotoVersion, failure: DecodeFailure)] = [:]
    private var inFlight: [String: (version: PhotoVersion, ticket: QueuedWork)] = [:]
    private var sharper: (version: PhotoVersion, ticket: QueuedWork)?
    /// A photo decoded ahead outside the neighbour window (a slideshow about to loop back to
    /// the first photo), until the window takes it in or the next move lets it go.
    private var extra: String?
    /// Web photos whose originals are downloading, and how far they have come.
    private(set) var downloads: [String: DownloadProgress] = [:]
    /// Web photos whose download failed in a way that trying again may mend (the server
    /// could not be reached, failed, or broke off).
    private(set) var retryable: Set<String> = []
    private var progressObservation: Observation?
    /// The box display-size decodes fit in (device pixels).
    var displayBox = PixelSize(width: 1920, height: 1080)

    /// An image, or a failure, arrived for a photo.
    var onChange: (String) -> Void = { _ in }
    /// A web photo's original downloaded, or its download moved on (the photo's id).
    var onDownload: (String) -> Void = { _ in }
    /// A web photo's original is on this computer now (the photo's id).
    var onDownloaded: (String) -> Void = { _ in }
    /// A photo's original could not be brought here (the viewer's `download-failed` trace).
    var onDownloadFailed: (String) -> Void = { _ in }

    /// The window's jobs, which the decodes and downloads belong to.
    let jobs: WindowJobs

    init(decoder: IsolatedDecoder, jobs: WindowJobs) {
        self.decoder = decoder
        self.jobs = jobs
    }

    func failure(for id: String) -> DecodeFailure? { failures[id]?.failure }

    /// The shown photo changed (or the folder did): loads what the window wants once paging
    /// has settled (the core's `PagingSettler`). Holding a key down pages every 30 ms or so
    /// and never settles, so only thumbnails show until the key is released.
    func paged(to current: String?, in list: PhotoList, immediately: Bool = false) {
        pending = (current, list)
        if immediately {
            if settleTimer != 0 { g_source_remove(settleTimer) }
            settleTimer = 0
            settle()
            return
        }
        settler.paged(at: Self.now)
        if settleTimer == 0 { armSettleTimer() }
    }

    private static var now: Double { Double(g_get_monotonic_time()) / 1e6 }

    /// Waits until the settler says paging has settled: a page meanwhile moves that moment on.
    private func armSettleTimer() {
        let delay = settler.remainingDelay(at: Self.now)
        settleTimer = after(milliseconds: UInt32((delay * 1000).rounded(.up))) { [weak self] in
            guard let self else { return }
            self.settleTimer = 0
            if self.settler.isSettled(at: Self.now) { self.settle() } else { self.armSettleTimer() }
        }
    }

    private func settle() {
        guard let (current, list) = pending else { return }
        pending = nil
        apply(tracker.move(to: current, in: list), current: current, list: list)
    }

    /// The photo and order the neighbour window was last moved to.
    private var shownCurrent: String?
    private var shownList: PhotoList?

    /// Decodes `id` at full resolution (`size`), replacing its display-size image when done.
    /// Only one photo holds a full-resolution image: asking for another drops the first.
    func sharpen(_ photo: Photo, to size: PixelSize) {
        if sharper?.version == photo.version { return }
        dropSharper()
        let request = DecodeRequest(uri: photo.id, fitting: size)
        let ticket = submit(request, version: photo.version, priority: Int.max, sharpening: true)
        sharper = (photo.version, ticket)
    }

    /// Whether the photo's image is here, or its failure: nothing more will come for it.
    func isSettled(_ id: String) -> Bool { images[id] != nil || failures[id] != nil }

    /// Decodes `photo` at display size ahead of showing it, though it is outside the
    /// neighbour window; held until the window takes it in, or the next move or preload
    /// lets it go.
    func preload(_ photo: Photo) {
        guard !photo.isNotFound, !tracker.held.contains(photo.id), images[photo.id] == nil, inFlight[photo.id] == nil else { return }
        dropExtra()
        extra = photo.id
        load(photo, priority: 50)
    }

    private func dropExtra() {
        guard let id = extra else { return }
        extra = nil
        guard !tracker.held.contains(id) else { return }
        if let pending = inFlight.removeValue(forKey: id) { pending.ticket.cancel() }
        downloads[id] = nil
        retryable.remove(id)
        images[id] = nil
        failures[id] = nil
    }

    /// Drops what was decoded from an older version of a photo the list now holds in a new
    /// one (rewritten on disk), and decodes the new one. Returns whether `current`'s image
    /// was among them.
    @discardableResult
    func followChanges(in list: PhotoList, current: String?) -> Bool {
        let isStale = { (id: String, version: PhotoVersion) in list.photo(id: id).map { $0.version != version } ?? false }
        var stale = Set(images.filter { isStale($0.key, $0.value.version) }.keys)
        stale.formUnion(failures.filter { isStale($0.key, $0.value.version) }.keys)
        stale.formUnion(inFlight.filter { isStale($0.key, $0.value.version) }.keys)
        if let sharper, isStale(sharper.version.id, sharper.version) { stale.insert(sharper.version.id) }
        guard !stale.isEmpty else { return false }
        for id in stale {
            if let pending = inFlight.removeValue(forKey: id) { pending.ticket.cancel() }
            if sharper?.version.id == id { dropSharper() }
            images[id] = nil
            failures[id] = nil
            tracker.forget(id)
        }
        apply(tracker.move(to: current, in: list), current: current, list: list)
        return current.map(stale.contains) ?? false
    }

    /// Tries a failed photo again (Retry).
    func retry(_ id: String, current: String?, in list: PhotoList) {
        failures[id] = nil
        retryable.remove(id)
        tracker.forget(id)
        apply(tracker.move(to: current, in: list), current: current, list: list)
        onChange(id)
    }

    /// Lets go of every image and decode (the viewer closed).
    func stop() {
        if settleTimer != 0 { g_source_remove(settleTimer) }
        settleTimer = 0
        pending = nil
        for pending in inFlight.values { pending.ticket.cancel() }
        inFlight.removeAll()
        if let sharper { sharper.ticket.cancel() }
        sharper = nil
        images.removeAll()
        failures.removeAll()
        extra = nil
        tracker.releaseAll()
        shownCurrent = nil
        shownList = nil
        downloads.removeAll()
        progressObservation = nil
    }

    private func apply(_ plan: FullImagePlan, current: String?, list: PhotoList) {
        shownCurrent = current
        shownList = list
        dropExtra()
        for id in plan.release {
            if let pending = inFlight.removeValue(forKey: id) { pending.ticket.cancel() }
            downloads[id] = nil
            retryable.remove(id)
            images[id] = nil
            failures[id] = nil
        }
        if let sharper, sharper.version.id != current {
            dropSharper()
            // Its full-resolution image goes; a neighbour still wants a display-size one.
            if tracker.held.contains(sharper.version.id), let photo = list.photo(id: sharper.version.id) { load(photo, priority: 50) }
        }
        for (n, id) in plan.load.enumerated() where images[id] == nil && inFlight[id] == nil {
            // A photo not found (an album of the person's own) has nothing to decode.
            guard let photo = list.photo(id: id), !photo.isNotFound else { continue }
            load(photo, priority: id == current ? 1_000_000_000 : 100 - n)
        }
    }

    private func load(_ photo: Photo, priority: Int) {
        if images[photo.id]?.isFullResolution == true { images[photo.id] = nil }
        let request = DecodeRequest(uri: photo.id, fitting: displayBox)
        inFlight[photo.id] = (photo.version, submit(request, version: photo.version, priority: priority))
    }

    /// Decodes on the pool; `sharpening` marks the shown photo's full-resolution decode,
    /// which replaces its display-size image and leaves an animation's frames alone.
    private func submit(_ request: DecodeRequest, version: PhotoVersion, priority: Int, sharpening: Bool = false) -> QueuedWork {
        let decoder = self.decoder
        // A web photo's original, or a photo on another machine, comes here first (with its
        // progress shown), then decodes from here; it waits on its server: download workers.
        let isElsewhere = PhotoOriginals.isElsewhere(request.uri)
        if isElsewhere {
            watchDownloads()
            // The ring shows from the moment the request goes, not from the server's first answer.
            if downloads[version.id] == nil {
                downloads[version.id] = DownloadProgress(received: 0, total: nil)
                onDownload(version.id)
            }
        }
        // The viewer's downloads have workers of their own, ahead of the tiles'.
        let pool = isElsewhere ? DecodePool.viewerDownloads : DecodePool.shared
        return jobs.submit(to: pool, priority: priority, lane: isElsewhere ? DecodePool.downloadLane(of: request.uri) : nil) { [weak self] flag in
            var request = request
            if isElsewhere {
                switch PhotoOriginals.bringHere(request.uri, cancellation: flag) {
                case .success(let uri):
                    onMain { [weak self] in self?.downloaded(version.id) }
                    request = DecodeRequest(uri: uri, fitting: request.fitting)
                case .failure(let failure):
                    guard !failure.isCancelled else { return }
                    let result = Result<(DecodedImage, PremultipliedImage), DecodeFailure>.failure(DecodeFailure(.unreadable, failure.message))
                    onMain { [weak self] in
                        if failure.canRetry { self?.retryable.insert(version.id) }
                        self?.downloaded(version.id, failed: true)
                        self?.onDownloadFailed(version.id)
                        self?.finish(version, sharpening: sharpening, result)
                    }
                    return
                }
            }
            // One request: the still image, or the frames of an animated GIF or WebP, bounded in
            // count and bytes. A full-resolution decode is of the still image only.
            let picture = sharpening ? decoder.decode(request, cancellation: flag).map { DecodedPicture.still($0) }
                : decoder.picture(request, maxFrames: 300, maxBytes: 128 << 20, cancellation: flag)
            if case .failure(let failure) = picture, failure.kind == .cancelled { return }
            var animation: Animation?
            if case .success(.animation(let decodedAnimation)) = picture {
                animation = Animation(frames: decodedAnimation.frames.map { (PremultipliedImage($0.image), $0.duration) }, loops: decodedAnimation.loops)
            }
            let result = picture.map { ($0.firstImage, animation?.frames[0].0 ?? PremultipliedImage($0.firstImage)) }
            onMain { [weak self] in self?.finish(version, sharpening: sharpening, result, animation: animation) }
        }
    }

    /// Follows the downloads of web photos' originals (from the first one on).
    private func watchDownloads() {
        guard progressObservation == nil else { return }
        progressObservation = Downloads.shared.observe { [weak self] url, progress in
            guard let self, self.isWanted(url), self.images[url] == nil else { return }
            self.downloads[url] = progress
            self.onDownload(url)
        }
    }

    /// Whether a photo's original is being loaded (a web photo's, downloading).
    private func isWanted(_ id: String) -> Bool { inFlight[id] != nil || sharper?.version.id == id }

    private func downloaded(_ id: String, failed: Bool = false) {
        let wasDownloading = downloads.removeValue(forKey: id) != nil
        if !failed, isWanted(id) { onDownloaded(id) }
        if wasDownloading { onDownload(id) }
    }

    /// Converted frames on their way to the main thread.
    private struct Animation: Sendable {
        let frames: [(PremultipliedImage, Int)]
        let loops: Bool
    }

    private func finish(_ version: PhotoVersion, sharpening: Bool, _ result: Result<(DecodedImage, PremultipliedImage), DecodeFailure>,
                        animation: Animation? = nil) {
        let id = version.id
        if sharpening {
            guard sharper?.version == version else { return }  // dropped meanwhile
            sharper = nil
        } else {
            guard inFlight[id]?.version == version else { return }
            inFlight[id] = nil
        }
        switch result {
        case .success(let (decoded, converted)):
            var image = ViewerImage(version: version, surface: CanvasSurface(converted), sourceSize: decoded.sourceSize,
                                    format: decoded.format)
            if let animation {
                image.frames = animation.frames.map { (CanvasSurface($0.0), $0.1) }
                image.loops = animation.loops
            }
            image.endMissing = decoded.endMissing
            image.videoTurns = decoded.videoTurns
            images[id] = image
            failures[id] = nil
        case .failure(let failure):
            if !sharpening {
                failures[id] = (version, failure)
                if failure.kind == .timedOut || failure.kind == .unavailable { retryLater(version) }
            }
        }
        onChange(id)
    }

    /// A decode that timed out on a busy machine, or found no decoder process, is tried
    /// again while the photo is still wanted, as its message says.
    private func retryLater(_ version: PhotoVersion) {
        _ = after(milliseconds: 2000) { [weak self] in
            guard let self, self.failures[version.id]?.version == version, self.tracker.held.contains(version.id),
                  self.inFlight[version.id] == nil, let list = self.shownList else { return }
            self.failures[version.id] = nil
            self.tracker.forget(version.id)
            self.apply(self.tracker.move(to: self.shownCurrent, in: list), current: self.shownCurrent, list: list)
        }
    }

    private func dropSharper() {
        guard let sharper else { return }
        sharper.ticket.cancel()
        self.sharper = nil
        if images[sharper.version.id]?.isFullResolution == true { images[sharper.version.id] = nil }
    }
}
