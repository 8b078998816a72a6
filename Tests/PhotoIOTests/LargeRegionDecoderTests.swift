import CGdkPixbuf
import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// A PNG's and a TIFF's regions decoded alone (the viewer's tiles of a large photo) against
/// the whole photo decoded by gdk-pixbuf: the same pixels at full size, each square's mean
/// at a reduced level.
@Suite(.serialized) struct LargeRegionDecoderTests {
    private let folder = TempFolder()

    /// A 1000×700 photo of 50-pixel squares, each its own colour, with a pixel of its own
    /// colour here and there (detail a reduction averages in).
    private func squares(_ name: String, type: String) -> String {
        let pixbuf = squaresPixbuf(detail: true)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        return folder.save(pixbuf, as: name, type: type)
    }

    private func region(_ path: String, _ region: ImageRegion) -> Result<DecodedImage, DecodeFailure> {
        ByteSource.reading(uri: fileURI(path)) { source in
            RegionDecoders.decode(descriptor: source.descriptor!, region: region, maxPixels: IsolatedDecoder.maxRegionPixels,
                                  cancellation: CancellationFlag()) { .success(PixbufImage.copy($0, sourceSize: $1, format: $2)) }
        }
    }

    /// The largest difference of a channel between `tile` and `whole` reduced by `factor`
    /// (each square of `factor` pixels averaged) at the tile's place.
    private func largestDifference(_ tile: DecodedImage, _ whole: DecodedImage, at x: Int, _ y: Int, factor: Int = 1) -> Int {
        var largest = 0
        for ty in 0..<tile.size.height {
            for tx in 0..<tile.size.width {
                var sum = (r: 0, g: 0, b: 0), count = 0
                for sy in (y + ty) * factor..<min(whole.size.height, (y + ty + 1) * factor) {
                    for sx in (x + tx) * factor..<min(whole.size.width, (x + tx + 1) * factor) {
                        let p = whole.rgb(sx, sy)
                        sum = (sum.r + p.r, sum.g + p.g, sum.b + p.b)
                        count += 1
                    }
                }
                let a = tile.rgb(tx, ty)
                largest = max(largest, abs(a.r - sum.r / count), abs(a.g - sum.g / count), abs(a.b - sum.b / count))
            }
        }
        return largest
    }

    @Test(arguments: ["png", "tiff"])
    func regionsAreThePhotosOwnPixels(type: String) throws {
        let path = squares("squares.\(type)", type: type)
        let whole = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(path), fitting: PixelSize(width: 4000, height: 4000)),
                                                cancellation: CancellationFlag()).get()
        #expect(whole.size == PixelSize(width: 1000, height: 700))
        for (x, y, w, h) in [(0, 0, 512, 512), (512, 0, 488, 512), (37, 201, 300, 211), (900, 636, 100, 64)] {
            let tile = try region(path, ImageRegion(x: x, y: y, width: w, height: h, reduction: 0)).get()
            #expect(tile.size == PixelSize(width: w, height: h))
            #expect(tile.sourceSize == whole.size)
            #expect(tile.format == type)
            #expect(largestDifference(tile, whole, at: x, y) == 0, "\(type) region \(x),\(y)")
        }
        for reduction in 1...3 {
            let level = ImageRegion.reducedSize(whole.size, reduction: reduction)
            let asked = ImageRegion(x: level.width / 3, y: level.height / 4, width: level.width - level.width / 3, height: level.height - level.height / 4,
                                    reduction: reduction)
            let tile = try region(path, asked).get()
            #expect(tile.size == asked.size)
            #expect(largestDifference(tile, whole, at: asked.x, asked.y, factor: 1 << reduction) <= 1, "\(type) 1/\(1 << reduction)")
        }
    }

    @Test func boundsAndBombsAreRefusedBeforeDecoding() throws {
        let path = squares("bounds.png", type: "png")
        #expect(region(path, ImageRegion(x: 900, y: 0, width: 200, height: 10, reduction: 0)).failure?.kind == .corrupt)
        #expect(region(path, ImageRegion(x: 0, y: 0, width: 2100, height: 2100, reduction: 0)).failure?.kind == .tooLarge)
        // The same file declaring 65,000×65,000 pixels in its header (its checksum made again).
        var bytes = folder.bytes("bounds.png")
        bytes.replaceSubrange(16..<24, with: [0, 0, 0xFD, 0xE8, 0, 0, 0xFD, 0xE8])
        let crc = crc32(bytes[12..<29])
        bytes.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        let bomb = folder.file("bomb.png", bytes: bytes)
        #expect(region(bomb, ImageRegion(x: 0, y: 0, width: 16, height: 16, reduction: 0)).failure?.kind == .tooLarge)
        folder.file("notes.png", text: "not a png")
        #expect(region(folder.path("notes.png"), ImageRegion(x: 0, y: 0, width: 16, height: 16, reduction: 0)).failure?.kind == .notAnImage)
    }

    @Test func aDecoderProcessAnswersPNGAndTIFFRegionRequests() throws {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        let isolated = IsolatedDecoder(settings: settings)
        for type in ["png", "tiff"] {
            let path = squares("isolated.\(type)", type: type)
            let asked = ImageRegion(x: 100, y: 100, width: 256, height: 200, reduction: 1)
            let there = try isolated.decodeRegion(uri: fileURI(path), region: asked, cancellation: CancellationFlag()).get()
            let here = try region(path, asked).get()
            #expect(there.size == asked.size && there.sourceSize == PixelSize(width: 1000, height: 700))
            #expect(packedPixels(there) == packedPixels(here))
        }
        #expect(isolated.counts.replaced == 0)
    }

    @Test(arguments: ["png", "tiff"])
    func aLargePhotoIsReducedAsItsRowsAreRead(type: String) throws {
        let path = squares("whole.\(type)", type: type)
        let whole = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(path), fitting: PixelSize(width: 4000, height: 4000)),
                                                cancellation: CancellationFlag()).get()
        func reduced(fitting: PixelSize, threshold: Int) throws -> DecodedImage? {
            try ByteSource.reading(uri: fileURI(path)) { source in
                .success(RegionDecoders.reducedWhole(descriptor: source.descriptor!, fitting: fitting, maxPixels: 100_000_000,
                                                     cancellation: CancellationFlag(), threshold: threshold) {
                    .success(PixbufImage.copy($0, sourceSize: $1, format: $2))
                })
            }.get()?.get()
        }
        // Smaller than the threshold: left to gdk-pixbuf.
        #expect(try reduced(fitting: PixelSize(width: 300, height: 300), threshold: 1_000_000) == nil)
        // To fit 300×300: halved twice (250×175 would be smaller than 300×210).
        let image = try #require(try reduced(fitting: PixelSize(width: 300, height: 300), threshold: 0))
        #expect(image.size == PixelSize(width: 500, height: 350) && image.sourceSize == whole.size && image.format == type)
        #expect(largestDifference(image, whole, at: 0, 0, factor: 2) <= 1)
        // A box of a few pixels: the level of a few pixels, every row read a band at a time.
        let tiny = try #require(try reduced(fitting: PixelSize(width: 4, height: 4), threshold: 0))
        #expect(tiny.size == PixelSize(width: 4, height: 3))
    }

    @Test func aTIFFInOneStripIsReadARowAtATime() throws {
        // One deflate strip for the whole photo, as gdk-pixbuf writes a TIFF.
        let pixbuf = makePixbuf(width: 1000, height: 700, rgba: 0x0000_00FF)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        for n in 0..<20 { fill(pixbuf, x: n * 50, y: n * 35, width: 50, height: 35, rgba: UInt32(n * 12) << 24 | 0x8040_FF) }
        var keys = [strdup("compression"), nil], values = [strdup("8"), nil]
        defer { free(keys[0]); free(values[0]) }
        let path = folder.path("strip.tiff")
        #expect(gdk_pixbuf_savev(pixbuf, path, "tiff", &keys, &values, nil) != 0)
        let whole = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(path), fitting: PixelSize(width: 4000, height: 4000)),
                                                cancellation: CancellationFlag()).get()
        for asked in [ImageRegion(x: 300, y: 200, width: 400, height: 300, reduction: 0), ImageRegion(x: 50, y: 40, width: 200, height: 130, reduction: 1)] {
            let tile = try ByteSource.reading(uri: fileURI(path)) { source in
                TIFFRegionDecoder.decode(descriptor: source.descriptor!, maxPixels: 1 << 22, cancellation: CancellationFlag(), maxChunk: 0,
                                         choose: { _ in asked }) { .success(PixbufImage.copy($0, sourceSize: $1, format: $2)) }
            }.get()
            #expect(tile.size == asked.size && tile.sourceSize == whole.size)
            #expect(largestDifference(tile, whole, at: asked.x, asked.y, factor: 1 << asked.reduction) <= 1)
        }
    }

    private func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
