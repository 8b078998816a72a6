import CGdkPixbuf
import Glibc
import PhotoCore

/// A file of the freedesktop thumbnail cache, read: its pixels, shrunk to fit the box asked
/// for (`image.sourceSize` is the file's own size), and its text keys by
/// `ThumbnailAttributes.Key`. Whether it is a valid thumbnail of a photo is the browser's
/// to decide (`ThumbnailAttributes.isValid`).
public struct ThumbnailFile: Sendable {
    public let image: DecodedImage
    public let text: [String: String]

    public init(image: DecodedImage, text: [String: String]) {
        self.image = image
        self.text = text
    }

    /// The largest file read: an xx-large RGBA thumbnail stored without compression is 4 MiB.
    public static let maxFileBytes = 32 << 20
    /// The smallest PNG there is (signature, header, one data chunk, end).
    static let minFileBytes = 46

    /// Opens the file at `path` for a reader, without blocking (a FIFO under a thumbnail's
    /// name would stall a worker forever): a regular file of a plausible size, else nil. The
    /// caller closes the descriptor. Reads no byte of it.
    static func open(path: String) -> Int32? {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              status.st_size >= minFileBytes, status.st_size <= maxFileBytes else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Reads the thumbnail PNG open on `descriptor` (the caller's to close), where bytes from
    /// other programs are parsed: a decoder process, or this process when decoding runs here.
    /// The file is read whole, its chunks checked and arranged (`ThumbnailPNG`), then decoded
    /// by gdk-pixbuf's PNG loader alone. `output` gets the pixbuf, shrunk to fit `box`, the
    /// file's own size and the text keys; nil when the file is not a whole thumbnail PNG.
    static func decode<Output>(descriptor: Int32, fitting box: PixelSize,
                               output: (OpaquePointer, PixelSize, [String: String]) -> Output?) -> Output? {
        guard let bytes = readWhole(descriptor), case .success(let (size, arranged)) = ThumbnailPNG.arranged(bytes) else { return nil }
        guard let loader = gdk_pixbuf_loader_new_with_mime_type("image/png", nil) else { return nil }
        defer { unref(loader) }
        let written = arranged.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), nil) }
        let closed = gdk_pixbuf_loader_close(loader, nil)
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader),
              Int(gdk_pixbuf_get_width(pixbuf)) == size.width, Int(gdk_pixbuf_get_height(pixbuf)) == size.height else { return nil }
        var text: [String: String] = [:]
        for key in ThumbnailAttributes.Key.all {
            if let value = gdk_pixbuf_get_option(pixbuf, "tEXt::" + key) { text[key] = String(cString: value) }
        }
        let shrunk = PixbufImage.shrunk(pixbuf, toFit: box)
        defer { unref(shrunk) }
        return output(shrunk ?? pixbuf, size, text)
    }

    /// The whole file open on `descriptor`, from its start, if it is a regular file of a
    /// plausible size.
    private static func readWhole(_ descriptor: Int32) -> [UInt8]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              status.st_size >= minFileBytes, status.st_size <= maxFileBytes else { return nil }
        let count = Int(status.st_size)
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var total = 0
            while total < count {
                let n = pread(descriptor, buffer.baseAddress! + total, count - total, off_t(total))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                total += n
            }
            complete = total == count
            initialized = complete ? count : 0
        }
        return complete ? bytes : nil
    }
}

/// Reads thumbnail files (PNGs any program may have written into the cache): in a decoder
/// process (`IsolatedDecoder`), or in this process (`PixbufDecoder`) where decoding runs here.
public protocol ThumbnailFileReading: Sendable {
    /// The thumbnail file open on `descriptor` (the caller closes it), its pixels shrunk to
    /// fit `box`; nil when it is not a whole thumbnail PNG, or once `cancellation` is.
    func readThumbnailFile(descriptor: Int32, fitting box: PixelSize, cancellation: CancellationFlag) -> ThumbnailFile?
    /// Where the movie of the motion photo at `uri` (a local file) lies, if it is one: for a
    /// thumbnail another program made, which says nothing of it.
    func motionMovie(uri: String, cancellation: CancellationFlag) -> EmbeddedMovie?
}

extension ThumbnailFileReading {
    public func motionMovie(uri: String, cancellation: CancellationFlag) -> EmbeddedMovie? {
        guard !cancellation.isCancelled, uri.hasPrefix("file://"),
              case .success(let found) = ByteSource.reading(uri: uri, { source -> Result<EmbeddedMovie?, DecodeFailure> in
                  .success(source.descriptor.flatMap { MotionPhotoReader.find(descriptor: $0) })
              }) else { return nil }
        return found
    }
}

extension PixbufDecoder: ThumbnailFileReading {
    public func readThumbnailFile(descriptor: Int32, fitting box: PixelSize, cancellation: CancellationFlag) -> ThumbnailFile? {
        guard !cancellation.isCancelled else { return nil }
        return ThumbnailFile.decode(descriptor: descriptor, fitting: box) { pixbuf, size, text in
            ThumbnailFile(image: PixbufImage.copy(pixbuf, sourceSize: size, format: "png"), text: text)
        }
    }
}
