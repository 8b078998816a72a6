import PhotoCore
import Testing

/// Marker-level JPEG streams, built here segment by segment.
private enum JPEG {
    static let start: [UInt8] = [0xFF, 0xD8]
    static let end: [UInt8] = [0xFF, 0xD9]

    static func segment(_ code: UInt8, _ body: [UInt8]) -> [UInt8] {
        let length = body.count + 2
        return [0xFF, code, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    /// An EXIF segment holding a thumbnail, a whole JPEG with its own EOI.
    static let exif = segment(0xE1, Array("Exif".utf8) + [0, 0] + start + [1, 2, 3] + end)
    static let tables = segment(0xDB, [0] + [UInt8](repeating: 1, count: 64)) + segment(0xC4, [0x00] + [UInt8](repeating: 0, count: 16))
    static let frame = segment(0xC0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0])
    static let scan = segment(0xDA, [1, 1, 0x00, 0, 63, 0])
    /// Entropy-coded bytes with a stuffed 0xFF, a restart marker and fill bytes, as real scans have.
    static let data: [UInt8] = [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD0, 0x78, 0x9A, 0xFF, 0x00, 0xD9]

    static let whole = start + exif + tables + frame + scan + data + [0xFF, 0xFF] + end
}

@Suite struct JPEGEndWatchTests {
    private func watch(_ bytes: [UInt8], chunk: Int = .max) -> JPEGEndWatch {
        var watch = JPEGEndWatch()
        var i = 0
        while i < bytes.count {
            let next = min(bytes.count, i + min(chunk, bytes.count - i))
            watch.scan(Array(bytes[i..<next]))
            i = next
        }
        return watch
    }

    @Test func aWholeJPEGReachesItsEnd() {
        for chunk in [1, 2, 3, 7, 64, .max] {
            let watched = watch(JPEG.whole, chunk: chunk)
            #expect(watched.reachedEnd, "in chunks of \(chunk)")
            #expect(!watched.endMissing, "in chunks of \(chunk)")
        }
    }

    @Test func aJPEGCutAnywhereInOrAfterItsScanMissesItsEnd() {
        let scanEnd = JPEG.whole.count - JPEG.data.count - 4  // the scan header's end
        for cut in scanEnd..<(JPEG.whole.count - 1) {
            #expect(watch(Array(JPEG.whole.prefix(cut))).endMissing, "cut after \(cut) bytes")
        }
    }

    @Test func theThumbnailsEndInsideEXIFIsNotTheImagesEnd() {
        let cut = JPEG.start + JPEG.exif + JPEG.tables + JPEG.frame + JPEG.scan + [0x12, 0x34]
        #expect(watch(cut).endMissing)
    }

    @Test func aProgressiveJPEGEndsAfterItsLastScan() {
        let second = JPEG.segment(0xC4, [0x10] + [UInt8](repeating: 0, count: 16)) + JPEG.segment(0xDA, [1, 1, 0x00, 1, 63, 0])
        let file = JPEG.start + JPEG.tables + JPEG.segment(0xC2, [8, 0, 16, 0, 16, 1, 1, 0x11, 0]) + JPEG.scan + JPEG.data + second + JPEG.data
        #expect(watch(file).endMissing, "cut after the second scan's data")
        #expect(!watch(file + JPEG.end).endMissing)
        #expect(watch(file + JPEG.end).reachedEnd)
    }

    @Test func bytesAfterTheEndChangeNothing() {
        #expect(!watch(JPEG.whole + [0x00, 0xFF, 0xD8, 0xFF]).endMissing)
    }

    @Test func whatIsNoJPEGOrHasNoScanSaysNothing() {
        #expect(!watch(Array("\u{89}PNG\r\n\u{1A}\n".utf8)).endMissing)
        #expect(!watch(JPEG.start + JPEG.exif + JPEG.tables).endMissing)
        #expect(!watch([]).endMissing)
    }
}
