import Synchronization

/// A size in device pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var pixels: Int { width * height }
    public var description: String { "\(width)×\(height)" }

    /// The largest size with this aspect ratio that fits in `box`, never larger than self
    /// (photos are shrunk to fit, never blown up).
    public func fitting(in box: PixelSize) -> PixelSize {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return self }
        if width <= box.width && height <= box.height { return self }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return PixelSize(width: max(1, Int((Double(width) * scale).rounded())),
                         height: max(1, Int((Double(height) * scale).rounded())))
    }
}

/// What to decode: a file, and the box the result must fit in.
public struct DecodeRequest: Sendable, Hashable {
    /// The file's URI.
    public let uri: String
    /// The decoded image is shrunk (on load where the format allows) to fit this box.
    public let fitting: PixelSize

    public init(uri: String, fitting: PixelSize) {
        self.uri = uri
        self.fitting = fitting
    }
}

/// Decoded pixels, owned by this object and freed with it.
///
/// Immutable once made: a decoder fills the buffer before handing it out, and nothing
/// writes to it afterwards, which is why sharing it across threads is safe.
public final class PixelBuffer: @unchecked Sendable {
    public let bytes: UnsafeMutableRawPointer
    public let count: Int

    private let release: (@Sendable (UnsafeMutableRawPointer, Int) -> Void)?

    /// Takes a buffer filled by `fill`, which receives the raw storage of `count` bytes.
    public init(count: Int, fill: (UnsafeMutableRawPointer) -> Void) {
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        self.count = count
        release = nil
        fill(bytes)
    }

    /// Adopts `count` bytes someone else allocated (shared memory mapped from a decoder
    /// process); `release` frees them when the buffer goes.
    public init(adopting bytes: UnsafeMutableRawPointer, count: Int,
                release: @escaping @Sendable (UnsafeMutableRawPointer, Int) -> Void) {
        self.bytes = bytes
        self.count = count
        self.release = release
    }

    deinit {
        if let release { release(bytes, count) } else { bytes.deallocate() }
    }
}

/// A decoded image: 8-bit RGB or RGBA (straight alpha), rows `stride` bytes apart.
public struct DecodedImage: Sendable {
    public let size: PixelSize
    public let stride: Int
    public let hasAlpha: Bool
    public let pixels: PixelBuffer
    /// The image's own size before shrinking, after orientation.
    public let sourceSize: PixelSize
    /// The decoder's name for the format it found in the content ("jpeg", "png", …).
    public let format: String
    /// The file ended before its image did (a JPEG cut short): the pixels are what there was,
    /// the rest filled in by the loader.
    public var endMissing = false
    /// A video's length in milliseconds, when the image is a frame of a video whose
    /// container says; nil for a photo.
    public var videoDuration: Int?
    /// Clockwise quarter turns a video's container asks for (`PixelLayout.videoTurns`).
    public var videoTurns = 0
    /// Where a motion photo's movie lies in its file; nil for any other image.
    public var motionMovie: EmbeddedMovie?

    public init(size: PixelSize, stride: Int, hasAlpha: Bool, pixels: PixelBuffer, sourceSize: PixelSize, format: String) {
        self.size = size
        self.stride = stride
        self.hasAlpha = hasAlpha
        self.pixels = pixels
        self.sourceSize = sourceSize
        self.format = format
    }
}

/// Why a file was not decoded, in words a person can read in a tooltip.
public struct DecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file could not be opened or read (permissions, vanished, not a regular file).
        case unreadable
        /// The content is not an image any installed decoder understands.
        case notAnImage
        /// The image is damaged or the decoder failed on it.
        case corrupt
        /// Decoding it would take more memory than the browser allows for one image.
        case tooLarge
        /// Nobody wants the result any more.
        case cancelled
        /// The decoder process crashed, ran out of memory or answered nonsense on this file.
        case unsafe
        /// The decoder did not finish within its time limit and was stopped: a machine too
        /// busy, or a file that makes a loader loop. Tried again later.
        case timedOut
        /// The bytes given end before what was wanted: the first bytes of a photo on another
        /// machine, of which more are to be read.
        case cutShort
        /// No decoder process could start (`DecoderStarts`): nothing was read of the file, and
        /// it is tried again once decoding is available.
        case unavailable
    }

    public let kind: Kind
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = Self.oneLine(reason)
    }

    /// A reason as one line: a library's message may end in a newline or span several
    /// (libheif's do), which a tile's tooltip, a status page or a log line would show as such.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    public var description: String { reason }

    /// Whether the failure belongs to the file's content, as the decoder itself found it
    /// (refused, or crashed on), so that trying again before the file changes would fail the
    /// same way: only such a failure is remembered. A cancelled decode says nothing about
    /// the file; a timeout may be the machine's load; an unreadable file (no permission,
    /// vanished, not a regular file) is a state of the moment, and fixing it (`chmod`) does
    /// not change the modification time.
    public var isLasting: Bool {
        switch kind {
        case .notAnImage, .corrupt, .tooLarge, .unsafe: true
        case .unreadable, .cancelled, .timedOut, .cutShort, .unavailable: false
        }
    }
}

/// A flag a decode polls so that work nobody wants stops early; work that waits on
/// something it cannot poll (a network call, a semaphore) asks to be told instead
/// (`whenCancelled`).
public final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)
    private struct Handlers: Sendable {
        var next = 0
        var waiting: [Int: @Sendable () -> Void] = [:]
    }
    private let handlers = Mutex(Handlers())

    public init() {}
    public var isCancelled: Bool { state.load(ordering: .relaxed) }

    /// Sets the flag and runs the handlers waiting for it (on the cancelling thread), once.
    public func cancel() {
        guard !state.exchange(true, ordering: .relaxed) else { return }
        let waiting = handlers.withLock { handlers in
            defer { handlers.waiting.removeAll() }
            return handlers.waiting.values
        }
        for handler in waiting { handler() }
    }

    /// Runs `handler` when the flag is cancelled (at once, on this thread, if it is already),
    /// until the returned registration goes: hold it for as long as the wait lasts.
    public func whenCancelled(_ handler: @escaping @Sendable () -> Void) -> CancellationHandler {
        let registered = handlers.withLock { handlers -> Int? in
            guard !isCancelled else { return nil }
            handlers.next += 1
            handlers.waiting[handlers.next] = handler
            return handlers.next
        }
        guard let id = registered else {
            handler()
            return CancellationHandler(nil)
        }
        // Cancelled while registering: `cancel` sets the flag before it takes the handlers, so
        // the handler is either among those it runs or still here, and then run now.
        if isCancelled, handlers.withLock({ $0.waiting.removeValue(forKey: id) }) != nil {
            handler()
            return CancellationHandler(nil)
        }
        return CancellationHandler { [weak self] in
            _ = self?.handlers.withLock { $0.waiting.removeValue(forKey: id) }
        }
    }

    /// Handlers waiting now (tests).
    public var waitingHandlers: Int { handlers.withLock { $0.waiting.count } }
}

/// A handler registered with `CancellationFlag.whenCancelled`: removed when this goes.
public final class CancellationHandler: Sendable {
    private let remove: (@Sendable () -> Void)?
    init(_ remove: (@Sendable () -> Void)?) { self.remove = remove }
    deinit { remove?() }
}

/// The one interface between what shows images and what decodes them: what to decode, at
/// what size; pixels or a reason back. Implementations run on worker threads.
public protocol ImageDecoding: Sendable {
    func decode(_ request: DecodeRequest, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure>
}

/// Reads the preview a camera embeds in a photo's EXIF (a small JPEG, 160×120 and up), from
/// the photo's first bytes: a first look at a photo on a slow server before its whole file
/// is read. Turned upright as the photo is.
public protocol EmbeddedPreviewReading: Sendable {
    func embeddedPreview(_ request: DecodeRequest, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure>
}

/// Where the movie of a motion photo (a phone's still with a few seconds of video in the same
/// file: Google's and Samsung's) lies in its file: `length` bytes from `offset`, an MP4.
public struct EmbeddedMovie: Sendable, Hashable {
    public let offset: Int64
    public let length: Int64

    public init(offset: Int64, length: Int64) {
        self.offset = offset
        self.length = length
    }

    /// "OFFSET LENGTH", as a thumbnail records it (`ThumbnailAttributes.Key.motionMovie`).
    public var text: String { "\(offset) \(length)" }

    /// The movie a text written by `text` names; nil unless it is two numbers, the offset
    /// not negative and the length positive.
    public init?(text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let offset = Int64(parts[0]), let length = Int64(parts[1]), offset >= 0, length > 0,
              offset <= Int64.max - length else { return nil }
        self.init(offset: offset, length: length)
    }
}
