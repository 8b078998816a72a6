import Bridge
import CConfinement
import CGdkPixbuf
import CRaw
import Glibc
import PhotoCore

/// Cameras' RAW files through LibRaw (Debian 12: 0.20), in a decoder process: the largest
/// preview the camera embedded when it is as large as what is asked for, else the raw data
/// developed (at half size when that is enough), turned upright by the file's orientation.
enum RawDecoder {
    static func decode(_ bytes: [UInt8], fitting: PixelSize, maxPixels: Int, cancellation: CancellationFlag) -> Result<OwnDecodedImage, DecodeFailure> {
        guard let libraw = FormatLibraries.raw, let raw = libraw.libraw_init(0) else { return .failure(DecodeFailure(.tooLarge, tr("The RAW decoder could not start."))) }
        defer { libraw.libraw_close(raw) }
        let stop = CallbackBox.retain(cancellation)
        defer { CallbackBox.release(stop) }
        libraw.libraw_set_progress_handler(raw, { data, _, _, _ in
            guard let data else { return 0 }
            return CallbackBox.value(data, as: CancellationFlag.self).isCancelled ? 1 : 0
        }, stop)

        return bytes.withUnsafeBytes { buffer -> Result<OwnDecodedImage, DecodeFailure> in
            let opened = libraw.libraw_open_buffer(raw, UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
            guard opened == LIBRAW_SUCCESS.rawValue else { return .failure(unsupported(libraw, opened)) }
            let sizes = raw.pointee.sizes
            let flip = Int(sizes.flip)
            let stored = PixelSize(width: Int(sizes.width), height: Int(sizes.height))
            let upright = flip & 4 != 0 ? PixelSize(width: stored.height, height: stored.width) : stored
            guard stored.width > 0, stored.height > 0 else { return .failure(unsupported(libraw, Int32(LIBRAW_FILE_UNSUPPORTED.rawValue))) }
            let wanted = upright.fitting(in: fitting)

            let preview = libraw.libraw_unpack_thumb(raw) == LIBRAW_SUCCESS.rawValue
                ? PixelSize(width: Int(raw.pointee.thumbnail.twidth), height: Int(raw.pointee.thumbnail.theight)) : nil
            // A file too small to hold its raw data (the most compressed RAWs take about a
            // quarter of a byte a pixel) has only its preview to show: LibRaw would develop
            // whatever bytes stand in for the data.
            let hasRawData = buffer.count >= stored.pixels / 8
            if !hasRawData, let preview {
                let turned = flip & 4 != 0 ? PixelSize(width: preview.height, height: preview.width) : preview
                return previewImage(libraw, raw, flip: flip, fitting: fitting, sourceSize: turned, cancellation: cancellation)
            }
            let previewCovers = preview.map { max($0.width, $0.height) >= max(wanted.width, wanted.height) } ?? false
            if previewCovers, case .success(let image) = previewImage(libraw, raw, flip: flip, fitting: fitting, sourceSize: upright, cancellation: cancellation) {
                return .success(image)
            }
            if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
            switch develop(libraw, raw, stored: stored, wanted: wanted, upright: upright, maxPixels: maxPixels) {
            case .success(let image): return .success(image)
            case .failure(let failure) where failure.kind == .cancelled: return .failure(failure)
            case .failure(let failure):
                // A preview smaller than asked for is still better than nothing.
                if preview != nil, case .success(let image) = previewImage(libraw, raw, flip: flip, fitting: fitting, sourceSize: upright, cancellation: cancellation) {
                    return .success(image)
                }
                return .failure(failure)
            }
        }
    }

    /// LibRaw's words for a failure's code.
    private static func message(_ libraw: craw_library, _ code: Int32) -> String {
        libraw.libraw_strerror(code).map { String(cString: $0) } ?? "LibRaw error \(code)"
    }

    private static func unsupported(_ libraw: craw_library, _ code: Int32) -> DecodeFailure {
        DecodeFailure(.notAnImage, tr("This RAW file is not supported (%s).", message(libraw, code)))
    }

    /// The embedded preview, decoded (a JPEG through gdk-pixbuf, shrunk on load; a bitmap
    /// copied), then turned upright.
    private static func previewImage(_ libraw: craw_library, _ raw: UnsafeMutablePointer<libraw_data_t>, flip: Int, fitting: PixelSize, sourceSize: PixelSize,
                                     cancellation: CancellationFlag) -> Result<OwnDecodedImage, DecodeFailure> {
        var error: Int32 = 0
        guard let thumb = libraw.libraw_dcraw_make_mem_thumb(raw, &error) else {
            return .failure(DecodeFailure(.corrupt, tr("The RAW file's preview could not be read.")))
        }
        defer { libraw.libraw_dcraw_clear_mem(thumb) }
        let data = UnsafeRawPointer(thumb).advanced(by: MemoryLayout<libraw_processed_image_t>.offset(of: \libraw_processed_image_t.data)!)
        let count = Int(thumb.pointee.data_size)
        var pixbuf: OpaquePointer?
        if thumb.pointee.type == LIBRAW_IMAGE_JPEG {
            // The preview's box is the file's box turned back to the preview's own orientation.
            let box = flip & 4 != 0 ? PixelSize(width: fitting.height, height: fitting.width) : fitting
            let fd = cconf_memfd_create("gphotobrowse-raw-preview", cconf_MFD_CLOEXEC)
            guard fd >= 0 else { return .failure(DecodeFailure(.tooLarge, tr("The RAW file's preview could not be read."))) }
            var written = 0
            while written < count {
                let n = write(fd, data + written, count - written)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                written += n
            }
            _ = lseek(fd, 0, SEEK_SET)
            let source = ByteSource(descriptor: fd, name: "preview.jpg")
            defer { source.close() }
            let decoded = PixbufDecoder().decode(source, fitting: box, cancellation: cancellation, uprightByExif: false) { pixbuf, _, _, _ -> Result<OpaquePointer, DecodeFailure> in
                g_object_ref(UnsafeMutableRawPointer(pixbuf))
                return .success(pixbuf)
            }
            switch decoded {
            case .success(let made): pixbuf = made
            case .failure(let failure): return .failure(failure)
            }
        } else if thumb.pointee.type == LIBRAW_IMAGE_BITMAP, thumb.pointee.bits == 8 {
            let width = Int(thumb.pointee.width), height = Int(thumb.pointee.height), colors = Int(thumb.pointee.colors)
            guard width * height * colors <= count else { return .failure(DecodeFailure(.corrupt, tr("The RAW file's preview could not be read."))) }
            pixbuf = OwnDecoders.pixbuf(width: width, height: height, channels: colors, rowBytes: width * colors, bytes: data)
        }
        guard let pixbuf else { return .failure(DecodeFailure(.corrupt, tr("The RAW file's preview could not be read."))) }
        return .success(OwnDecodedImage(pixbuf: turned(pixbuf, flip: flip), sourceSize: sourceSize, format: "raw"))
    }

    /// The raw data developed by LibRaw: camera white balance, sRGB, 8 bits, upright.
    private static func develop(_ libraw: craw_library, _ raw: UnsafeMutablePointer<libraw_data_t>, stored: PixelSize, wanted: PixelSize, upright: PixelSize,
                                maxPixels: Int) -> Result<OwnDecodedImage, DecodeFailure> {
        let half = wanted.width * 2 <= upright.width && wanted.height * 2 <= upright.height
        let decodedPixels = half ? stored.pixels / 4 : stored.pixels
        if decodedPixels > maxPixels || stored.pixels > 4 * maxPixels {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(stored)")))
        }
        raw.pointee.params.half_size = half ? 1 : 0
        raw.pointee.params.use_camera_wb = 1
        raw.pointee.params.output_bps = 8
        var status = libraw.libraw_unpack(raw)
        if status == LIBRAW_SUCCESS.rawValue { status = libraw.libraw_dcraw_process(raw) }
        if status == LIBRAW_CANCELLED_BY_CALLBACK.rawValue { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        guard status == LIBRAW_SUCCESS.rawValue else {
            return .failure(DecodeFailure(.corrupt, tr("The RAW file could not be developed (%s).", message(libraw, status))))
        }
        var error: Int32 = 0
        guard let image = libraw.libraw_dcraw_make_mem_image(raw, &error) else {
            return .failure(DecodeFailure(.corrupt, tr("The RAW file could not be developed (%s).", message(libraw, error))))
        }
        defer { libraw.libraw_dcraw_clear_mem(image) }
        let data = UnsafeRawPointer(image).advanced(by: MemoryLayout<libraw_processed_image_t>.offset(of: \libraw_processed_image_t.data)!)
        let width = Int(image.pointee.width), height = Int(image.pointee.height), colors = Int(image.pointee.colors)
        guard image.pointee.bits == 8, width * height * colors <= Int(image.pointee.data_size),
              let pixbuf = OwnDecoders.pixbuf(width: width, height: height, channels: colors, rowBytes: width * colors, bytes: data) else {
            return .failure(DecodeFailure(.corrupt, tr("The RAW file could not be developed (%s).", "\(image.pointee.bits) bits")))
        }
        // LibRaw's developed image is upright already.
        return .success(OwnDecodedImage(pixbuf: pixbuf, sourceSize: upright, format: "raw"))
    }

    /// `pixbuf` turned by LibRaw's `flip` (dcraw's: 3 half a turn, 5 a quarter turn
    /// anticlockwise, 6 clockwise), as a new pixbuf; the one given is let go.
    static func turned(_ pixbuf: OpaquePointer, flip: Int) -> OpaquePointer {
        let rotation: GdkPixbufRotation
        switch flip {
        case 3: rotation = GDK_PIXBUF_ROTATE_UPSIDEDOWN
        case 5: rotation = GDK_PIXBUF_ROTATE_COUNTERCLOCKWISE
        case 6: rotation = GDK_PIXBUF_ROTATE_CLOCKWISE
        default: return pixbuf
        }
        guard let turned = gdk_pixbuf_rotate_simple(pixbuf, rotation) else { return pixbuf }
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        return turned
    }
}
