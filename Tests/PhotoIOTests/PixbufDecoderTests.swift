import CGdkPixbuf
import Foundation
import PhotoCore
import PhotoIO
import Testing

@Suite struct PixbufDecoderTests {
    private let folder = TempFolder()

    private func decode(_ name: String, fitting box: Int = 100, decoder: PixbufDecoder = PixbufDecoder(),
                        cancellation: CancellationFlag = CancellationFlag()) -> Result<DecodedImage, DecodeFailure> {
        decoder.decode(DecodeRequest(uri: folder.uri(name), fitting: PixelSize(width: box, height: box)), cancellation: cancellation)
    }

    @Test func pngShrinksToFitWithItsColour() throws {
        folder.image("wide.png", width: 400, height: 200, rgba: 0x3366_CCFF)
        let image = try decode("wide.png").get()
        #expect(image.size == PixelSize(width: 100, height: 50))
        #expect(image.sourceSize == PixelSize(width: 400, height: 200))
        #expect(image.format == "png")
        #expect(image.stride >= image.size.width * (image.hasAlpha ? 4 : 3))
        #expect(image.pixels.count >= (image.size.height - 1) * image.stride + image.size.width * 3)
        for (x, y) in [(0, 0), (50, 25), (99, 49)] {
            #expect(image.pixel(x, y, isNear: 0x3366_CCFF), "pixel (\(x), \(y)) is \(image.rgb(x, y))")
        }
    }

    @Test func smallImageIsNotEnlarged() throws {
        folder.image("small.png", width: 40, height: 30)
        let image = try decode("small.png").get()
        #expect(image.size == PixelSize(width: 40, height: 30))
        #expect(image.sourceSize == PixelSize(width: 40, height: 30))
    }

    @Test func jpegDecodesAndShrinks() throws {
        folder.image("photo.jpg", width: 640, height: 480, rgba: 0xCC33_33FF, type: "jpeg")
        let image = try decode("photo.jpg").get()
        #expect(image.size == PixelSize(width: 100, height: 75))
        #expect(image.sourceSize == PixelSize(width: 640, height: 480))
        #expect(image.format == "jpeg")
        #expect(image.pixel(50, 37, isNear: 0xCC33_33FF, tolerance: 8), "pixel is \(image.rgb(50, 37))")
    }

    @Test func emptyFileIsCorrupt() throws {
        folder.file("empty.jpg", bytes: [])
        let failure = try #require(decode("empty.jpg").failure)
        #expect(failure.kind == .corrupt)
        #expect(failure.reason.contains("empty"))
    }

    @Test func textNamedLikeAPhotoIsNotAnImage() throws {
        folder.file("x.jpg", text: "These are notes, not a photo.\n")
        #expect(try #require(decode("x.jpg").failure).kind == .notAnImage)
    }

    @Test func fifoNamedLikeAPhotoFailsWithoutBlocking() throws {
        folder.fifo("x.jpg")
        let uri = folder.uri("x.jpg")
        let result = runOnThread {
            PixbufDecoder().decode(DecodeRequest(uri: uri, fitting: PixelSize(width: 100, height: 100)), cancellation: CancellationFlag())
        }
        if result == nil {
            // Unblock the stuck reader so the thread can end, then fail.
            let fd = open(folder.path("x.jpg"), O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        let finished = try #require(result, "decoding a FIFO hung")
        #expect(finished.failure?.kind == .unreadable)
    }

    @Test func directoryNamedLikeAPhotoIsUnreadable() throws {
        folder.folder("y.jpg")
        #expect(try #require(decode("y.jpg").failure).kind == .unreadable)
    }

    @Test func missingFileIsUnreadable() throws {
        let failure = try #require(decode("gone.jpg").failure)
        #expect(failure.kind == .unreadable)
        // A path that never existed is not said to be gone.
        #expect(!failure.reason.contains("no longer"))
        #expect(failure.reason == "There is no file at this place.")
    }

    @Test func truncatedPNGFailsOrDecodesWithoutCrashing() throws {
        // Noise, so the compressed data is long enough to cut in the middle.
        let pixbuf = makePixbuf(width: 300, height: 300, rgba: 0)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        var rng = SystemRandomNumberGenerator()
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        for i in 0..<Int(gdk_pixbuf_get_byte_length(pixbuf)) { pixels[i] = UInt8.random(in: 0...255, using: &rng) }
        folder.save(pixbuf, as: "whole.png", type: "png")
        let whole = folder.bytes("whole.png")
        folder.file("cut.png", bytes: Array(whole.prefix(whole.count / 2)))

        switch decode("cut.png") {
        case .success(let image):
            #expect(image.sourceSize == PixelSize(width: 300, height: 300))
        case .failure(let failure):
            #expect(failure.kind == .corrupt)
        }
    }

    @Test func aJPEGCutShortDecodesAndSaysItsEndIsMissing() throws {
        folder.image("whole.jpg", width: 640, height: 480, rgba: 0xCC33_33FF, type: "jpeg")
        let whole = folder.bytes("whole.jpg")
        folder.file("cut.jpg", bytes: Array(whole.prefix(whole.count / 2)))
        let cut = try decode("cut.jpg", fitting: 320).get()
        #expect(cut.endMissing)
        #expect(cut.sourceSize == PixelSize(width: 640, height: 480))
        #expect(try !decode("whole.jpg", fitting: 320).get().endMissing)
        // Bytes after the image's end (cameras append other images there) leave it whole.
        folder.file("trailing.jpg", bytes: whole + [0x00, 0x00])
        #expect(try !decode("trailing.jpg", fitting: 320).get().endMissing)
    }

    @Test func pngHeaderClaimingAHugeSizeIsRefused() throws {
        folder.file("huge.png", bytes: pngHeader(width: 30_000, height: 30_000))
        let failure = try #require(decode("huge.png").failure)
        #expect(failure.kind == .tooLarge)
    }

    @Test func pngOverThePixelCapIsRefused() throws {
        folder.image("big.png", width: 2000, height: 2000)
        let failure = try #require(decode("big.png", fitting: 256, decoder: PixbufDecoder(maxDecodedPixels: 1_000_000)).failure)
        #expect(failure.kind == .tooLarge)
    }

    @Test func jpegOverThePixelCapDecodesBecauseItShrinksOnLoad() throws {
        folder.image("big.jpg", width: 2000, height: 2000, type: "jpeg")
        let image = try decode("big.jpg", fitting: 256, decoder: PixbufDecoder(maxDecodedPixels: 1_000_000)).get()
        #expect(image.size == PixelSize(width: 256, height: 256))
        #expect(image.sourceSize == PixelSize(width: 2000, height: 2000))
    }

    @Test func exifOrientationTurnsTheImageUpright() throws {
        // Left half red, right half blue; Orientation 6 means "rotate 90° clockwise to view",
        // which puts the left half on top.
        let pixbuf = makePixbuf(width: 400, height: 200, rgba: 0xFF00_00FF)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        fill(pixbuf, x: 200, y: 0, width: 200, height: 200, rgba: 0x0000_FFFF)
        folder.save(pixbuf, as: "plain.jpg", type: "jpeg")
        folder.file("turned.jpg", bytes: jpeg(folder.bytes("plain.jpg"), withOrientation: 6))

        let full = try decode("turned.jpg", fitting: 1000).get()
        #expect(full.size == PixelSize(width: 200, height: 400))
        #expect(full.sourceSize == PixelSize(width: 200, height: 400))
        #expect(full.pixel(100, 50, isNear: 0xFF00_00FF, tolerance: 16), "top is \(full.rgb(100, 50))")
        #expect(full.pixel(100, 350, isNear: 0x0000_FFFF, tolerance: 16), "bottom is \(full.rgb(100, 350))")

        let thumb = try decode("turned.jpg", fitting: 100).get()
        #expect(thumb.size == PixelSize(width: 50, height: 100))
        #expect(thumb.sourceSize == PixelSize(width: 200, height: 400))
    }

    @Test func cancelledBeforeDecodingReturnsCancelled() throws {
        folder.image("a.png", width: 64, height: 64)
        let flag = CancellationFlag()
        flag.cancel()
        #expect(try #require(decode("a.png", cancellation: flag).failure).kind == .cancelled)
    }
}
