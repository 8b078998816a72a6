import Testing
@testable import PhotoCore

@Suite("Thumbnail PNG chunks")
struct ThumbnailPNGTests {
    private func chunk(_ type: String, _ data: [UInt8] = []) -> [UInt8] {
        let length = UInt32(data.count)
        // The CRC is left zero: the chunks are only walked here, never decoded.
        return [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
            + Array(type.utf8) + data + [0, 0, 0, 0]
    }

    private func header(width: Int, height: Int) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
    }

    private func text(_ key: String, _ value: String) -> [UInt8] { chunk("tEXt", Array(key.utf8) + [0] + Array(value.utf8)) }

    @Test func textBeforeTheImageDataIsLeftWhereItIs() throws {
        let bytes = ThumbnailPNG.signature + header(width: 128, height: 96) + text("Thumb::URI", "file:///a.jpg")
            + chunk("IDAT", [1, 2, 3]) + chunk("IEND")
        let (size, arranged) = try ThumbnailPNG.arranged(bytes).get()
        #expect(size == PixelSize(width: 128, height: 96))
        #expect(arranged == bytes)
    }

    @Test func textAfterTheImageDataComesBeforeIt() throws {
        let uri = text("Thumb::URI", "file:///a.jpg"), mtime = text("Thumb::MTime", "5")
        let bytes = ThumbnailPNG.signature + header(width: 4, height: 4) + chunk("gAMA", [0, 0, 0, 1]) + chunk("IDAT", [1])
            + uri + chunk("IDAT", [2]) + mtime + chunk("IEND")
        let arranged = try ThumbnailPNG.arranged(bytes).get().bytes
        #expect(arranged == ThumbnailPNG.signature + header(width: 4, height: 4) + chunk("gAMA", [0, 0, 0, 1]) + uri + mtime
            + chunk("IDAT", [1]) + chunk("IDAT", [2]) + chunk("IEND"))
    }

    @Test func onlyAWholePlausibleThumbnailIsAccepted() {
        let whole = ThumbnailPNG.signature + header(width: 4, height: 4) + chunk("IDAT", [1]) + chunk("IEND")
        #expect((try? ThumbnailPNG.arranged(whole).get()) != nil)
        let refused: [String: [UInt8]] = [
            "empty": [],
            "not a PNG": Array("GIF89a".utf8) + whole.dropFirst(6),
            "cut off": Array(whole.dropLast(5)),
            "cut after the data": ThumbnailPNG.signature + header(width: 4, height: 4) + chunk("IDAT", [1]),
            "bytes after the end": whole + [0],
            "no header first": ThumbnailPNG.signature + chunk("IDAT", [1]) + header(width: 4, height: 4) + chunk("IEND"),
            "no image data": ThumbnailPNG.signature + header(width: 4, height: 4) + chunk("IEND"),
            "too wide": ThumbnailPNG.signature + header(width: 4097, height: 4) + chunk("IDAT", [1]) + chunk("IEND"),
            "no pixels": ThumbnailPNG.signature + header(width: 0, height: 4) + chunk("IDAT", [1]) + chunk("IEND"),
            "a chunk past the end": ThumbnailPNG.signature + header(width: 4, height: 4) + [0xFF, 0xFF, 0xFF, 0xF0] + Array("IDAT".utf8)
                + [UInt8](repeating: 0, count: 20) + chunk("IEND"),
        ]
        for (name, bytes) in refused {
            #expect(throws: ThumbnailPNG.Refusal.self, "\(name)") { try ThumbnailPNG.arranged(bytes).get() }
        }
    }
}
