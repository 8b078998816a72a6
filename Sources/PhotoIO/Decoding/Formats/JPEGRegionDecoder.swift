import CGdkPixbuf
import CJpeg
import Glibc
import PhotoCore

/// A rectangle of a JPEG decoded alone, for the viewer's tiles (`DecoderRequest.Operation.region`),
/// with libjpeg-turbo: DCT scaling for the reduced levels (1/2, 1/4, 1/8), `jpeg_skip_scanlines`
/// past the rows above the region and `jpeg_crop_scanline` to its columns, so only the
/// region's rows are decoded into pixels (the rows above are entropy-decoded and dropped).
/// The region is given upright and mapped through the photo's EXIF orientation to the stored
/// pixels; the result is turned upright and converted to sRGB from an embedded ICC profile,
/// as the whole-photo decode is.
///
/// Refused before anything is decoded: a header declaring more than
/// `DecoderRequest.maxRegionSource` pixels (a decompression bomb), a region of more than
/// `maxPixels`, one outside the photo, colour spaces other than grey, YCbCr and RGB.
/// libjpeg may use at most `memoryLimit` bytes (a progressive JPEG keeps all its
/// coefficients).
enum JPEGRegionDecoder {
    static let memoryLimit = 256 << 20

    static func decode<Output>(descriptor: Int32, region: ImageRegion, maxPixels: Int, cancellation: CancellationFlag,
                               output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        guard region.pixels <= maxPixels else {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(region.size)")))
        }
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        guard let file = StdioStream.reopen(descriptor) else { return .failure(StdioStream.unreadable) }
        defer { fclose(file) }
        let context = UnsafeMutablePointer<gpb_jpeg>.allocate(capacity: 1)
        defer { context.deallocate() }
        guard gpb_jpeg_create(context, file) == 0 else { return .failure(DecodeFailure(.corrupt, message(context))) }
        defer { gpb_jpeg_destroy(context) }
        context.pointee.info.mem.pointee.max_memory_to_use = memoryLimit
        guard gpb_jpeg_read_header(context) == 0 else { return .failure(DecodeFailure(.notAnImage, message(context))) }

        let stored = PixelSize(width: Int(context.pointee.info.image_width), height: Int(context.pointee.info.image_height))
        guard stored.width > 0, stored.height > 0, stored.pixels <= DecoderRequest.maxRegionSource else {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(stored)")))
        }
        switch context.pointee.info.jpeg_color_space {
        case JCS_GRAYSCALE, JCS_YCbCr, JCS_RGB: break
        default: return .failure(DecodeFailure(.notAnImage, "Only grey, YCbCr and RGB JPEGs are decoded a region at a time."))
        }
        let (orientation, icc) = markers(context)
        let upright = orientation.value >= 5 ? PixelSize(width: stored.height, height: stored.width) : stored
        let uprightLevel = ImageRegion.reducedSize(upright, reduction: region.reduction)
        guard region.lies(in: uprightLevel) else {
            return .failure(DecodeFailure(.corrupt, "The region \(region) lies outside the photo (\(upright))."))
        }
        let wanted = region.stored(by: orientation, upright: uprightLevel)

        context.pointee.info.out_color_space = JCS_RGB
        context.pointee.info.scale_num = 1
        context.pointee.info.scale_denom = UInt32(1 << region.reduction)
        guard gpb_jpeg_start(context) == 0 else { return .failure(DecodeFailure(.corrupt, message(context))) }
        let storedLevel = ImageRegion.reducedSize(stored, reduction: region.reduction)
        guard Int(context.pointee.info.output_width) == storedLevel.width, Int(context.pointee.info.output_height) == storedLevel.height,
              context.pointee.info.output_components == 3 else {
            return .failure(DecodeFailure(.corrupt, "The decoder scaled the photo unexpectedly."))
        }
        // The crop widens to whole iMCU columns: the region starts `inset` pixels in.
        var cropX = JDIMENSION(wanted.x), cropWidth = JDIMENSION(wanted.width)
        guard gpb_jpeg_crop(context, &cropX, &cropWidth) == 0 else { return .failure(DecodeFailure(.corrupt, message(context))) }
        let inset = wanted.x - Int(cropX)
        guard inset >= 0, inset + wanted.width <= Int(cropWidth) else { return .failure(DecodeFailure(.corrupt, "The crop missed the region.")) }
        if wanted.y > 0 {
            guard gpb_jpeg_skip(context, JDIMENSION(wanted.y)) == wanted.y else { return .failure(DecodeFailure(.corrupt, message(context))) }
        }
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }

        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(wanted.width), Int32(wanted.height)) else {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(region.size)")))
        }
        defer { unref(pixbuf) }
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        let rowstride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(cropWidth) * 3)
        defer { line.deallocate() }
        for row in 0..<wanted.height {
            if row % 32 == 0, cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
            var rows: [JSAMPROW?] = [line]
            let read = rows.withUnsafeMutableBufferPointer { gpb_jpeg_read_rows(context, $0.baseAddress, 1) }
            guard read == 1 else {
                return .failure(DecodeFailure(.corrupt, read < 0 ? message(context) : "The photo ends before the region does."))
            }
            (pixels + row * rowstride).update(from: line + inset * 3, count: wanted.width * 3)
        }
        // The rows below are never read: destroying the decompressor drops them.
        let turned = EmbeddedPreview.turned(pixbuf, orientation: orientation.value)
        defer { if let turned { unref(turned) } }
        let final = turned ?? pixbuf
        if let icc { ColourProfile.convertToSRGB(final, icc: icc) }
        return output(final, upright, "jpeg")
    }

    /// The EXIF orientation (APP1) and the ICC profile (APP2) of the markers saved.
    static func markers(_ context: UnsafeMutablePointer<gpb_jpeg>) -> (ExifOrientation, [UInt8]?) {
        var orientation = ExifOrientation.upright
        var marker = context.pointee.info.marker_list
        while let saved = marker {
            if Int(saved.pointee.marker) == Int(JPEG_APP0) + 1, let data = saved.pointee.data {
                let block = Array(UnsafeBufferPointer(start: data, count: Int(saved.pointee.data_length)))
                if block.starts(with: JPEGExif.header) {
                    orientation = OrientedExif.orientation(in: block) ?? .upright
                    break
                }
            }
            marker = saved.pointee.next
        }
        var icc: UnsafeMutablePointer<JOCTET>?
        var length: UInt32 = 0
        guard gpb_jpeg_icc(context, &icc, &length) == 1, let icc else { return (orientation, nil) }
        defer { free(icc) }
        return (orientation, Array(UnsafeBufferPointer(start: icc, count: Int(length))))
    }

    private static func message(_ context: UnsafeMutablePointer<gpb_jpeg>) -> String {
        let text = withUnsafeBytes(of: context.pointee.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return FailureWords.loaderFailure(text.isEmpty ? nil : text, header: true)
    }
}
