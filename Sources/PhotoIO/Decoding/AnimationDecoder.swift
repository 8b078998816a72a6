import CGdkPixbuf
import PhotoCore

/// Decodes animated GIF and WebP files into frames for the viewer to play, on a worker thread.
///
/// The file is opened as `PixbufDecoder` opens one (no blocking on special files, the loader
/// chosen from the first bytes, declared sizes checked before a loader sees a byte). Its frames
/// are then counted from the container itself (`AnimationLayout`) before any loader sees them:
/// a still image is answered with nil without decoding anything, and only the frames that will
/// be kept are handed to the loader, with the file cut after them. That matters because
/// gdk-pixbuf's loaders keep every frame: the WebP loader decodes all of them at full canvas
/// size when closed, and the GIF loader's clock (milliseconds in an `int`) overflows, and
/// aborts the process, past about 3,000 long frames.
///
/// The frames are then played on a synthetic clock with `GdkPixbufAnimationIter`, which
/// composites each one onto the full canvas, and copied once, shrunk to fit the request's
/// box, from the loader's pixbuf to where they go (`AnimationFrameSink`): memory of this
/// process, or a decoder process's shared memory.
public struct AnimationDecoder: Sendable {
    /// The most frames kept; a longer animation plays its first `maxFrames` frames.
    public let maxFrames: Int
    /// The most bytes the kept frames' pixels may take together.
    public let maxBytes: Int
    /// The most pixels one decode may produce before shrinking: the canvas for GIF, and the
    /// canvas times the frames handed to the loader for WebP, whose loader decodes them all.
    public let maxDecodedPixels: Int

    public init(maxFrames: Int = 300, maxBytes: Int = 256 << 20, maxDecodedPixels: Int = 100_000_000) {
        self.maxFrames = maxFrames
        self.maxBytes = maxBytes
        self.maxDecodedPixels = maxDecodedPixels
    }

    /// Past this many frames gdk-pixbuf's GIF clock can overflow (at most 655.35 s each).
    static let gifFrameCeiling = 3_000

    /// The frames of the animation in `request.uri`, shrunk to fit `request.fitting`; nil when
    /// the file is a still image (one frame, or a format that never animates), which the
    /// still decoder shows.
    public func decode(_ request: DecodeRequest, cancellation: CancellationFlag) -> Result<DecodedAnimation?, DecodeFailure> {
        if cancellation.isCancelled { return .failure(Self.cancelled) }
        return ByteSource.reading(uri: request.uri) { source in
            let frames = FrameBuffers()
            return decode(source, fitting: request.fitting, cancellation: cancellation, into: frames).map { played in
                played.map { DecodedAnimation(frames: frames.frames(sourceSize: $0.canvas, format: $0.format), loops: $0.loops) }
            }
        }
    }

    /// What an animation played into a sink: nil from `decode` for a still image.
    struct Played {
        let loops: Bool
        /// The canvas the frames were drawn on: the image's own size.
        let canvas: PixelSize
        let format: String
    }

    /// Plays the frames of what `source` reads (the caller closes it) into `frames`: nil when
    /// the file is a still image (whatever `frames` then holds is not an animation).
    func decode(_ source: ByteSource, fitting: PixelSize, cancellation: CancellationFlag,
                into frames: some AnimationFrameSink) -> Result<Played?, DecodeFailure> {
        let input: LoaderInput
        switch LoaderInput.open(source, maxDecodedPixels: maxDecodedPixels) {
        case .success(let opened): input = opened
        case .failure(let failure): return .failure(failure)
        }

        let format: AnimationLayout.Format
        switch PixbufImage.formats.nameByMime[input.mimeType] {
        case "gif": format = .gif
        case "webp": format = .webp
        default: return .success(nil)  // gdk-pixbuf animates only these (and ANI, refused)
        }

        // Read the container up to the last frame that will be kept (at least two, to tell an
        // animation from a still image).
        var layout = AnimationLayout(format: format)
        var data = input.head
        var chunk = [UInt8](repeating: 0, count: LoaderInput.chunkSize)
        var keep: Int?
        reading: while true {
            if cancellation.isCancelled { return .failure(Self.cancelled) }
            layout.scan(data)
            if layout.isStill { return .success(nil) }
            if keep == nil, let canvas = layout.canvas {
                switch frameLimit(canvas: canvas, box: fitting, format: format) {
                case .success(let limit): keep = limit
                case .failure(let failure): return .failure(failure)
                }
            }
            if layout.isFinished { break reading }
            if let keep, layout.frameEnds.count >= max(keep, 2) { break reading }
            switch chunk.withUnsafeMutableBytes({ source.read(into: $0) }) {
            case .failure(let failure): return .failure(failure)
            case .success(0): break reading
            case .success(let n): data += chunk[0..<n]
            }
        }
        guard var keep else {
            // The file ended before its header did: let the loader say what is wrong with it.
            return decodeFrames(data, fitting: fitting, limit: maxFrames, fileLoops: nil, fileDelays: [], input: input,
                                cancellation: cancellation, into: frames)
        }
        // The iterator's clock counts milliseconds in an int: keep within half its range.
        keep = min(keep, layout.framesWithin(milliseconds: 1 << 30))
        // Fewer than two frames, to the end of the file, is a still image (or a damaged one),
        // which the still decoder shows or explains.
        if layout.frameEnds.count < 2 { return .success(nil) }
        if keep < 2 {
            // Room for one frame only: the still decoder shows it. A WebP canvas that fits
            // the pixel budget once but not twice is still one the WebP loader would decode in
            // every frame, so that is a refusal.
            if format == .webp, let canvas = layout.canvas, canvas.pixels * 2 > maxDecodedPixels, maxFrames >= 2 {
                return .failure(DecodeFailure(.tooLarge, tr("The animation is too large to play (%s pixels a frame).", "\(canvas)")))
            }
            return .success(nil)
        }
        if layout.frameEnds.count > keep {
            data = layout.cut(data, afterFrame: keep)
        }
        return decodeFrames(data, fitting: fitting, limit: keep, fileLoops: layout.loops, fileDelays: layout.gifDelays,
                            input: input, cancellation: cancellation, into: frames)
    }

    /// How many frames to hand to the loader for an animation on `canvas`, or a refusal.
    private func frameLimit(canvas: PixelSize, box: PixelSize, format: AnimationLayout.Format) -> Result<Int, DecodeFailure> {
        guard canvas.width > 0, canvas.height > 0 else {
            return .failure(DecodeFailure(.corrupt, tr("The image is damaged: its canvas is %s pixels.", "\(canvas)")))
        }
        guard canvas.width <= 65_535, canvas.height <= 65_535, canvas.pixels <= maxDecodedPixels else {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(canvas)")))
        }
        var limit = min(maxFrames, Self.gifFrameCeiling)
        // Frames are RGBA after shrinking: stop before the pixels outgrow maxBytes.
        let frameBytes = max(canvas.fitting(in: box).pixels * 4, 1)
        limit = min(limit, maxBytes / frameBytes)
        if format == .webp {
            limit = min(limit, maxDecodedPixels / canvas.pixels)
        }
        return .success(max(limit, 0))
    }

    /// Feeds `data` to a loader and plays what it makes.
    private func decodeFrames(_ data: [UInt8], fitting: PixelSize, limit: Int, fileLoops: Bool?, fileDelays: [Int],
                              input: LoaderInput, cancellation: CancellationFlag,
                              into frames: some AnimationFrameSink) -> Result<Played?, DecodeFailure> {
        let loader: UnsafeMutablePointer<GdkPixbufLoader>
        switch input.makeLoader() {
        case .success(let made): loader = made
        case .failure(let failure): return .failure(failure)
        }
        defer { unref(loader) }

        let guardian = SizeGuard(maxPixels: maxDecodedPixels)
        onSizePrepared(loader, guardian)

        var loadError: String?
        var offset = 0
        while offset < data.count {
            if cancellation.isCancelled {
                gdk_pixbuf_loader_close(loader, nil)
                return .failure(Self.cancelled)
            }
            let count = min(LoaderInput.chunkSize, data.count - offset)
            var error: UnsafeMutablePointer<GError>?
            let ok = data.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress! + offset, gsize(count), &error) }
            if ok == 0 {
                loadError = PixbufDecoder.take(error)
                break
            }
            if guardian.refusal != nil { break }
            offset += count
        }
        if cancellation.isCancelled {
            gdk_pixbuf_loader_close(loader, nil)
            return .failure(Self.cancelled)
        }
        // The WebP loader decodes every frame here.
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError) != 0
        let closeMessage = PixbufDecoder.take(closeError)
        if let refusal = guardian.refusal { return .failure(refusal) }
        if !closed, loadError == nil { loadError = closeMessage }

        // A damaged animation can come with an error and frames that play: use them.
        guard let animation = gdk_pixbuf_loader_get_animation(loader) else {
            if !guardian.sawHeader {
                return .failure(DecodeFailure(.notAnImage, loadError.map { tr("Not a readable image: %s", $0) } ?? tr("Not an image format this computer can read.")))
            }
            return .failure(DecodeFailure(.corrupt, loadError.map { tr("The image is damaged: %s", $0) } ?? tr("The image could not be decoded.")))
        }
        if gdk_pixbuf_animation_is_static_image(animation) != 0 { return .success(nil) }
        let format = ImageTypes.formatName(gdk_pixbuf_loader_get_format(loader))
        return play(animation, box: fitting, limit: limit, fileLoops: fileLoops, fileDelays: fileDelays,
                    format: format, cancellation: cancellation, into: frames)
    }

    /// Plays `animation` on a synthetic clock, from one frame's end to the next, copying each
    /// frame into `frames` until the animation ends, starts over, or the limits are reached.
    private func play(_ animation: OpaquePointer, box: PixelSize, limit: Int, fileLoops: Bool?, fileDelays: [Int],
                      format: String, cancellation: CancellationFlag, into frames: some AnimationFrameSink) -> Result<Played?, DecodeFailure> {
        let canvas = PixelSize(width: Int(gdk_pixbuf_animation_get_width(animation)), height: Int(gdk_pixbuf_animation_get_height(animation)))
        var clock = 0  // ms since the start: the sum of the delays played so far
        guard let iter = Self.at(0, { gdk_pixbuf_animation_get_iter(animation, $0) }) else {
            return .failure(DecodeFailure(.corrupt, tr("The animation could not be played.")))
        }
        defer { unref(iter) }

        var first: (pixbuf: OpaquePointer, delay: Int)?
        defer { if let first { unref(first.pixbuf) } }
        var framesAreObjects = false  // whether the loader hands out one pixbuf per frame
        var previousWasLast = false
        var loops = true
        playing: while true {
            if cancellation.isCancelled { return .failure(Self.cancelled) }
            guard let pixbuf = gdk_pixbuf_animation_iter_get_pixbuf(iter) else {
                loops = false
                break playing
            }
            // The time left on this frame: all of it, as the clock stands at its start.
            let delay = Int(gdk_pixbuf_animation_iter_get_delay_time(iter))
            if previousWasLast {
                // The GIF loader marks its last frame: past it, the animation either starts
                // over or stops for good (-1), as its loop count says.
                loops = delay >= 0
                break playing
            }
            if delay < 0 {
                // -1: this frame stays for good. First, it is a still image; later, the end,
                // usually showing the last frame again.
                if frames.count == 0 { return .success(nil) }
                let frame = Shrunk(pixbuf, toFit: box)
                if !frames.matches(frame.pixbuf, frame: frames.count - 1), frames.count < limit,
                   frames.byteCount + frame.byteCount <= maxBytes {
                    _ = frames.append(frame.pixbuf, duration: DecodedAnimation.Frame.duration(forDelay: 0))
                }
                loops = false
                break playing
            }
            if frames.count == 1, let first { framesAreObjects = pixbuf != first.pixbuf }
            let frame = Shrunk(pixbuf, toFit: box)
            if framesAreObjects, frames.count >= 2, let first, pixbuf == first.pixbuf, delay == first.delay,
               frames.matches(frame.pixbuf, frame: 0) {
                // The first frame's own pixbuf again (kept alive, so not a new one at its address).
                loops = true
                break playing
            }
            if frames.count >= limit || frames.byteCount + frame.byteCount > maxBytes {
                loops = true
                break playing
            }
            // The file's own delay where known (a GIF's frames are the loader's, one for one).
            let fileDelay = frames.count < fileDelays.count ? fileDelays[frames.count] : delay
            guard frames.append(frame.pixbuf, duration: DecodedAnimation.Frame.duration(forDelay: fileDelay)) else {
                loops = true  // no room for it: play what fitted
                break playing
            }
            if first == nil {
                g_object_ref(UnsafeMutableRawPointer(pixbuf))
                first = (pixbuf, delay)
            }
            previousWasLast = gdk_pixbuf_animation_iter_on_currently_loading_frame(iter) != 0

            // To the next frame. A loader may count a frame's end as part of it (WebP's does):
            // a millisecond later is then the next frame's start.
            clock += delay
            if Self.at(clock, { gdk_pixbuf_animation_iter_advance(iter, $0) }) == 0 {
                if Self.at(clock + 1, { gdk_pixbuf_animation_iter_advance(iter, $0) }) == 0 {
                    loops = false  // the frame stays: the animation has stopped
                    break playing
                }
            }
        }
        guard frames.count >= 2 else { return .success(nil) }
        return .success(Played(loops: fileLoops ?? loops, canvas: canvas, format: format))
    }

    private static let cancelled = DecodeFailure(.cancelled, "Cancelled")

    /// Calls `body` with a point on the synthetic clock, `milliseconds` after its start, as
    /// the iterator takes it: a GTimeVal (seconds and microseconds, two C longs), which GLib
    /// deprecates but gdk-pixbuf's iterator still takes. `Time` is inferred from `body`.
    private static func at<Time, Result>(_ milliseconds: Int, _ body: (UnsafePointer<Time>) -> Result) -> Result {
        precondition(MemoryLayout<Time>.size == 2 * MemoryLayout<CLong>.size)
        var time: (CLong, CLong) = (CLong(milliseconds / 1000), CLong(milliseconds % 1000 * 1000))
        return withUnsafeMutableBytes(of: &time) { raw in
            raw.withMemoryRebound(to: Time.self) { body($0.baseAddress!) }
        }
    }

}

/// A frame as it is kept: the iterator's pixbuf, shrunk to fit the box when larger (a new
/// pixbuf, released with this).
private final class Shrunk {
    let pixbuf: OpaquePointer
    private let owned: OpaquePointer?

    init(_ pixbuf: OpaquePointer, toFit box: PixelSize) {
        owned = PixbufImage.shrunk(pixbuf, toFit: box)
        self.pixbuf = owned ?? pixbuf
    }

    deinit { unref(owned) }

    var byteCount: Int { Int(gdk_pixbuf_get_byte_length(pixbuf)) }
}

/// Where an animation's frames go as they are played, each copied once from a pixbuf.
protocol AnimationFrameSink: AnyObject {
    /// The frames so far.
    var count: Int { get }
    /// Their pixels' bytes (each pixbuf's byte length).
    var byteCount: Int { get }
    /// Whether `pixbuf` holds the same pixels, laid out the same way, as frame `index`.
    func matches(_ pixbuf: OpaquePointer, frame index: Int) -> Bool
    /// Copies `pixbuf`'s pixels as the next frame, shown `duration` ms; false when there is no
    /// room for them (or their pixel format differs from the first frame's).
    func append(_ pixbuf: OpaquePointer, duration: Int) -> Bool
}

/// Frames kept in this process's memory, one `PixelBuffer` each.
final class FrameBuffers: AnimationFrameSink {
    private var images: [(image: DecodedImage, duration: Int)] = []
    private(set) var byteCount = 0

    var count: Int { images.count }

    func matches(_ pixbuf: OpaquePointer, frame index: Int) -> Bool {
        let image = images[index].image
        return PixbufImage.hasPixels(pixbuf, of: image)
    }

    func append(_ pixbuf: OpaquePointer, duration: Int) -> Bool {
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        if let first = images.first, first.image.hasAlpha != hasAlpha { return false }
        // The image's own size and format are filled in by `frames(sourceSize:format:)`.
        let image = PixbufImage.copy(pixbuf, sourceSize: PixelSize(width: 0, height: 0), format: "")
        images.append((image, duration))
        byteCount += image.pixels.count
        return true
    }

    /// The frames, as the animation of an image of `sourceSize` in `format`.
    func frames(sourceSize: PixelSize, format: String) -> [DecodedAnimation.Frame] {
        images.map { image, duration in
            DecodedAnimation.Frame(image: DecodedImage(size: image.size, stride: image.stride, hasAlpha: image.hasAlpha, pixels: image.pixels,
                                                       sourceSize: sourceSize, format: format), duration: duration)
        }
    }
}

/// Refuses, from the size the loader reports, a canvas over the pixel cap, before the loader
/// allocates it. Never asks for another size: a loader asked to scale an animation wraps it in
/// one that scales every frame again each time it is asked for one.
private final class SizeGuard: SizePreparedHandler {
    let maxPixels: Int
    var sawHeader = false
    var refusal: DecodeFailure?

    init(maxPixels: Int) {
        self.maxPixels = maxPixels
    }

    func sizePrepared(loader: UnsafeMutablePointer<GdkPixbufLoader>?, width: Int, height: Int) {
        sawHeader = true
        let size = PixelSize(width: width, height: height)
        if width <= 0 || height <= 0 || size.pixels > maxPixels || width > 65_535 || height > 65_535 {
            refusal = DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(size)"))
            gdk_pixbuf_loader_set_size(loader, 0, 0)  // tells the loader to stop, before it allocates
        }
    }
}
