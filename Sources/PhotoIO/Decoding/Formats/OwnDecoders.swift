import CGdkPixbuf
import Glibc
import PhotoCore

/// An image one of our own decoders made: upright, in sRGB, at the size it decoded (the
/// caller shrinks it to fit).
struct OwnDecodedImage {
    /// A GdkPixbuf the image owns one reference to (`release` gives it up).
    let pixbuf: OpaquePointer
    /// The image's own size, upright.
    let sourceSize: PixelSize
    /// The format's name, as gdk-pixbuf names formats ("heif", "avif", "jxl", "raw").
    let format: String

    func release() { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
}

/// Decodes the formats gdk-pixbuf does not read, or reads short (`StillFormat`), in the
/// decoder processes: the file is read whole (at most `maxFileBytes`), the library's decoder
/// gives an upright image in sRGB, which is shrunk to fit and handed to `output` like a
/// `PixbufDecoder`'s pixbuf.
enum OwnDecoders {
    /// The largest file read whole into memory.
    static let maxFileBytes = 768 << 20

    static func decode<Output>(_ format: StillFormat, descriptor: Int32, fitting: PixelSize, maxPixels: Int,
                               cancellation: CancellationFlag,
                               output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        if format == .cmykJpeg {
            // libjpeg reads the file itself: only the rows of the scale asked for are made.
            return shrunk(CmykJpegDecoder.decode(descriptor: descriptor, fitting: fitting, maxPixels: maxPixels, cancellation: cancellation),
                          fitting: fitting, cancellation: cancellation, output: output)
        }
        let bytes: [UInt8]
        switch readWhole(descriptor) {
        case .success(let read): bytes = read
        case .failure(let failure): return .failure(failure)
        }
        let decoded: Result<OwnDecodedImage, DecodeFailure>
        switch format {
        case .raw: decoded = RawDecoder.decode(bytes, fitting: fitting, maxPixels: maxPixels, cancellation: cancellation)
        case .heif: decoded = HeifDecoder.decode(bytes, fitting: fitting, maxPixels: maxPixels)
        case .jxl: decoded = JxlDecoder.decode(bytes, maxPixels: maxPixels, cancellation: cancellation)
        case .pixbuf, .cmykJpeg, .video: return .failure(DecodeFailure(.notAnImage, "Not a format of our own decoders."))
        }
        return shrunk(decoded, fitting: fitting, cancellation: cancellation, output: output)
    }

    /// A video's frame near a tenth of the way in, shrunk to fit and handed to `output`, and
    /// what the video says of itself.
    static func decodeVideo<Output>(descriptor: Int32, fitting: PixelSize, maxPixels: Int, cancellation: CancellationFlag,
                                    output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<(Output, VideoDetails), DecodeFailure> {
        switch VideoDecoder.decode(descriptor: descriptor, maxPixels: maxPixels, cancellation: cancellation) {
        case .success(let (image, details)):
            return shrunk(.success(image), fitting: fitting, cancellation: cancellation, output: output).map { ($0, details) }
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// A decoded image shrunk to fit and handed to `output`.
    private static func shrunk<Output>(_ decoded: Result<OwnDecodedImage, DecodeFailure>, fitting: PixelSize, cancellation: CancellationFlag,
                                       output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        decoded.flatMap { image in
            defer { image.release() }
            if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
            guard let shrunk = PixbufImage.shrunk(image.pixbuf, toFit: fitting) else {
                return output(image.pixbuf, image.sourceSize, image.format)
            }
            defer { g_object_unref(UnsafeMutableRawPointer(shrunk)) }
            return output(shrunk, image.sourceSize, image.format)
        }
    }

    /// The whole file behind `descriptor`, read from its start.
    static func readWhole(_ descriptor: Int32) -> Result<[UInt8], DecodeFailure> {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(DecodeFailure(.unreadable, tr("The file could not be read: %s.", String(cString: strerror(errno)))))
        }
        let size = Int(status.st_size)
        if size == 0 { return .failure(DecodeFailure(.corrupt, tr("The file is empty."))) }
        if size > maxFileBytes {
            return .failure(DecodeFailure(.tooLarge, tr("The file is too large to open safely (%s bytes).", "\(size)")))
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, size - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                return .failure(DecodeFailure(.unreadable, tr("The file could not be read: %s.", String(cString: strerror(errno)))))
            }
            if n == 0 { break }
            done += n
        }
        if done < size { bytes.removeSubrange(done...) }
        return .success(bytes)
    }

    /// A new pixbuf (RGB, or RGBA with `channels` 4) holding a copy of `height` rows of
    /// `rowBytes` apart at `bytes`; grey (`channels` 1) is spread to RGB.
    static func pixbuf(width: Int, height: Int, channels: Int, rowBytes: Int, bytes: UnsafeRawPointer) -> OpaquePointer? {
        guard width > 0, height > 0, [1, 3, 4].contains(channels),
              let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, channels == 4 ? 1 : 0, 8, Int32(width), Int32(height)) else { return nil }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let target = UnsafeMutableRawPointer(gdk_pixbuf_get_pixels(pixbuf))!
        for row in 0..<height {
            let from = bytes + row * rowBytes, to = target + row * stride
            if channels == 1 {
                let grey = from.assumingMemoryBound(to: UInt8.self), rgb = to.assumingMemoryBound(to: UInt8.self)
                for x in 0..<width { rgb[3 * x] = grey[x]; rgb[3 * x + 1] = grey[x]; rgb[3 * x + 2] = grey[x] }
            } else {
                to.copyMemory(from: from, byteCount: width * channels)
            }
        }
        return pixbuf
    }
}
