import Foundation
import Testing
@testable import PhotoIO

/// Which decoder reads a file, from its first bytes: the test files of tests/data/formats and
/// made-up heads.
@Suite struct StillFormatTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../tests/data/formats")

    func head(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.data.appendingPathComponent(name)).prefix(4096))
    }

    @Test func realFilesGoToTheirDecodersWhateverTheirNames() throws {
        #expect(StillFormat.sniff(try head("iphone-13-pro-max.heic"), name: "x.jpg") == .heif)
        #expect(StillFormat.sniff(try head("abc_color_irot_alpha_irot.avif"), name: nil) == .heif)
        #expect(StillFormat.sniff(try head("halves-jpeg-reconstruction.jxl"), name: "x.png") == .jxl)
        #expect(StillFormat.sniff(try head("fujifilm-s5pro-rotated.raf"), name: nil) == .raw)
        #expect(StillFormat.sniff(try head("canon-unreadable.cr2"), name: nil) == .raw)
        #expect(StillFormat.sniff(try head("display-p3-flat.jpg"), name: "x.heic") == .pixbuf)
    }

    @Test func aTiffRawIsToldFromATiffPhotoByItsDirectoryOrItsName() throws {
        // The Kodak DC50's KDC is a TIFF with a thumbnail in its first directory.
        let kdc = try head("kodak-dc50.kdc")
        #expect(StillFormat.sniff(kdc, name: "a.kdc") == .raw)
        // A plain TIFF: little-endian, one directory of one tag (ImageWidth).
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x00, 0x01, 3, 0, 1, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]
        #expect(StillFormat.sniff(tiff, name: "a.tif") == .pixbuf)
        #expect(StillFormat.sniff(tiff, name: "a.dng") == .raw)
        // DNGVersion in the first directory: a DNG whatever its name.
        var dng = tiff
        dng[10] = 0x12; dng[11] = 0xC6
        #expect(StillFormat.sniff(dng, name: "a.tif") == .raw)
    }

    @Test func aBareJpegXLCodestreamAndHeifBrands() {
        #expect(StillFormat.sniff([0xFF, 0x0A, 0, 0], name: nil) == .jxl)
        let ftyp = { (brand: String) -> [UInt8] in [0, 0, 0, 24] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0] }
        #expect(StillFormat.sniff(ftyp("heic"), name: nil) == .heif)
        #expect(StillFormat.sniff(ftyp("avif"), name: nil) == .heif)
        #expect(StillFormat.sniff(ftyp("crx "), name: nil) == .raw)
        #expect(StillFormat.sniff(ftyp("isom"), name: "a.heic") == .pixbuf)
    }

    @Test func toneMapKeepsSDRAndRollsHighlightsOff() {
        #expect(ColourProfile.toneMap(0.5) == 0.5)
        #expect(ColourProfile.toneMap(1) < 1 && ColourProfile.toneMap(1) > 0.9)
        #expect(ColourProfile.toneMap(50) <= 1)
        #expect(abs(ColourProfile.pqNits(1) - 10_000) < 1)
        #expect(abs(ColourProfile.pqNits(0.58) - 203) < 5)
    }
}
