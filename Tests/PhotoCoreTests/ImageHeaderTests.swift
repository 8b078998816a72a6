import PhotoCore
import Testing

@Suite struct ImageHeaderTests {
    @Test func readsTheCanvasSizeAGifDeclares() {
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x73, 0xE5, 0x33, 0x65, 0xF1, 0, 0]
        #expect(ImageHeader.read(gif) == ImageHeader(format: "gif", size: PixelSize(width: 58739, height: 25907)))
    }

    @Test func readsAPngsHeader() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0]
        #expect(ImageHeader.read(png)?.size == PixelSize(width: 20000, height: 20000))
    }

    @Test func readsBottomUpAndTopDownBmps() {
        var bmp = [UInt8](repeating: 0, count: 30)
        bmp[0] = 0x42; bmp[1] = 0x4D; bmp[14] = 40
        bmp[18] = 0x80; bmp[19] = 0x02  // 640
        bmp[22] = 0xE0; bmp[23] = 0x01  // 480
        #expect(ImageHeader.read(bmp)?.size == PixelSize(width: 640, height: 480))
        bmp[22] = 0x20; bmp[23] = 0xFE; bmp[24] = 0xFF; bmp[25] = 0xFF  // -480: top-down
        #expect(ImageHeader.read(bmp)?.size == PixelSize(width: 640, height: 480))
    }

    @Test func readsTheFirstTiffImage() {
        // Little-endian TIFF, IFD at 8 with two entries: width 3000 (LONG), height 2000 (SHORT).
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 2, 0]
        tiff += [0x00, 0x01, 4, 0, 1, 0, 0, 0, 0xB8, 0x0B, 0, 0]
        tiff += [0x01, 0x01, 3, 0, 1, 0, 0, 0, 0xD0, 0x07, 0, 0]
        #expect(ImageHeader.read(tiff) == ImageHeader(format: "tiff", size: PixelSize(width: 3000, height: 2000)))
    }

    @Test func leavesOtherFormatsAndShortInputAlone() {
        #expect(ImageHeader.read([0xFF, 0xD8, 0xFF, 0xE0]) == nil)
        #expect(ImageHeader.read(Array("GIF8".utf8)) == nil)
        #expect(ImageHeader.read([]) == nil)
        #expect(ImageHeader.read([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F]) == nil)
    }
}
