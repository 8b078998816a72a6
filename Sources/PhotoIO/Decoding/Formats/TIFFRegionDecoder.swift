import CGdkPixbuf
import CTiff
import Glibc
import PhotoCore

/// A rectangle of a TIFF decoded alone (a viewer's tile of a large TIFF, or the whole photo
/// reduced for its fit-size image), with libtiff: only the strips or tiles the region
/// crosses are read (`TIFFRGBAImageGet` from the region's row and column, a band of rows at
/// a time, which gives every photometric libtiff knows as RGBA), averaged down at a reduced
/// level (`ReducedRows`). Memory is the region, a band and one strip or tile, whatever the
/// photo's size. Converted to sRGB from an embedded ICC profile.
///
/// A TIFF in strips too large to hold (one strip for the whole photo, as gdk-pixbuf writes
/// it) is read a row at a time instead, down to the region's last row, when it is 8-bit grey
/// or RGB (`decodeScanlines`).
///
/// Refused before a pixel is read: a header declaring more than
/// `DecoderRequest.maxRegionSource` pixels (a decompression bomb), a region of more than
/// `maxPixels` or outside the photo, a strip or tile larger than `maxChunkBytes` that cannot
/// be read a row at a time (decoded whole instead), and an orientation other than the usual.
enum TIFFRegionDecoder {
    static let maxChunkBytes = 64 << 20
    /// Rows of the region's width read at a time: about this many bytes of RGBA.
    static let bandBytes = 8 << 20

    static func isTIFF(_ head: [UInt8]) -> Bool {
        head.starts(with: Array("II*\0".utf8)) || head.starts(with: Array("MM\0*".utf8))
    }

    /// Decodes the region `choose` picks once the photo's size is known (nil: refused).
    static func decode<Output>(descriptor: Int32, maxPixels: Int, cancellation: CancellationFlag, maxChunk: Int = maxChunkBytes,
                               choose: (PixelSize) -> ImageRegion?,
                               output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        guard let tiffs = FormatLibraries.tiff else { return .failure(DecodeFailure(.notAnImage, FailureWords.loaderFailure(nil, header: false))) }
        gpb_tiff_silence(tiffs)
        let copy = dup(descriptor)
        // "m": read with read(2), never mapped. TIFFClose closes the copy.
        guard copy >= 0, lseek(copy, 0, SEEK_SET) == 0, let tiff = tiffs.TIFFFdOpen(copy, "photo.tif", "rm") else {
            if copy >= 0 { close(copy) }
            return .failure(DecodeFailure(.notAnImage, FailureWords.loaderFailure(nil, header: false)))
        }
        defer { tiffs.TIFFClose(tiff) }
        var width: UInt32 = 0, height: UInt32 = 0, orientation: UInt16 = 1
        guard gpb_tiff_u32(tiffs, tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1, gpb_tiff_u32(tiffs, tiff, UInt32(TIFFTAG_IMAGELENGTH), &height) == 1 else {
            return .failure(DecodeFailure(.corrupt, FailureWords.loaderFailure(nil, header: true)))
        }
        let size = PixelSize(width: Int(width), height: Int(height))
        guard size.width > 0, size.height > 0, size.pixels <= DecoderRequest.maxRegionSource else {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(size)")))
        }
        _ = gpb_tiff_u16_defaulted(tiffs, tiff, UInt32(TIFFTAG_ORIENTATION), &orientation)
        guard orientation == UInt16(ORIENTATION_TOPLEFT) else {
            return .failure(DecodeFailure(.notAnImage, "A TIFF stored turned is decoded whole, not a region at a time."))
        }
        let chunk = tiffs.TIFFIsTiled(tiff) != 0 ? Int(tiffs.TIFFTileSize64(tiff)) : Int(tiffs.TIFFStripSize64(tiff))
        let scanlines = chunk > maxChunk ? scanlineLayout(tiffs, tiff) : nil
        guard chunk > 0, chunk <= maxChunk || scanlines != nil else {
            return .failure(DecodeFailure(.notAnImage, "A TIFF in strips or tiles of \(chunk) bytes is decoded whole, not a region at a time."))
        }
        guard let region = choose(size) else {
            return .failure(DecodeFailure(.corrupt, "No region of the photo (\(size)) was asked for."))
        }
        guard region.pixels <= maxPixels else {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(region.size)")))
        }
        if let scanlines {
            return decodeScanlines(tiffs, tiff, size: size, region: region, layout: scanlines, cancellation: cancellation, output: output)
        }
        var problem = [CChar](repeating: 0, count: 1024)
        var image = TIFFRGBAImage()
        guard tiffs.TIFFRGBAImageOK(tiff, &problem) == 1, tiffs.TIFFRGBAImageBegin(&image, tiff, 0, &problem) == 1 else {
            return .failure(DecodeFailure(.notAnImage, FailureWords.loaderFailure(String(cString: problem), header: true)))
        }
        defer { tiffs.TIFFRGBAImageEnd(&image) }
        image.req_orientation = UInt16(ORIENTATION_TOPLEFT)
        let hasAlpha = image.alpha != 0
        guard var rows = ReducedRows(imageSize: size, region: region, hasAlpha: hasAlpha) else {
            return .failure(DecodeFailure(.corrupt, "The region \(region) lies outside the photo (\(size))."))
        }
        defer { rows.release() }
        // `rows` takes the rows one at a time: a band is any number of them.
        let columns = rows.sourceColumns
        let band = max(1, min(rows.sourceRows.count, bandBytes / (columns.count * 4)))
        let raster = UnsafeMutablePointer<UInt32>.allocate(capacity: columns.count * band)
        defer { raster.deallocate() }
        for top in stride(from: rows.sourceRows.lowerBound, to: rows.sourceRows.upperBound, by: band) {
            if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
            let count = min(band, rows.sourceRows.upperBound - top)
            image.row_offset = Int32(top)
            image.col_offset = Int32(columns.lowerBound)
            guard tiffs.TIFFRGBAImageGet(&image, raster, UInt32(columns.count), UInt32(count)) == 1 else {
                return .failure(DecodeFailure(.corrupt, FailureWords.loaderFailure(nil, header: true)))
            }
            // RGBA bytes in memory order (libtiff packs R lowest), alpha premultiplied.
            let bytes = UnsafeMutableRawPointer(raster).assumingMemoryBound(to: UInt8.self)
            for row in 0..<count {
                let line = bytes + row * columns.count * 4
                if hasAlpha { unpremultiply(line, count: columns.count) }
                rows.add(line, pixelBytes: 4)
            }
        }
        guard let pixbuf = rows.take() else { return .failure(DecodeFailure(.corrupt, "The photo ends before the region does.")) }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        convertToSRGB(tiffs, pixbuf, tiff)
        return output(pixbuf, size, "tiff")
    }

    /// The most bytes of one compressed strip read whole to be decoded a row at a time.
    static let maxCompressedStrip = 128 << 20

    /// Samples per pixel of a TIFF in strips too large to hold, when it is one whose rows
    /// `decodeScanlines` can read itself: 8-bit grey or RGB, with or without alpha, each
    /// pixel's samples together, one compressed strip of at most `maxCompressedStrip` bytes
    /// (libtiff reads a strip's compressed bytes whole; an uncompressed one it cuts itself).
    private static func scanlineLayout(_ tiffs: ctiff_library, _ tiff: OpaquePointer) -> Int? {
        var bits: UInt16 = 0, samples: UInt16 = 0, planar: UInt16 = 0, photometric: UInt16 = 0
        guard tiffs.TIFFIsTiled(tiff) == 0,
              gpb_tiff_u16_defaulted(tiffs, tiff, UInt32(TIFFTAG_BITSPERSAMPLE), &bits) == 1, bits == 8,
              gpb_tiff_u16_defaulted(tiffs, tiff, UInt32(TIFFTAG_SAMPLESPERPIXEL), &samples) == 1,
              gpb_tiff_u16_defaulted(tiffs, tiff, UInt32(TIFFTAG_PLANARCONFIG), &planar) == 1, planar == UInt16(PLANARCONFIG_CONTIG),
              gpb_tiff_u16(tiffs, tiff, UInt32(TIFFTAG_PHOTOMETRIC), &photometric) == 1,
              (photometric == UInt16(PHOTOMETRIC_RGB) && (samples == 3 || samples == 4))
                || (photometric == UInt16(PHOTOMETRIC_MINISBLACK) && (samples == 1 || samples == 2)) else { return nil }
        for strip in 0..<tiffs.TIFFNumberOfStrips(tiff) where tiffs.TIFFGetStrileByteCount(tiff, strip) > UInt64(maxCompressedStrip) { return nil }
        return Int(samples)
    }

    /// The region of a TIFF in strips too large to hold, its rows read one at a time
    /// (`TIFFReadScanline`, from the first: a compressed strip is decoded in order) down to
    /// the region's last.
    private static func decodeScanlines<Output>(_ tiffs: ctiff_library, _ tiff: OpaquePointer, size: PixelSize, region: ImageRegion, layout samples: Int,
                                                cancellation: CancellationFlag,
                                                output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        let hasAlpha = samples == 2 || samples == 4, channels = hasAlpha ? 4 : 3
        guard var rows = ReducedRows(imageSize: size, region: region, hasAlpha: hasAlpha) else {
            return .failure(DecodeFailure(.corrupt, "The region \(region) lies outside the photo (\(size))."))
        }
        defer { rows.release() }
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: max(Int(tiffs.TIFFScanlineSize64(tiff)), size.width * samples))
        defer { line.deallocate() }
        let columns = rows.sourceColumns
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: columns.count * channels)
        defer { pixels.deallocate() }
        for row in 0..<rows.sourceRows.upperBound {
            if row % 64 == 0, cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
            guard tiffs.TIFFReadScanline(tiff, line, UInt32(row), 0) == 1 else {
                return .failure(DecodeFailure(.corrupt, FailureWords.loaderFailure(nil, header: true)))
            }
            guard row >= rows.sourceRows.lowerBound else { continue }
            for (x, column) in columns.enumerated() {
                let from = line + column * samples, to = pixels + x * channels
                if samples <= 2 {
                    to[0] = from[0]; to[1] = from[0]; to[2] = from[0]
                } else {
                    to[0] = from[0]; to[1] = from[1]; to[2] = from[2]
                }
                if hasAlpha { to[3] = from[samples - 1] }
            }
            rows.add(pixels, pixelBytes: channels)
        }
        guard let pixbuf = rows.take() else { return .failure(DecodeFailure(.corrupt, "The photo ends before the region does.")) }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        convertToSRGB(tiffs, pixbuf, tiff)
        return output(pixbuf, size, "tiff")
    }

    private static func convertToSRGB(_ tiffs: ctiff_library, _ pixbuf: OpaquePointer, _ tiff: OpaquePointer) {
        var length: UInt32 = 0
        var icc: UnsafeMutableRawPointer?
        if gpb_tiff_icc(tiffs, tiff, &length, &icc) == 1, let icc, length > 0 {
            _ = ColourProfile.convertToSRGB(pixbuf, icc: Array(UnsafeBufferPointer(start: icc.assumingMemoryBound(to: UInt8.self), count: Int(length))))
        }
    }

    private static func unpremultiply(_ line: UnsafeMutablePointer<UInt8>, count: Int) {
        for x in 0..<count {
            let alpha = Int(line[x * 4 + 3])
            guard alpha > 0, alpha < 255 else { continue }
            for c in 0..<3 { line[x * 4 + c] = UInt8(min(255, (Int(line[x * 4 + c]) * 255 + alpha / 2) / alpha)) }
        }
    }
}

extension TIFFRegionDecoder {
    /// The size a TIFF's first directory declares, nil when it is not a TIFF libtiff reads.
    static func size(descriptor: Int32) -> PixelSize? {
        guard let tiffs = FormatLibraries.tiff else { return nil }
        gpb_tiff_silence(tiffs)
        let copy = dup(descriptor)
        guard copy >= 0, lseek(copy, 0, SEEK_SET) == 0, let tiff = tiffs.TIFFFdOpen(copy, "photo.tif", "rm") else {
            if copy >= 0 { close(copy) }
            return nil
        }
        defer { tiffs.TIFFClose(tiff) }
        var width: UInt32 = 0, height: UInt32 = 0
        guard gpb_tiff_u32(tiffs, tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1, gpb_tiff_u32(tiffs, tiff, UInt32(TIFFTAG_IMAGELENGTH), &height) == 1 else { return nil }
        return PixelSize(width: Int(width), height: Int(height))
    }
}
