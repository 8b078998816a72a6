import Bridge
import CGdkPixbuf
import Foundation
import PhotoCore

/// Decodes images with gdk-pixbuf, shrinking on load and applying EXIF orientation.
///
/// The file is opened without blocking and checked to be a regular file before any byte is
/// read, so a FIFO or a device named like a photo cannot stall a worker. Bytes are fed to a
/// `GdkPixbufLoader` in chunks, which lets a cancelled decode stop between chunks and lets
/// the size be decided from the header before pixels are allocated: an image whose decoded
/// size would exceed `maxDecodedPixels` is refused before the loader allocates it.
public struct PixbufDecoder: ImageDecoding {
    /// The most pixels one decode may produce before shrinking (100 MP is 400 MB as RGBA).
    public let maxDecodedPixels: Int

    public init(maxDecodedPixels: Int = 100_000_000) {
        self.maxDecodedPixels = maxDecodedPixels
    }

    public func decode(_ request: DecodeRequest, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure> {
        ByteSource.reading(uri: request.uri) { decode($0, fitting: request.fitting, cancellation: cancellation) }
    }

    /// Decodes what `source` reads (the caller closes it) to fit `fitting`.
    func decode(_ source: ByteSource, fitting: PixelSize, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure> {
        decode(source, fitting: fitting, cancellation: cancellation) { pixbuf, sourceSize, format, endMissing in
            var image = PixbufImage.copy(pixbuf, sourceSize: sourceSize, format: format)
            image.endMissing = endMissing
            return .success(image)
        }
    }

    /// Decodes what `source` reads, and hands the final pixbuf (upright, shrunk to fit), the
    /// image's own size, its format and whether the file ended before the image did (a JPEG
    /// cut short, which the loader decodes without a word) to `output`, which copies the
    /// pixels where they go: a `PixelBuffer`, or a decoder process's shared memory.
    /// `uprightByExif` false leaves the image as stored, whatever orientation its EXIF gives
    /// (a RAW file's preview, turned by the RAW's own orientation).
    func decode<Output>(_ source: ByteSource, fitting: PixelSize, cancellation: CancellationFlag, uprightByExif: Bool = true,
                        output: (OpaquePointer, PixelSize, String, Bool) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        let input: LoaderInput
        switch LoaderInput.open(source, maxDecodedPixels: maxDecodedPixels) {
        case .success(let opened): input = opened
        case .failure(let failure): return .failure(failure)
        }
        let loader: UnsafeMutablePointer<GdkPixbufLoader>
        switch input.makeLoader() {
        case .success(let made): loader = made
        case .failure(let failure): return .failure(failure)
        }
        defer { unref(loader) }

        // The first bytes, already read, go to the loader first.
        var buffer = input.head + [UInt8](repeating: 0, count: max(0, LoaderInput.chunkSize - input.head.count))
        var pending = input.head.count

        let plan = LoadPlan(box: fitting, maxPixels: maxDecodedPixels)
        onSizePrepared(loader, plan)
        // A progressive JPEG shrunk by 8 is decoded from its DC scans alone, ended there.
        var dcScans = input.mimeType == "image/jpeg" ? ProgressiveJPEGPrefix() : nil
        var offset = 0  // of buffer[0] in the file
        // Whether the file reaches its image's end: a JPEG's markers say, as they are fed. A
        // file whose last bytes are the EOI marker has reached it (no 0xFF 0xD9 occurs inside a
        // scan), and its bytes need no watching.
        let endsWithEOI = input.mimeType == "image/jpeg" && source.lastBytes(2) == Self.endOfImage
        var ending = input.mimeType == "image/jpeg" && !endsWithEOI ? JPEGEndWatch() : nil
        var readToTheEnd = false

        var loadError: String?
        feeding: while true {
            if cancellation.isCancelled {
                gdk_pixbuf_loader_close(loader, nil)
                return .failure(DecodeFailure(.cancelled, "Cancelled"))
            }
            if pending > 0 {
                var count = pending
                if var prefix = dcScans {
                    dcScans = nil
                    switch buffer.withUnsafeBytes({ prefix.scan(UnsafeRawBufferPointer(rebasing: $0[0..<pending])) }) {
                    case .needMore: dcScans = prefix
                    case .end(let end) where prefix.size.map { ProgressiveJPEGPrefix.decodesAtOneEighth($0, fitting: fitting) } == true:
                        count = max(0, end - offset)  // 0: the marker's first 0xFF went with the last chunk, as a fill byte
                    case .end, .notApplicable: break
                    }
                }
                var error: UnsafeMutablePointer<GError>?
                var ok: gboolean = 1
                if count > 0 { ok = buffer.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize(count), &error) } }
                if count == pending { buffer.withUnsafeBytes { ending?.scan(UnsafeRawBufferPointer(rebasing: $0[0..<count])) } }
                if ok != 0 && count < pending { ok = gdk_pixbuf_loader_write(loader, Self.endOfImage, 2, &error) }
                if ok == 0 {
                    loadError = Self.take(error)
                    break feeding
                }
                if plan.refusal != nil || count < pending { break feeding }
                offset += pending
            }
            switch buffer.withUnsafeMutableBytes({ source.read(into: $0) }) {
            case .failure(let failure):
                gdk_pixbuf_loader_close(loader, nil)
                return .failure(failure)
            case .success(0):
                readToTheEnd = true
                break feeding
            case .success(let n):
                pending = n
            }
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError) != 0
        let closeMessage = Self.take(closeError)
        if let refusal = plan.refusal { return .failure(refusal) }
        if !closed, loadError == nil { loadError = closeMessage }

        // An animation can come with an error and a usable first frame: use the image.
        guard let loaded = gdk_pixbuf_loader_get_pixbuf(loader) else {
            if plan.sourceSize == nil && source.bytesRead == 0 {
                return .failure(DecodeFailure(.corrupt, tr("The file is empty.")))
            }
            // The person reads what the loader's words mean, not the words.
            if plan.sourceSize == nil {
                return .failure(DecodeFailure(.notAnImage, loadError != nil ? FailureWords.loaderFailure(loadError, header: false)
                                                                               : tr("Not an image format this computer can read.")))
            }
            return .failure(DecodeFailure(.corrupt, FailureWords.loaderFailure(loadError, header: true)))
        }
        let format = plan.format
        guard let oriented = uprightByExif ? gdk_pixbuf_apply_embedded_orientation(loaded) : OpaquePointer(g_object_ref(UnsafeMutableRawPointer(loaded))) else {
            return .failure(DecodeFailure(.corrupt, tr("The image could not be turned upright.")))
        }
        defer { unref(oriented) }

        let width = Int(gdk_pixbuf_get_width(oriented)), height = Int(gdk_pixbuf_get_height(oriented))
        let decodedSize = PixelSize(width: width, height: height)
        var sourceSize = plan.sourceSize ?? decodedSize
        if (width > height) != (sourceSize.width > sourceSize.height) && width != height {
            sourceSize = PixelSize(width: sourceSize.height, height: sourceSize.width)
        }
        let target = decodedSize.fitting(in: fitting)
        var final = oriented
        var scaled: OpaquePointer?
        if target != decodedSize {
            scaled = gdk_pixbuf_scale_simple(oriented, Int32(target.width), Int32(target.height), GDK_INTERP_BILINEAR)
            if let scaled { final = scaled }
        }
        defer { if let scaled { unref(scaled) } }
        // An embedded colour profile (JPEG, PNG, TIFF): the pixels converted to sRGB, after
        // shrinking (fewer pixels to convert). Without one nothing is done.
        ColourProfile.convertToSRGB(final, loaderOptionsOf: loaded)
        // Only a file read to its end says whether it ends too soon (a decode from the DC
        // scans alone stops before).
        let endMissing = readToTheEnd && !endsWithEOI && (ending?.endMissing ?? loadError.map(FailureWords.isCutShort) ?? false)
        return output(final, sourceSize, format, endMissing)
    }

    /// A JPEG's EOI marker.
    private static let endOfImage: [UInt8] = [0xFF, 0xD9]

    /// A GError's message on one line (librsvg's end with a newline), and frees the error.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// Decides, from the header the loader reports, the size to decode at, or refuses.
/// Used by one decode on one thread only.
private final class LoadPlan: SizePreparedHandler {
    let box: PixelSize
    let maxPixels: Int
    var sourceSize: PixelSize?
    var format = "unknown"
    var refusal: DecodeFailure?

    init(box: PixelSize, maxPixels: Int) {
        self.box = box
        self.maxPixels = maxPixels
    }

    func sizePrepared(loader: UnsafeMutablePointer<GdkPixbufLoader>?, width: Int, height: Int) {
        let source = PixelSize(width: width, height: height)
        sourceSize = source
        if let info = gdk_pixbuf_loader_get_format(loader), let name = gdk_pixbuf_format_get_name(info) {
            format = String(cString: name)
            g_free(name)
        }
        let target = source.fitting(in: box)
        let decoded = Self.decodedSize(source: source, target: target, format: format)
        if width <= 0 || height <= 0 || decoded.pixels > maxPixels || decoded.width > 65_535 || decoded.height > 65_535 {
            refusal = DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(source)"))
            gdk_pixbuf_loader_set_size(loader, 0, 0)  // tells the loader to stop, before it allocates
            return
        }
        if target != source {
            gdk_pixbuf_loader_set_size(loader, Int32(target.width), Int32(target.height))
        }
    }

    /// The size the loader really allocates: JPEG shrinks on load by 1/2, 1/4 or 1/8 and
    /// SVG renders at the size asked for; other formats decode in full, then scale.
    static func decodedSize(source: PixelSize, target: PixelSize, format: String) -> PixelSize {
        switch format {
        case "jpeg":
            var denominator = 1
            while denominator < 8,
                  source.width / (denominator * 2) >= target.width,
                  source.height / (denominator * 2) >= target.height {
                denominator *= 2
            }
            return PixelSize(width: (source.width + denominator - 1) / denominator,
                             height: (source.height + denominator - 1) / denominator)
        case "svg":
            return target
        default:
            return source
        }
    }
}

/// A file opened for a gdk-pixbuf loader, as every decoder here opens one: without blocking,
/// checked to be a regular file before a byte is read, its first bytes read, the size its
/// header declares checked against the pixel cap, and the one loader allowed to see it chosen
/// from those bytes (`ImageTypes.loaderType`).
struct LoaderInput {
    /// The rest of the file, after `head`.
    let source: ByteSource
    /// The first bytes of the file (one chunk): feed them to the loader first.
    let head: [UInt8]
    /// The MIME type of the only loader that may see the bytes.
    let mimeType: String

    /// How many bytes are read, and fed to a loader, at a time.
    static let chunkSize = 64 * 1024

    /// Reads the first chunk of `source` (which the caller closes).
    static func open(_ source: ByteSource, maxDecodedPixels: Int) -> Result<LoaderInput, DecodeFailure> {
        // The first bytes decide which loader may see the file, before any loader does.
        var head = [UInt8](repeating: 0, count: chunkSize)
        switch head.withUnsafeMutableBytes({ source.read(into: $0) }) {
        case .failure(let failure):
            return .failure(failure)
        case .success(0):
            return .failure(DecodeFailure(.corrupt, tr("The file is empty.")))
        case .success(let n):
            head.removeSubrange(n...)
        }
        if let declared = ImageHeader.read(head), declared.size.pixels > maxDecodedPixels {
            // Loaders that buffer the file allocate the declared canvas when closed,
            // whatever size they were asked for: refuse before one sees a byte.
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(declared.size)")))
        }
        return ImageTypes.loaderType(forContent: head, name: source.name).map {
            LoaderInput(source: source, head: head, mimeType: $0)
        }
    }

    /// A new loader for `mimeType` (the caller unrefs it), created by type so that no other
    /// loader ever sees the bytes.
    func makeLoader() -> Result<UnsafeMutablePointer<GdkPixbufLoader>, DecodeFailure> {
        guard let loader = gdk_pixbuf_loader_new_with_mime_type(mimeType, nil) else {
            return .failure(DecodeFailure(.notAnImage, tr("No image loader reads %s.", mimeType)))
        }
        return .success(loader)
    }
}

/// Decides, when a loader reports the image's size (its `size-prepared` signal), the size to
/// decode at, or refuses. Used by one decode on one thread.
protocol SizePreparedHandler: AnyObject {
    func sizePrepared(loader: UnsafeMutablePointer<GdkPixbufLoader>?, width: Int, height: Int)
}

/// Connects `handler` to the loader's `size-prepared` signal; the loader keeps it alive
/// until the loader goes.
func onSizePrepared(_ loader: UnsafeMutablePointer<GdkPixbufLoader>, _ handler: some SizePreparedHandler) {
    let thunk: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { loader, width, height, data in
        guard let data else { return }
        let handler = CallbackBox.value(data, as: (any SizePreparedHandler).self)
        handler.sizePrepared(loader: loader, width: Int(width), height: Int(height))
    }
    let release: GClosureNotify = { data, _ in CallbackBox.release(data) }
    let retained = CallbackBox.retain(handler as any SizePreparedHandler)
    g_signal_connect_data(loader, "size-prepared", unsafeBitCast(thunk, to: GCallback.self), retained, release, GConnectFlags(0))
}

/// Bytes of one file, read without ever blocking on a special file.
final class ByteSource {
    private let fd: Int32
    private let stream: UnsafeMutablePointer<GInputStream>?
    /// The file's name, for the type its extension suggests.
    let name: String?
    private(set) var bytesRead = 0

    private init(fd: Int32, stream: UnsafeMutablePointer<GInputStream>?, name: String?) {
        self.fd = fd
        self.stream = stream
        self.name = name
    }

    /// What `body` makes of the file at `uri`, opened for it and closed after.
    static func reading<T>(uri: String, _ body: (ByteSource) -> Result<T, DecodeFailure>) -> Result<T, DecodeFailure> {
        open(uri: uri).flatMap { source in
            defer { source.close() }
            return body(source)
        }
    }

    /// Reads an open descriptor (a decoder process's, sent by the browser); `close` closes it.
    convenience init(descriptor: Int32, name: String?) {
        self.init(fd: descriptor, stream: nil, name: name)
    }

    /// The open descriptor of a local file, or nil for a remote stream.
    var descriptor: Int32? { stream == nil ? fd : nil }

    static func open(uri: String) -> Result<ByteSource, DecodeFailure> {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        let name = g_file_get_basename(file).map { p -> String in defer { g_free(p) }; return String(cString: p) }
        if let path = g_file_get_path(file) {
            defer { g_free(path) }
            // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
            let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            if fd < 0 {
                let reason = errno == EACCES ? tr("You do not have permission to read this file.") :
                    // Whether it ever existed is not known here (a path given that never did):
                    // said as it is, not as "no longer".
                    errno == ENOENT ? tr("There is no file at this place.") : tr("The file could not be opened: %s.", String(cString: strerror(errno)))
                return .failure(DecodeFailure(.unreadable, reason))
            }
            var status = stat()
            guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                Glibc.close(fd)
                return .failure(DecodeFailure(.unreadable, tr("Not a regular file.")))
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            return .success(ByteSource(fd: fd, stream: nil, name: name))
        }
        // A remote location (gvfs): GIO's stream, which never opens a local special file.
        var error: UnsafeMutablePointer<GError>?
        guard let stream = g_file_read(file, nil, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            return .failure(DecodeFailure(.unreadable, tr("The file could not be opened: %s", message)))
        }
        return .success(ByteSource(fd: -1, stream: UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self), name: name))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, DecodeFailure> {
        while true {
            let n: Int
            if let stream {
                var error: UnsafeMutablePointer<GError>?
                n = Int(g_input_stream_read(stream, buffer.baseAddress, gsize(buffer.count), nil, &error))
                if n < 0 {
                    let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                    if let error { g_error_free(error) }
                    return .failure(DecodeFailure(.unreadable, tr("The file could not be read: %s", message)))
                }
            } else {
                n = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    return .failure(DecodeFailure(.unreadable, tr("The file could not be read: %s.", String(cString: strerror(errno)))))
                }
            }
            bytesRead += n
            return .success(n)
        }
    }

    /// The file's last `count` bytes, read without moving where `read` goes on from; nil for
    /// a remote stream, or when they cannot be read.
    func lastBytes(_ count: Int) -> [UInt8]? {
        guard stream == nil else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, Int64(status.st_size) >= Int64(count) else { return nil }
        let bytes = FileBytes.read(fd, offset: Int64(status.st_size) - Int64(count), count: count)
        return bytes.count == count ? bytes : nil
    }

    func close() {
        if let stream {
            g_input_stream_close(stream, nil, nil)
            unref(stream)
        } else {
            Glibc.close(fd)
        }
    }
}
