import PhotoCore
import Testing

@Suite struct PremultipliedImageTests {
    private func decoded(_ bytes: [UInt8], width: Int, height: Int, alpha: Bool, stride: Int) -> DecodedImage {
        DecodedImage(size: PixelSize(width: width, height: height), stride: stride, hasAlpha: alpha,
                     pixels: PixelBuffer(count: bytes.count) { $0.copyMemory(from: bytes, byteCount: bytes.count) },
                     sourceSize: PixelSize(width: width, height: height), format: "test")
    }

    private func words(_ image: PremultipliedImage) -> [UInt32] {
        let count = image.size.width * image.size.height
        return Array(UnsafeBufferPointer(start: image.pixels.bytes.assumingMemoryBound(to: UInt32.self), count: count))
    }

    @Test func opaqueRGBBecomesOpaqueWordsAndSkipsRowPadding() {
        // Two rows of two pixels, each row padded to 8 bytes.
        let rows: [UInt8] = [255, 0, 0, 0, 255, 0, 9, 9,
                             0, 0, 255, 10, 20, 30, 9, 9]
        let image = PremultipliedImage(decoded(rows, width: 2, height: 2, alpha: false, stride: 8))
        #expect(image.isOpaque)
        #expect(image.stride == 8)
        #expect(words(image) == [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFF0A_141E])
    }

    @Test func alphaIsPremultipliedWithRounding() {
        let pixels: [UInt8] = [255, 255, 255, 128, 200, 100, 0, 0, 10, 20, 30, 255]
        let image = PremultipliedImage(decoded(pixels, width: 3, height: 1, alpha: true, stride: 12))
        #expect(!image.isOpaque)
        #expect(words(image) == [0x8080_8080, 0x0000_0000, 0xFF0A_141E])
    }
}
