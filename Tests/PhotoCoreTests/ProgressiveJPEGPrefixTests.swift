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

    static let app0 = segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let tables = segment(0xDB, [0] + [UInt8](repeating: 1, count: 64)) + segment(0xC4, [0x00] + [UInt8](repeating: 0, count: 16))

    /// A frame header: SOF2 (progressive) unless told, 3000×2000, components 1, 2, 3.
    static func frame(_ code: UInt8 = 0xC2, width: Int = 3000, height: Int = 2000, components: [UInt8] = [1, 2, 3]) -> [UInt8] {
        var body: [UInt8] = [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), UInt8(components.count)]
        for id in components { body += [id, 0x11, 0] }
        return segment(code, body)
    }

    /// A scan header for `components`, spectral selection `start`…`end`, approximation `high`/`low`.
    static func scan(_ components: [UInt8], start: UInt8 = 0, end: UInt8 = 0, high: UInt8 = 0, low: UInt8 = 1) -> [UInt8] {
        var body: [UInt8] = [UInt8(components.count)]
        for id in components { body += [id, 0x00] }
        return segment(0xDA, body + [start, end, high << 4 | low])
    }

    /// Entropy-coded bytes with a stuffed 0xFF and a restart marker in them, as real scans have.
    static let data: [UInt8] = [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD0, 0x78, 0x9A]
}

@Suite struct ProgressiveJPEGPrefixTests {
    private func find(_ bytes: [UInt8], chunk: Int = .max) -> (ProgressiveJPEGPrefix.Finding, ProgressiveJPEGPrefix) {
        var prefix = ProgressiveJPEGPrefix()
        var finding = ProgressiveJPEGPrefix.Finding.needMore
        var i = 0
        while i < bytes.count, finding == .needMore {
            let next = min(bytes.count, i + min(chunk, bytes.count - i))
            finding = prefix.scan(Array(bytes[i..<next]))
            i = next
        }
        return (finding, prefix)
    }

    @Test func endsWhereTheMarkerAfterAnInterleavedDCScanStarts() {
        let head = JPEG.start + JPEG.app0 + JPEG.tables + JPEG.frame() + JPEG.scan([1, 2, 3]) + JPEG.data
        let rest = JPEG.segment(0xC4, [0x10] + [UInt8](repeating: 0, count: 16)) + JPEG.scan([1], start: 1, end: 5, low: 2) + JPEG.data + JPEG.end
        let (finding, prefix) = find(head + rest)
        #expect(finding == .end(at: head.count))
        #expect(prefix.size == PixelSize(width: 3000, height: 2000))
    }

    @Test func theAnswerDoesNotDependOnHowTheBytesAreCut() {
        let long = [UInt8](repeating: 0x5A, count: 1000) + [0xFF, 0x00] + [UInt8](repeating: 0xA5, count: 300)
        // An EXIF segment holding a thumbnail's markers, which are its own, not the image's.
        let thumbnail: [UInt8] = JPEG.start + JPEG.frame(0xC0) + JPEG.end
        let exifBody: [UInt8] = Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0x11, count: 2000) + thumbnail + [UInt8](repeating: 0x22, count: 999)
        let exif = JPEG.segment(0xE1, exifBody)
        let head = JPEG.start + exif + JPEG.app0 + JPEG.tables + JPEG.frame() + JPEG.scan([1, 2, 3]) + JPEG.data + long
        let file = head + JPEG.scan([1], start: 1, end: 63) + JPEG.data + JPEG.end
        for chunk in [1, 2, 3, 7, 64, 700, 2048] {
            #expect(find(file, chunk: chunk).0 == .end(at: head.count), "in chunks of \(chunk)")
        }
    }

    @Test func waitsForTheDCScanOfEveryComponent() {
        // One DC scan per component (non-interleaved), as some encoders write them.
        let head = JPEG.start + JPEG.tables + JPEG.frame() + JPEG.scan([1]) + JPEG.data + JPEG.scan([2]) + JPEG.data
            + JPEG.scan([3]) + JPEG.data
        let (finding, _) = find(head + JPEG.scan([1], start: 1, end: 63) + JPEG.data + JPEG.end)
        #expect(finding == .end(at: head.count))
        #expect(find(head).0 == .needMore)
    }

    @Test func anACScanBeforeEveryComponentHasItsDCMeansTheWholeFile() {
        let file = JPEG.start + JPEG.frame() + JPEG.scan([1]) + JPEG.data + JPEG.scan([1], start: 1, end: 5) + JPEG.data + JPEG.end
        #expect(find(file).0 == .notApplicable)
    }

    @Test func aDCRefinementFirstIsNotAFirstDCScan() {
        let file = JPEG.start + JPEG.frame() + JPEG.scan([1, 2, 3], high: 1, low: 0) + JPEG.data + JPEG.end
        #expect(find(file).0 == .notApplicable)
    }

    @Test func baselineAndArithmeticJPEGsAreDecodedWhole() {
        for code: UInt8 in [0xC0, 0xC1, 0xCA] {
            let file = JPEG.start + JPEG.frame(code) + JPEG.scan([1, 2, 3]) + JPEG.data + JPEG.end
            #expect(find(file).0 == .notApplicable, "SOF \(code)")
        }
    }

    @Test func anImageThatEndsWithItsDCScanNeedsNothingCut() {
        let file = JPEG.start + JPEG.frame() + JPEG.scan([1, 2, 3]) + JPEG.data + JPEG.end
        // The scan ends at EOI: cutting there and adding an EOI gives the same file.
        #expect(find(file).0 == .end(at: file.count - 2))
        #expect(find(JPEG.start + JPEG.frame() + JPEG.end).0 == .notApplicable)
    }

    @Test func bytesThatAreNotAJPEGAreLeftAlone() {
        #expect(find(Array("not a photo".utf8)).0 == .notApplicable)
        #expect(find(JPEG.start + [0x00, 0x01]).0 == .notApplicable)                       // garbage between markers
        #expect(find(JPEG.start + [0xFF, 0xDB, 0x00, 0x01]).0 == .notApplicable)           // a length below 2
        #expect(find(JPEG.start + JPEG.scan([1, 2, 3]) + JPEG.data + JPEG.end).0 == .notApplicable)  // a scan before the frame
        #expect(find(JPEG.start + JPEG.segment(0xC2, [8, 0, 1])).0 == .notApplicable)       // a frame header cut short
        #expect(find([]).0 == .needMore)
    }

    @Test func fillBytesBeforeMarkersAreSkipped() {
        let head = JPEG.start + [0xFF, 0xFF] + JPEG.frame() + JPEG.scan([1, 2, 3]) + JPEG.data
        #expect(find(head + [0xFF, 0xFF] + JPEG.scan([1], start: 1, end: 63) + JPEG.end).0 == .end(at: head.count))
    }

    @Test func oneEighthIsWhenAnEighthStillCoversTheBox() {
        let box = PixelSize(width: 256, height: 256)
        #expect(ProgressiveJPEGPrefix.decodesAtOneEighth(PixelSize(width: 5640, height: 3172), fitting: box))
        #expect(ProgressiveJPEGPrefix.decodesAtOneEighth(PixelSize(width: 2048, height: 1536), fitting: box))
        #expect(!ProgressiveJPEGPrefix.decodesAtOneEighth(PixelSize(width: 2040, height: 1530), fitting: box))
        #expect(!ProgressiveJPEGPrefix.decodesAtOneEighth(PixelSize(width: 5640, height: 3172), fitting: PixelSize(width: 1280, height: 1024)))
        #expect(!ProgressiveJPEGPrefix.decodesAtOneEighth(PixelSize(width: 200, height: 100), fitting: box))  // not shrunk at all
    }
}
