import CGdkPixbuf
import PhotoCore

/// A rectangle of an image made from its rows as a decoder reads them, top to bottom, each
/// `2^reduction` square of pixels averaged into one (the last column and row cover what is
/// left, as `ImageRegion.reducedSize` counts): the region decoders of formats without JPEG's
/// DCT scaling (`PNGRegionDecoder`, `TIFFRegionDecoder`) keep only the region's pixels and
/// one row of sums, never the image.
struct ReducedRows {
    /// The image as stored, and the region of its level reduced by `2^region.reduction`.
    let imageSize: PixelSize
    let region: ImageRegion
    let hasAlpha: Bool
    /// The 8-bit RGB or RGBA pixbuf the region is made in (owned: `take` hands it over).
    private var pixbuf: OpaquePointer?
    private let factor: Int
    private var sums: [UInt32]
    private var rowsSummed = 0
    private var nextRow = 0

    /// The image's rows the region needs: read them all, from the first, to `add`.
    var sourceRows: Range<Int> { region.y * factor..<min(imageSize.height, (region.y + region.height) * factor) }
    /// The image's columns the region needs: `add` takes a row from the first of them.
    var sourceColumns: Range<Int> { region.x * factor..<min(imageSize.width, (region.x + region.width) * factor) }

    /// The deepest reduction: a square of 4096×4096 pixels' sums still fit in 32 bits.
    static let maxReduction = 12

    /// Nil when the region does not lie in the image's level, or its pixels cannot be had.
    init?(imageSize: PixelSize, region: ImageRegion, hasAlpha: Bool) {
        guard region.reduction >= 0, region.reduction <= Self.maxReduction,
              region.lies(in: ImageRegion.reducedSize(imageSize, reduction: region.reduction)),
              let made = gdk_pixbuf_new(GDK_COLORSPACE_RGB, hasAlpha ? 1 : 0, 8, Int32(region.width), Int32(region.height)) else { return nil }
        self.imageSize = imageSize
        self.region = region
        self.hasAlpha = hasAlpha
        pixbuf = made
        factor = 1 << region.reduction
        sums = [UInt32](repeating: 0, count: factor == 1 ? 0 : region.width * (hasAlpha ? 4 : 3))
    }

    /// The pixbuf made, all its rows added; the caller owns it.
    mutating func take() -> OpaquePointer? {
        guard nextRow == region.height, let made = pixbuf else { return nil }
        pixbuf = nil
        return made
    }

    /// Lets the pixbuf go unless `take` took it.
    mutating func release() {
        if let pixbuf { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        pixbuf = nil
    }

    /// The next of `sourceRows`, its pixels `pixelBytes` apart (3 or 4: R, G, B, then alpha
    /// when 4) from the first of `sourceColumns`.
    mutating func add(_ row: UnsafePointer<UInt8>, pixelBytes: Int) {
        guard let pixbuf, nextRow < region.height else { return }
        let channels = hasAlpha ? 4 : 3
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let target = gdk_pixbuf_get_pixels(pixbuf)! + nextRow * stride
        let columns = sourceColumns.count
        if factor == 1 {
            if pixelBytes == channels {
                target.update(from: row, count: region.width * channels)
            } else {
                for x in 0..<region.width {
                    for c in 0..<channels { target[x * channels + c] = c < pixelBytes ? row[x * pixelBytes + c] : 255 }
                }
            }
            nextRow += 1
            return
        }
        sums.withUnsafeMutableBufferPointer { sums in
            for x in 0..<columns {
                let into = (x / factor) * channels, from = x * pixelBytes
                sums[into] &+= UInt32(row[from])
                sums[into + 1] &+= UInt32(row[from + 1])
                sums[into + 2] &+= UInt32(row[from + 2])
                if channels == 4 { sums[into + 3] &+= pixelBytes == 4 ? UInt32(row[from + 3]) : 255 }
            }
        }
        rowsSummed += 1
        let lastRow = sourceRows.count - nextRow * factor == rowsSummed
        guard rowsSummed == factor || lastRow else { return }
        sums.withUnsafeMutableBufferPointer { sums in
            for x in 0..<region.width {
                let wide = min(factor, columns - x * factor)
                let count = UInt32(max(1, wide * rowsSummed))
                for c in 0..<channels {
                    target[x * channels + c] = UInt8((sums[x * channels + c] + count / 2) / count)
                    sums[x * channels + c] = 0
                }
            }
        }
        rowsSummed = 0
        nextRow += 1
    }
}
