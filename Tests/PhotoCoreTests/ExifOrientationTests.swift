import Testing
@testable import PhotoCore

@Suite struct ExifOrientationTests {
    private func o(_ value: Int) -> ExifOrientation { ExifOrientation(value)! }

    @Test func onlyTheEightValuesExist() {
        #expect(ExifOrientation(0) == nil)
        #expect(ExifOrientation(9) == nil)
        #expect((1...8).allSatisfy { ExifOrientation($0) != nil })
    }

    @Test func turningAnUprightPhotoClockwise() {
        #expect(o(1).rotated(by: 1) == o(6))
        #expect(o(1).rotated(by: 2) == o(3))
        #expect(o(1).rotated(by: 3) == o(8))
        #expect(o(1).rotated(by: -1) == o(8))
        #expect(o(1).rotated(by: 4) == o(1))
    }

    @Test func turnsAddToTheOrientationAlreadyThere() {
        #expect(o(6).rotated(by: 1) == o(3))
        #expect(o(8).rotated(by: 1) == o(1))
        #expect(o(3).rotated(by: -1) == o(6))
        #expect(o(6).rotated(by: -1) == o(1))
    }

    @Test func aMirroredPhotoStaysMirrored() {
        // 2: mirrored; a quarter turn clockwise of it is 7 (transverse), of 5 (transpose) is 2.
        #expect(o(2).rotated(by: 1) == o(7))
        #expect(o(7).rotated(by: 1) == o(4))
        #expect(o(4).rotated(by: 1) == o(5))
        #expect(o(5).rotated(by: 1) == o(2))
        #expect((1...8).allSatisfy { o($0).rotated(by: 1).isMirrored == o($0).isMirrored })
    }

    @Test(arguments: 1...8, -5...5)
    func turningBackUndoes(_ value: Int, _ turns: Int) {
        #expect(o(value).rotated(by: turns).rotated(by: -turns) == o(value))
    }
}

@Suite struct PhotoNameTests {
    @Test func refusedNames() {
        #expect(PhotoName.problem(with: "") == .empty)
        #expect(PhotoName.problem(with: "   ") == .empty)
        #expect(PhotoName.problem(with: "a/b.jpg") == .containsSlash)
        #expect(PhotoName.problem(with: "/") == .containsSlash)
        #expect(PhotoName.problem(with: ".") == .reserved)
        #expect(PhotoName.problem(with: "..") == .reserved)
        #expect(PhotoName.problem(with: String(repeating: "é", count: 128)) == .tooLong)
    }

    @Test func acceptedNames() {
        for name in ["IMG_0001.jpg", "Beach, day 2.jpeg", ".hidden.png", "相片 1.jpg", "no extension", String(repeating: "a", count: 255)] {
            #expect(PhotoName.problem(with: name) == nil, "\(name)")
        }
    }

    @Test func theStemBeforeTheExtensionIsSelected() {
        #expect(PhotoName.stemLength(of: "IMG_0001.jpg") == 8)
        #expect(PhotoName.stemLength(of: "archive.tar.jpg") == 11)
        #expect(PhotoName.stemLength(of: "no extension") == 12)
        #expect(PhotoName.stemLength(of: ".hidden") == 7)
        #expect(PhotoName.stemLength(of: ".hidden.png") == 7)
        // GTK counts characters: "相片" is two, not six bytes.
        #expect(PhotoName.stemLength(of: "相片.jpg") == 2)
        #expect(PhotoName.stemLength(of: "") == 0)
    }
}

@Suite struct OrientationEditTests {
    /// A little-endian or big-endian EXIF block whose IFD0 holds a Make tag and, when
    /// `orientation` is given, an orientation SHORT.
    static func block(orientation: Int?, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        var entries: [[UInt8]] = [u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)]
        if let orientation { entries.append(u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]) }
        let tiff = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8) + u16(entries.count) + entries.flatMap { $0 } + u32(0)
        return JPEGExif.header + tiff
    }

    static func jpeg(app0: Bool, exif: [UInt8]?) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        if app0 { bytes += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0] }
        if let exif { bytes += OrientationEdit.app1(exif)! }
        bytes += [0xFF, 0xDB, 0x00, 0x04, 0x01, 0x02]  // a table
        bytes += [0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0x33, 0xFF, 0xD9]  // scan and end
        return bytes
    }

    @Test(arguments: [false, true])
    func orientationIsReadAndSetInPlace(_ bigEndian: Bool) {
        let block = Self.block(orientation: 1, bigEndian: bigEndian)
        #expect(TIFFOrientation.read(block) == ExifOrientation(1))
        let patched = TIFFOrientation.patched(block, to: ExifOrientation(6)!)!
        #expect(TIFFOrientation.read(patched) == ExifOrientation(6))
        #expect(patched.count == block.count)
        #expect(zip(block, patched).filter { $0 != $1 }.count == 1)
    }

    @Test func aBlockWithoutTheTagIsNotPatched() {
        let block = Self.block(orientation: nil, bigEndian: false)
        #expect(TIFFOrientation.read(block) == nil)
        #expect(TIFFOrientation.patched(block, to: .upright) == nil)
        #expect(TIFFOrientation.read(Array(block.prefix(12))) == nil)
    }

    @Test func theSegmentIsFoundOrWhereOneGoes() {
        let exif = Self.block(orientation: 1, bigEndian: false)
        let withExif = Self.jpeg(app0: true, exif: exif)
        #expect(JPEGExif.segment(in: withExif) == 20..<(20 + 4 + exif.count))
        #expect(JPEGExif.segment(in: Self.jpeg(app0: true, exif: nil)) == 20..<20)
        #expect(JPEGExif.segment(in: Self.jpeg(app0: false, exif: nil)) == 2..<2)
        #expect(JPEGExif.segment(in: Array("\u{89}PNG\r\n".utf8)) == nil)
        #expect(JPEGExif.segment(in: Array(withExif.prefix(30))) == nil)
    }

    @Test func splicingChangesTheSegmentOnly() {
        let exif = Self.block(orientation: 1, bigEndian: false)
        let original = Self.jpeg(app0: true, exif: exif)
        let segment = JPEGExif.segment(in: original)!
        let payload = TIFFOrientation.patched(exif, to: ExifOrientation(8)!)!
        let written = OrientationEdit.spliced(original, replacing: segment, withPayload: payload)!
        #expect(JPEGExif.block(in: written).flatMap(TIFFOrientation.read) == ExifOrientation(8))
        #expect(OrientationEdit.onlySegmentDiffers(original: original, written: written, segment: segment, newSegmentLength: payload.count + 4))

        // A segment inserted where there was none.
        let bare = Self.jpeg(app0: false, exif: nil)
        let inserted = OrientationEdit.spliced(bare, replacing: 2..<2, withPayload: payload)!
        #expect(JPEGExif.segment(in: inserted) == 2..<(6 + payload.count))
        #expect(OrientationEdit.onlySegmentDiffers(original: bare, written: inserted, segment: 2..<2, newSegmentLength: payload.count + 4))
    }

    @Test func aChangedByteOutsideTheSegmentIsCaught() {
        let exif = Self.block(orientation: 1, bigEndian: true)
        let original = Self.jpeg(app0: false, exif: exif)
        let segment = JPEGExif.segment(in: original)!
        var written = OrientationEdit.spliced(original, replacing: segment, withPayload: exif)!
        #expect(OrientationEdit.onlySegmentDiffers(original: original, written: written, segment: segment, newSegmentLength: segment.count))
        written[written.count - 3] ^= 1  // in the scan
        #expect(!OrientationEdit.onlySegmentDiffers(original: original, written: written, segment: segment, newSegmentLength: segment.count))
        #expect(!OrientationEdit.onlySegmentDiffers(original: original, written: written.dropLast(), segment: segment, newSegmentLength: segment.count))
        written = OrientationEdit.spliced(original, replacing: segment, withPayload: exif)!
        written[0] = 0
        #expect(!OrientationEdit.onlySegmentDiffers(original: original, written: written, segment: segment, newSegmentLength: segment.count))
    }

    @Test func segmentsTooLargeOrOutsideTheFileAreRefused() {
        #expect(OrientationEdit.app1([UInt8](repeating: 0, count: OrientationEdit.maximumPayload + 1)) == nil)
        #expect(OrientationEdit.spliced([0xFF, 0xD8], replacing: 2..<5, withPayload: [1]) == nil)
        #expect(OrientationEdit.spliced([0xFF, 0xD8], replacing: 0..<1, withPayload: [1]) == nil)
    }
}
