import CGdkPixbuf
import CPng
import Glibc
import PhotoCore

/// A rectangle of a PNG decoded alone (a viewer's tile of a large PNG, or the whole photo
/// reduced for its fit-size image), with libpng a row at a time: PNG's rows are one deflate
/// stream, so the rows above the region are inflated and dropped, the region's rows kept
/// (`ReducedRows`, averaged down at a reduced level), and reading stops after its last row.
/// Memory is the region and a row, whatever the photo's size. Converted to sRGB from an
/// embedded ICC profile.
///
/// Refused before a row is read: a header declaring more than `DecoderRequest.maxRegionSource`
/// pixels (a decompression bomb), a region of more than `maxPixels` or outside the photo,
/// and an interlaced PNG (its passes spread each row over the whole file: decoded whole).
enum PNGRegionDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes the region `choose` picks once the photo's size is known (nil: refused).
    static func decode<Output>(descriptor: Int32, maxPixels: Int, cancellation: CancellationFlag, choose: (PixelSize) -> ImageRegion?,
                               output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        guard let file = StdioStream.reopen(descriptor) else { return .failure(StdioStream.unreadable) }
        defer { fclose(file) }
        let context = UnsafeMutablePointer<gpb_png>.allocate(capacity: 1)
        defer { context.deallocate() }
        defer { gpb_png_destroy(context) }
        guard gpb_png_open(context, file, png_uint_32(DecoderRequest.maxEdge)) == 0 else {
            return .failure(DecodeFailure(.notAnImage, message(context)))
        }
        let size = PixelSize(width: Int(gpb_png_width(context)), height: Int(gpb_png_height(context)))
        guard size.width > 0, size.height > 0, size.pixels <= DecoderRequest.maxRegionSource else {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(size)")))
        }
        guard gpb_png_interlaced(context) == 0 else {
            return .failure(DecodeFailure(.notAnImage, "An interlaced PNG is decoded whole, not a region at a time."))
        }
        guard let region = choose(size) else {
            return .failure(DecodeFailure(.corrupt, "No region of the photo (\(size)) was asked for."))
        }
        guard region.pixels <= maxPixels else {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(region.size)")))
        }
        let channels = Int(gpb_png_channels(context))
        guard channels == 3 || channels == 4 else { return .failure(DecodeFailure(.notAnImage, "Unexpected PNG channels.")) }
        guard var rows = ReducedRows(imageSize: size, region: region, hasAlpha: channels == 4) else {
            return .failure(DecodeFailure(.corrupt, "The region \(region) lies outside the photo (\(size))."))
        }
        defer { rows.release() }
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: size.width * channels)
        defer { line.deallocate() }
        let first = rows.sourceColumns.lowerBound * channels
        for row in 0..<rows.sourceRows.upperBound {
            if row % 64 == 0, cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
            guard gpb_png_read_row(context, line) == 0 else { return .failure(DecodeFailure(.corrupt, message(context))) }
            if row >= rows.sourceRows.lowerBound { rows.add(line + first, pixelBytes: channels) }
        }
        // The rows below are never read: destroying the reader drops them.
        guard let pixbuf = rows.take() else { return .failure(DecodeFailure(.corrupt, "The photo ends before the region does.")) }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        var icc: png_bytep?
        var length: png_uint_32 = 0
        if gpb_png_icc(context, &icc, &length) == 1, let icc, length > 0 {
            _ = ColourProfile.convertToSRGB(pixbuf, icc: Array(UnsafeBufferPointer(start: icc, count: Int(length))))
        }
        return output(pixbuf, size, "png")
    }

    private static func message(_ context: UnsafeMutablePointer<gpb_png>) -> String {
        let text = withUnsafeBytes(of: context.pointee.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return FailureWords.loaderFailure(text.isEmpty ? nil : text, header: true)
    }
}

extension PNGRegionDecoder {
    /// The size a PNG's header declares, nil when it is not a PNG libpng reads.
    static func size(descriptor: Int32) -> PixelSize? {
        guard let file = StdioStream.reopen(descriptor) else { return nil }
        defer { fclose(file) }
        let context = UnsafeMutablePointer<gpb_png>.allocate(capacity: 1)
        defer { context.deallocate() }
        defer { gpb_png_destroy(context) }
        guard gpb_png_open(context, file, png_uint_32(DecoderRequest.maxEdge)) == 0 else { return nil }
        return PixelSize(width: Int(gpb_png_width(context)), height: Int(gpb_png_height(context)))
    }
}
