import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A decoded photo ready to paint, and what it was decoded from.
struct ViewerImage: ViewerHeldImage {
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
    /// Where a motion photo's movie lies in its file, as the decoder process found it.
    var motionMovie: EmbeddedMovie?
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
/// PhotoIO's `ViewerImageSet` says what is held, asked for, failed and stale; this class
/// waits for paging to settle (the core's `PagingSettler`), runs the decodes it asks for on
/// the window's jobs, makes textures of what they return, and follows web photos' downloads.
@MainActor
final class ViewerImages {
    private let live = LiveObjects.Token("ViewerImages")
    private let decoder: IsolatedDecoder
    private var imageSet: ViewerImageSet<ViewerImage, QueuedWork>!
    private var settler = PagingSettler(delay: 0.15)
    private var settleTimer: UInt32 = 0
    /// The photo and order the last page asked for, until paging settles.
    private var pending: (current: String?, list: PhotoList)?
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
        imageSet = ViewerImageSet { [unowned self] decode in self.submit(decode) }
    }

    /// The images decoded, by photo id.
    var images: [String: ViewerImage] { imageSet.images }
    /// Web photos whose originals are downloading, and how far they have come.
    var downloads: [String: DownloadProgress] { imageSet.downloads }
    /// Web photos whose download failed in a way that trying again may mend.
    var retryable: Set<String> { imageSet.retryable }

    func failure(for id: String) -> DecodeFailure? { imageSet.failure(for: id) }

    /// Whether the photo's image is here, or its failure: nothing more will come for it.
    func isSettled(_ id: String) -> Bool { imageSet.isSettled(id) }

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
        imageSet.move(to: current, in: list)
    }

    /// Decodes `id` at full resolution (`size`), replacing its display-size image when done.
    /// Only one photo holds a full-resolution image: asking for another drops the first.
    func sharpen(_ photo: Photo, to size: PixelSize) { imageSet.sharpen(photo, to: size) }

    /// Decodes `photo` at display size ahead of showing it, though it is outside the
    /// neighbour window; held until the window takes it in, or the next move or preload
    /// lets it go.
    func preload(_ photo: Photo) { imageSet.preload(photo) }

    /// Drops what was decoded from an older version of a photo the list now holds in a new
    /// one (rewritten on disk), and decodes the new one. Returns whether `current`'s image
    /// was among them.
    @discardableResult
    func followChanges(in list: PhotoList, current: String?) -> Bool { imageSet.followChanges(in: list, current: current) }

    /// Tries a failed photo again (Retry).
    func retry(_ id: String, current: String?, in list: PhotoList) {
        imageSet.retry(id, current: current, in: list)
        onChange(id)
    }

    /// Lets go of every image and decode (the viewer closed).
    func stop() {
        if settleTimer != 0 { g_source_remove(settleTimer) }
        settleTimer = 0
        pending = nil
        imageSet.stop()
        progressObservation = nil
    }

    /// Runs a decode the set asks for on the pool.
    private func submit(_ decode: ViewerDecode) -> QueuedWork {
        let decoder = self.decoder
        let version = decode.photo.version
        let sharpening = decode.isFullResolution
        let request: DecodeRequest
        switch decode.size {
        case .display: request = DecodeRequest(uri: decode.photo.id, fitting: displayBox)
        case .fullResolution(let size): request = DecodeRequest(uri: decode.photo.id, fitting: size)
        }
        // A web photo's original, or a photo on another machine, comes here first (with its
        // progress shown), then decodes from here; it waits on its server: download workers.
        let isElsewhere = PhotoOriginals.isElsewhere(request.uri)
        if isElsewhere {
            watchDownloads()
            // The ring shows from the moment the request goes, not from the server's first answer.
            if imageSet.downloadStarted(version.id) { onDownload(version.id) }
        }
        // The viewer's downloads have workers of their own, ahead of the tiles'.
        let pool = isElsewhere ? DecodePool.viewerDownloads : DecodePool.shared
        let owner = MainThreadOwner(self)
        return jobs.submit(to: pool, priority: decode.priority, lane: isElsewhere ? DecodePool.downloadLane(of: request.uri) : nil) { flag in
            var request = request
            if isElsewhere {
                switch PhotoOriginals.bringHere(request.uri, cancellation: flag) {
                case .success(let uri):
                    owner.onMain { images in images.downloaded(version.id) }
                    request = DecodeRequest(uri: uri, fitting: request.fitting)
                case .failure(let failure):
                    guard !failure.isCancelled else { return }
                    let result = Result<(DecodedImage, PremultipliedImage), DecodeFailure>.failure(DecodeFailure(.unreadable, failure.message))
                    owner.onMain { images in
                        images.downloaded(version.id, failed: true, canRetry: failure.canRetry)
                        images.onDownloadFailed(version.id)
                        images.finish(version, sharpening: sharpening, result)
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
            owner.onMain { images in images.finish(version, sharpening: sharpening, result, animation: animation) }
        }
    }

    /// Follows the downloads of web photos' originals (from the first one on).
    private func watchDownloads() {
        guard progressObservation == nil else { return }
        progressObservation = Downloads.shared.observe { [weak self] url, progress in
            guard let self, self.imageSet.downloadProgressed(url, progress) else { return }
            self.onDownload(url)
        }
    }

    private func downloaded(_ id: String, failed: Bool = false, canRetry: Bool = false) {
        let ended = imageSet.downloadEnded(id, failed: failed, canRetry: canRetry)
        if !failed, ended.isWanted { onDownloaded(id) }
        if ended.wasShown { onDownload(id) }
    }

    /// Converted frames on their way to the main thread.
    private struct Animation: Sendable {
        let frames: [(PremultipliedImage, Int)]
        let loops: Bool
    }

    private func finish(_ version: PhotoVersion, sharpening: Bool, _ result: Result<(DecodedImage, PremultipliedImage), DecodeFailure>,
                        animation: Animation? = nil) {
        let outcome = imageSet.finished(version, fullResolution: sharpening) {
            result.map { decoded, converted in
                var image = ViewerImage(version: version, surface: CanvasSurface(converted), sourceSize: decoded.sourceSize,
                                        format: decoded.format)
                if let animation {
                    image.frames = animation.frames.map { (CanvasSurface($0.0), $0.1) }
                    image.loops = animation.loops
                }
                image.endMissing = decoded.endMissing
                image.videoTurns = decoded.videoTurns
                image.motionMovie = decoded.motionMovie
                return image
            }
        }
        if outcome == .dropped { return }
        if outcome == .failed(retryLater: true) { retryLater(version) }
        onChange(version.id)
    }

    /// A decode that timed out on a busy machine, or found no decoder process, is tried
    /// again while the photo is still wanted, as its message says.
    private func retryLater(_ version: PhotoVersion) {
        _ = after(milliseconds: 2000) { [weak self] in self?.imageSet.retryIfStillFailed(version) }
    }
}

extension QueuedWork: CancellableWork {}
