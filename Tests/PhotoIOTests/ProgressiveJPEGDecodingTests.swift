import CGdkPixbuf
import Foundation
import PhotoCore
import PhotoIO
import Testing

/// ImageMagick's `convert`, which writes progressive JPEGs (gdk-pixbuf cannot).
private let convert = ["/usr/bin/convert", "/usr/local/bin/convert"].first(where: FileManager.default.isExecutableFile)

/// A thumbnail of a progressive JPEG shrunk by 8 is decoded from the file's DC scans alone
/// (`ProgressiveJPEGPrefix`): the same picture as decoding every byte.
@Suite(.enabled(if: convert != nil, "ImageMagick's convert is not installed (build-aux/install-deps.sh test)"))
struct ProgressiveJPEGDecodingTests {
    private let folder = TempFolder()
    private static let box = PixelSize(width: 256, height: 256)

    /// A 2048×1536 photo-like picture (gradients, edges, noise) as a progressive JPEG.
    private func progressiveJPEG(_ name: String, quality: Int) throws -> String {
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 2048, 1536)!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf)), pixels = gdk_pixbuf_get_pixels(pixbuf)!
        var generator = SystemRandomNumberGenerator()
        for y in 0..<1536 {
            for x in 0..<2048 {
                let p = pixels + y * stride + x * 3
                let noise = Int.random(in: -12...12, using: &generator)
                p[0] = UInt8(clamping: x / 8 + noise)
                p[1] = UInt8(clamping: y / 6 + noise)
                p[2] = UInt8(clamping: (x / 64 + y / 64) % 2 == 0 ? 200 + noise : 40 + noise)
            }
        }
        let source = folder.save(pixbuf, as: name + ".png", type: "png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: convert!)
        process.arguments = [source, "-interlace", "JPEG", "-quality", String(quality), folder.path(name)]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "convert made no JPEG")
        return folder.path(name)
    }

    /// Where the file's DC scans end; nil when it is not a progressive JPEG.
    private func dcEnd(_ path: String) -> Int? {
        var prefix = ProgressiveJPEGPrefix()
        guard case .end(let end) = prefix.scan(Array(FileManager.default.contents(atPath: path)!)) else { return nil }
        return end
    }

    /// gdk-pixbuf's own decode of the whole file at the same size.
    private func wholeFile(_ path: String, _ size: PixelSize) throws -> OpaquePointer {
        try #require(gdk_pixbuf_new_from_file_at_scale(path, Int32(size.width), Int32(size.height), 1, nil))
    }

    /// The largest and the mean difference of a channel between `image` and `reference`.
    private func difference(_ image: DecodedImage, _ reference: OpaquePointer) -> (largest: Int, mean: Double) {
        let stride = Int(gdk_pixbuf_get_rowstride(reference)), pixels = gdk_pixbuf_get_pixels(reference)!
        var largest = 0, total = 0
        for y in 0..<image.size.height {
            for x in 0..<image.size.width {
                let (r, g, b) = image.rgb(x, y)
                let p = pixels + y * stride + x * 3
                let channels = [abs(r - Int(p[0])), abs(g - Int(p[1])), abs(b - Int(p[2]))]
                largest = max(largest, channels.max()!)
                total += channels.reduce(0, +)
            }
        }
        return (largest, Double(total) / Double(image.size.pixels * 3))
    }

    @Test(arguments: [75, 95])
    func theThumbnailIsThePictureTheWholeFileGives(quality: Int) throws {
        let path = try progressiveJPEG("photo.jpg", quality: quality)
        let end = try #require(dcEnd(path), "convert wrote no progressive JPEG")
        #expect(end < (try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int) / 2, "the DC scans are a small part of the file")

        let image = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(path), fitting: Self.box), cancellation: CancellationFlag()).get()
        #expect(image.size == PixelSize(width: 256, height: 192))
        #expect(image.sourceSize == PixelSize(width: 2048, height: 1536))
        let reference = try wholeFile(path, image.size)
        defer { g_object_unref(UnsafeMutableRawPointer(reference)) }
        // The first DC scans leave out the DC's lowest bit (a later scan refines it): about a
        // level of 255 on average at quality 75 (4 at most), less at higher qualities.
        let (largest, mean) = difference(image, reference)
        #expect(largest <= 6)
        #expect(mean <= 1.5)
    }

    @Test func bytesAfterTheDCScansAreNotDecodedForAThumbnail() throws {
        let path = try progressiveJPEG("photo.jpg", quality: 85)
        let end = try #require(dcEnd(path))
        let intact = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(path), fitting: Self.box), cancellation: CancellationFlag()).get()

        // The rest of the file wiped: a thumbnail of it is still the intact file's.
        var bytes = folder.bytes("photo.jpg")
        for i in end..<(bytes.count - 2) { bytes[i] = 0 }
        let wiped = folder.file("wiped.jpg", bytes: bytes)
        let thumbnail = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(wiped), fitting: Self.box), cancellation: CancellationFlag()).get()
        #expect(thumbnail.size == intact.size)
        var same = true
        for y in 0..<intact.size.height { for x in 0..<intact.size.width where intact.rgb(x, y) != thumbnail.rgb(x, y) { same = false } }
        #expect(same, "the thumbnail of the wiped file differs from the intact file's")
    }

    @Test func aLargerImageStillDecodesEveryScan() throws {
        // At 1/4 (a box of 1024) the AC coefficients count: the whole file is decoded.
        let path = try progressiveJPEG("photo.jpg", quality: 85)
        let box = PixelSize(width: 1024, height: 1024)
        let image = try PixbufDecoder().decode(DecodeRequest(uri: fileURI(path), fitting: box), cancellation: CancellationFlag()).get()
        #expect(image.size == PixelSize(width: 1024, height: 768))
        let reference = try wholeFile(path, image.size)
        defer { g_object_unref(UnsafeMutableRawPointer(reference)) }
        #expect(difference(image, reference).largest == 0)
    }
}
