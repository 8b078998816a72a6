import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A decoded photo ready to paint, and what it was decoded from.
struct ViewerImage {
    let surface: CanvasSurface
    /// An animation's frames and how long each shows (ms), when the photo is animated.
    var frames: [(surface: CanvasSurface, duration: Int)] = []
    var loops = true
    /// The photo's own size (after EXIF orientation): what zoom and pan are computed on.
    let sourceSize: PixelSize
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
    private let decoder: IsolatedDecoder
    private var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
    private var settler = PagingSettler(delay: 0.15)
    private var settleTimer: UInt32 = 0
    private(set) var images: [String: ViewerImage] = [:]
    private var failures: [String: DecodeFailure] = [:]
    private var inFlight: [String: DecodePool.Ticket] = [:]
    private var sharper: (id: String, ticket: DecodePool.Ticket)?
    /// The box display-size decodes fit in (device pixels).
    var displayBox = PixelSize(width: 1920, height: 1080)

    /// An image, or a failure, arrived for a photo.
    var onChange: (String) -> Void = { _ in }

    init(decoder: IsolatedDecoder) {
        self.decoder = decoder
    }

    func failure(for id: String) -> DecodeFailure? { failures[id] }

    /// The shown photo changed (or the folder did): loads what the window wants once paging
    /// has settled. Holding a key down pages every 30 ms or so and never settles, so only
    /// thumbnails show until the key is released.
    func paged(to current: String?, in list: PhotoList, immediately: Bool = false) {
        let now = Date.timeIntervalSinceReferenceDate
        settler.paged(at: now)
        if settleTimer != 0 { g_source_remove(settleTimer) }
        settleTimer = 0
        let settle = { [weak self] in
            guard let self else { return }
            self.settleTimer = 0
            self.apply(self.tracker.move(to: current, in: list), current: current, list: list)
        }
        if immediately {
            settle()
        } else {
            settleTimer = after(milliseconds: UInt32(settler.delay * 1000)) { settle() }
        }
    }

    /// Decodes `id` at full resolution (`size`), replacing its display-size image when done.
    /// Only one photo holds a full-resolution image: asking for another drops the first.
    func sharpen(_ photo: Photo, to size: PixelSize) {
        if sharper?.id == photo.id { return }
        dropSharper()
        let request = DecodeRequest(uri: photo.id, fitting: size)
        let ticket = submit(request, id: photo.id, priority: Int.max, sharpening: true)
        sharper = (photo.id, ticket)
    }

    /// Lets go of every image and decode (the viewer closed).
    func stop() {
        if settleTimer != 0 { g_source_remove(settleTimer) }
        settleTimer = 0
        for ticket in inFlight.values { DecodePool.shared.cancel(ticket) }
        inFlight.removeAll()
        if let sharper { DecodePool.shared.cancel(sharper.ticket) }
        sharper = nil
        images.removeAll()
        failures.removeAll()
        tracker.releaseAll()
    }

    private func apply(_ plan: FullImagePlan, current: String?, list: PhotoList) {
        for id in plan.release {
            if let ticket = inFlight.removeValue(forKey: id) { DecodePool.shared.cancel(ticket) }
            images[id] = nil
            failures[id] = nil
        }
        if let sharper, sharper.id != current {
            dropSharper()
            // Its full-resolution image goes; a neighbour still wants a display-size one.
            if tracker.held.contains(sharper.id), let photo = list.photo(id: sharper.id) { load(photo, priority: 50) }
        }
        for (n, id) in plan.load.enumerated() where images[id] == nil && inFlight[id] == nil {
            guard let photo = list.photo(id: id) else { continue }
            load(photo, priority: id == current ? 1_000_000_000 : 100 - n)
        }
    }

    private func load(_ photo: Photo, priority: Int) {
        if images[photo.id]?.isFullResolution == true { images[photo.id] = nil }
        let request = DecodeRequest(uri: photo.id, fitting: displayBox)
        inFlight[photo.id] = submit(request, id: photo.id, priority: priority)
    }

    /// Decodes on the pool; `sharpening` marks the shown photo's full-resolution decode,
    /// which replaces its display-size image and leaves an animation's frames alone.
    private func submit(_ request: DecodeRequest, id: String, priority: Int, sharpening: Bool = false) -> DecodePool.Ticket {
        let decoder = self.decoder
        return DecodePool.shared.submit(priority: priority) { [weak self] flag in
            let result = decoder.decode(request, cancellation: flag).map { ($0, PremultipliedImage($0)) }
            if case .failure(let failure) = result, failure.kind == .cancelled { return }
            // GIF and WebP may be animated: their frames too, bounded in count and bytes.
            var animation: Animation?
            if !sharpening, case .success(let (decoded, _)) = result, ["gif", "webp"].contains(decoded.format),
               case .success(let decodedAnimation?) = decoder.animation(request, maxFrames: 300, maxBytes: 128 << 20, cancellation: flag) {
                animation = Animation(frames: decodedAnimation.frames.map { (PremultipliedImage($0.image), $0.duration) }, loops: decodedAnimation.loops)
            }
            onMain { [weak self] in self?.finish(id, sharpening: sharpening, result, animation: animation) }
        }
    }

    /// Converted frames on their way to the main thread.
    private struct Animation: Sendable {
        let frames: [(PremultipliedImage, Int)]
        let loops: Bool
    }

    private func finish(_ id: String, sharpening: Bool, _ result: Result<(DecodedImage, PremultipliedImage), DecodeFailure>,
                        animation: Animation? = nil) {
        if sharpening {
            guard sharper?.id == id else { return }  // dropped meanwhile
            sharper = nil
        } else {
            guard inFlight.removeValue(forKey: id) != nil else { return }
        }
        switch result {
        case .success(let (decoded, converted)):
            var image = ViewerImage(surface: CanvasSurface(converted), sourceSize: decoded.sourceSize)
            if let animation {
                image.frames = animation.frames.map { (CanvasSurface($0.0), $0.1) }
                image.loops = animation.loops
            }
            images[id] = image
            failures[id] = nil
        case .failure(let failure):
            if !sharpening { failures[id] = failure }
        }
        onChange(id)
    }

    private func dropSharper() {
        guard let sharper else { return }
        DecodePool.shared.cancel(sharper.ticket)
        self.sharper = nil
        if images[sharper.id]?.isFullResolution == true { images[sharper.id] = nil }
    }
}
