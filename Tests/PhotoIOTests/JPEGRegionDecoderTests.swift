import CGdkPixbuf
import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// A JPEG's regions decoded alone (the viewer's tiles) against the whole photo decoded by
/// gdk-pixbuf: the same pixels, upright, at each scale.
@Suite(.serialized) struct JPEGRegionDecoderTests {
    private let folder = TempFolder()

    /// A 1000×700 JPEG of 50-pixel squares, each its own colour.
    private func squares(_ name: String, orientation: UInt16? = nil) -> String {
        let pixbuf = squaresPixbuf()
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        folder.save(pixbuf, as: "plain-" + name, type: "jpeg")
        let bytes = folder.bytes("plain-" + name)
        return folder.file(name, bytes: orientation.map { jpeg(bytes, withOrientation: $0) } ?? bytes)
    }

    private func region(_ path: String, _ region: ImageRegion) -> Result<DecodedImage, DecodeFailure> {
        ByteSource.reading(uri: fileURI(path)) { source in
            JPEGRegionDecoder.decode(descriptor: source.descriptor!, region: region, maxPixels: IsolatedDecoder.maxRegionPixels,
                                     cancellation: CancellationFlag()) { .success(PixbufImage.copy($0, sourceSize: $1, format: $2)) }
        }
    }

    /// The largest difference of a channel between `tile` and `whole` at the tile's place.
    private func largestDifference(_ tile: DecodedImage, _ whole: DecodedImage, at x: Int, _ y: Int) -> Int {
        var largest = 0
        for ty in 0..<tile.size.height {
            for tx in 0..<tile.size.width {
                let a = tile.rgb(tx, ty), b = whole.rgb(x + tx, y + ty)
                largest = max(largest, abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
            }
        }
        return largest
    }

    @Test(arguments: [1, 3, 6, 8] as [UInt16])
    func regionsAreThePixelsOfTheUprightPhoto(orientation: UInt16) throws {
        let path = squares("o\(orientation).jpg", orientation: orientation)
        let whole = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(path), fitting: PixelSize(width: 4000, height: 4000)),
                                                cancellation: CancellationFlag()).get()
        let upright = orientation >= 5 ? PixelSize(width: 700, height: 1000) : PixelSize(width: 1000, height: 700)
        #expect(whole.size == upright)
        for (x, y, w, h) in [(0, 0, 512, 512), (512, 0, upright.width - 512, 512), (37, 201, 300, 211), (upright.width - 100, upright.height - 64, 100, 64)] {
            let tile = try region(path, ImageRegion(x: x, y: y, width: w, height: h, reduction: 0)).get()
            #expect(tile.size == PixelSize(width: w, height: h))
            #expect(tile.sourceSize == upright)
            #expect(tile.format == "jpeg")
            #expect(largestDifference(tile, whole, at: x, y) <= 8, "orientation \(orientation), region \(x),\(y)")
        }
    }

    @Test func reducedRegionsAreThePhotoDecodedSmaller() throws {
        let path = squares("reduced.jpg")
        for reduction in 1...3 {
            let size = ImageRegion.reducedSize(PixelSize(width: 1000, height: 700), reduction: reduction)
            let whole = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(path), fitting: size), cancellation: CancellationFlag()).get()
            #expect(whole.size == size)
            let tile = try region(path, ImageRegion(x: size.width / 3, y: size.height / 4, width: size.width / 2, height: size.height / 2,
                                                    reduction: reduction)).get()
            #expect(largestDifference(tile, whole, at: size.width / 3, size.height / 4) <= 8, "1/\(1 << reduction)")
        }
    }

    @Test func boundsAndBombsAreRefusedBeforeDecoding() throws {
        let path = squares("bounds.jpg")
        #expect(region(path, ImageRegion(x: 900, y: 0, width: 200, height: 10, reduction: 0)).failure?.kind == .corrupt)
        #expect(region(path, ImageRegion(x: 0, y: 0, width: 2100, height: 2100, reduction: 0)).failure?.kind == .tooLarge)
        // The same file declaring 65,000×65,000 pixels in its frame header.
        var bytes = folder.bytes("bounds.jpg")
        let sof = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) }!
        bytes[sof + 5] = 0xFD; bytes[sof + 6] = 0xE8; bytes[sof + 7] = 0xFD; bytes[sof + 8] = 0xE8
        let bomb = folder.file("bomb.jpg", bytes: bytes)
        #expect(region(bomb, ImageRegion(x: 0, y: 0, width: 16, height: 16, reduction: 0)).failure?.kind == .tooLarge)
        folder.file("notes.jpg", text: "not a jpeg")
        #expect(region(folder.path("notes.jpg"), ImageRegion(x: 0, y: 0, width: 16, height: 16, reduction: 0)).failure?.kind == .notAnImage)
        folder.image("flat.png", width: 64, height: 64)
        #expect(region(folder.path("flat.png"), ImageRegion(x: 0, y: 0, width: 16, height: 16, reduction: 0)).failure != nil)
    }

    @Test func aDecoderProcessAnswersRegionRequests() throws {
        let path = squares("isolated.jpg", orientation: 6)
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        let isolated = IsolatedDecoder(settings: settings)
        let asked = ImageRegion(x: 100, y: 600, width: 256, height: 200, reduction: 0)
        let there = try isolated.decodeRegion(uri: fileURI(path), region: asked, cancellation: CancellationFlag()).get()
        let here = try region(path, asked).get()
        #expect(there.size == asked.size && there.sourceSize == PixelSize(width: 700, height: 1000))
        #expect(packedPixels(there) == packedPixels(here))
        let outside = isolated.decodeRegion(uri: fileURI(path), region: ImageRegion(x: 600, y: 0, width: 200, height: 10, reduction: 0),
                                            cancellation: CancellationFlag())
        #expect(outside.failure?.kind == .corrupt)
        #expect(isolated.counts.replaced == 0)
    }
}
