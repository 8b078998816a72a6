import Glibc
import PhotoCore

/// A photo's region decoded alone, by the decoder of its format that can: JPEG
/// (`JPEGRegionDecoder`, libjpeg-turbo's DCT scaling and crop), PNG (`PNGRegionDecoder`, a
/// row at a time) and TIFF (`TIFFRegionDecoder`, a strip or tile at a time). The viewer's
/// tiles of a large photo come from here, and so does a large PNG's or TIFF's fit-size image
/// (`reducedWhole`), which gdk-pixbuf would decode at full size first.
enum RegionDecoders {
    /// `region` (upright, of the photo reduced by `2^region.reduction`) of the photo behind
    /// `descriptor`; other formats fail (`notAnImage`: the viewer decodes them whole).
    static func decode<Output>(descriptor: Int32, region: ImageRegion, maxPixels: Int, cancellation: CancellationFlag,
                               output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        let head = StillFormat.head(of: descriptor)
        if head.starts(with: PNGRegionDecoder.signature) {
            return PNGRegionDecoder.decode(descriptor: descriptor, maxPixels: maxPixels, cancellation: cancellation, choose: { _ in region }, output: output)
        }
        if TIFFRegionDecoder.isTIFF(head), StillFormat.sniff(head, name: nil) == .pixbuf {
            return TIFFRegionDecoder.decode(descriptor: descriptor, maxPixels: maxPixels, cancellation: cancellation, choose: { _ in region }, output: output)
        }
        if head.starts(with: [0xFF, 0xD8]) {
            return JPEGRegionDecoder.decode(descriptor: descriptor, region: region, maxPixels: maxPixels, cancellation: cancellation, output: output)
        }
        return .failure(DecodeFailure(.notAnImage, "Only JPEG, PNG and TIFF photos are decoded a region at a time."))
    }

    /// PNGs and TIFFs of more pixels than this get their fit-size image from `reducedWhole`.
    static let reducedWholePixels = 40_000_000

    /// A PNG or TIFF of more than `reducedWholePixels`, reduced by the largest power of two
    /// that keeps it at least `fitting`'s size (the caller shrinks it the rest of the way):
    /// its rows read once, top to bottom, never the whole photo in memory. Nil for any other
    /// file, or a smaller one; a failure when the file cannot be read this way (an interlaced
    /// PNG, one strip for a whole TIFF), which gdk-pixbuf then decodes whole.
    static func reducedWhole<Output>(descriptor: Int32, fitting: PixelSize, maxPixels: Int, cancellation: CancellationFlag,
                                     threshold: Int = reducedWholePixels,
                                     output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure>? {
        let head = StillFormat.head(of: descriptor)
        let png = head.starts(with: PNGRegionDecoder.signature)
        guard png || TIFFRegionDecoder.isTIFF(head),
              let size = png ? PNGRegionDecoder.size(descriptor: descriptor) : TIFFRegionDecoder.size(descriptor: descriptor),
              size.pixels > threshold else { return nil }
        let choose = { (size: PixelSize) -> ImageRegion? in
            let target = size.fitting(in: fitting)
            var reduction = 0
            while reduction < ReducedRows.maxReduction {
                let next = ImageRegion.reducedSize(size, reduction: reduction + 1)
                guard next.width >= target.width, next.height >= target.height else { break }
                reduction += 1
            }
            let level = ImageRegion.reducedSize(size, reduction: reduction)
            return ImageRegion(x: 0, y: 0, width: level.width, height: level.height, reduction: reduction)
        }
        return png ? PNGRegionDecoder.decode(descriptor: descriptor, maxPixels: maxPixels, cancellation: cancellation, choose: choose, output: output)
            : TIFFRegionDecoder.decode(descriptor: descriptor, maxPixels: maxPixels, cancellation: cancellation, choose: choose, output: output)
    }
}
