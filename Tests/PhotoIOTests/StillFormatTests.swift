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
        // A camera's TIFF-based RAW: a Make and SubIFDs (where the raw data lies) in its first
        // directory, whatever its name.
        let camera: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 2, 0,
                               0x0F, 0x01, 2, 0, 4, 0, 0, 0, 0x4B, 0x44, 0x43, 0,
                               0x4A, 0x01, 4, 0, 1, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0]
        #expect(StillFormat.sniff(camera, name: "a.kdc") == .raw)
        #expect(StillFormat.sniff(camera, name: "a.tif") == .raw)
        // A plain TIFF: little-endian, one directory of one tag (ImageWidth).
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x00, 0x01, 3, 0, 1, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]
        #expect(StillFormat.sniff(tiff, name: "a.tif") == .pixbuf)
        #expect(StillFormat.sniff(tiff, name: "a.dng") == .raw)
        // DNGVersion in the first directory: a DNG whatever its name.
        var dng = tiff
        dng[10] = 0x12; dng[11] = 0xC6
        #expect(StillFormat.sniff(dng, name: "a.tif") == .raw)
    }

    @Test func aCmykJpegGoesToItsOwnDecoderOnlyWithACmykProfile() throws {
        func jpeg(components: UInt8, profile: String?) -> [UInt8] {
            var bytes: [UInt8] = [0xFF, 0xD8]
            if let profile {
                let icc = [UInt8](repeating: 0, count: 16) + Array(profile.utf8) + [UInt8](repeating: 0, count: 108)
                let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + icc
                bytes += [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
            }
            bytes += [0xFF, 0xEE, 0, 14] + Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 2]
            bytes += [0xFF, 0xC0, 0, 8 + 3 * components, 8, 0, 16, 0, 16, components] + [UInt8](repeating: 1, count: 3 * Int(components))
            return bytes + [0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
        }
        func wants(_ bytes: [UInt8]) throws -> Bool {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cmyk-\(UUID().uuidString).jpg")
            try Data(bytes).write(to: path)
            defer { try? FileManager.default.removeItem(at: path) }
            let fd = open(path.path, O_RDONLY)
            defer { close(fd) }
            return CmykJpegDecoder.wants(descriptor: fd)
        }
        #expect(try wants(jpeg(components: 4, profile: "CMYK")))
        #expect(try !wants(jpeg(components: 4, profile: nil)))
        #expect(try !wants(jpeg(components: 3, profile: "RGB ")))
        #expect(try !wants(jpeg(components: 3, profile: "CMYK")))
        #expect(try !wants([0x89] + Array("PNG".utf8)))
    }

    @Test func aBareJpegXLCodestreamAndHeifBrands() {
        #expect(StillFormat.sniff([0xFF, 0x0A, 0, 0], name: nil) == .jxl)
        let ftyp = { (brand: String) -> [UInt8] in [0, 0, 0, 24] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0] }
        #expect(StillFormat.sniff(ftyp("heic"), name: nil) == .heif)
        #expect(StillFormat.sniff(ftyp("avif"), name: nil) == .heif)
        #expect(StillFormat.sniff(ftyp("crx "), name: nil) == .raw)
        #expect(StillFormat.sniff(ftyp("isom"), name: "a.heic") == .video)
        let heifInIsom: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        #expect(StillFormat.sniff(heifInIsom, name: nil) == .heif)
    }

    @Test func toneMapKeepsSDRAndRollsHighlightsOff() {
        #expect(ColourProfile.toneMap(0.5) == 0.5)
        #expect(ColourProfile.toneMap(1) < 1 && ColourProfile.toneMap(1) > 0.9)
        #expect(ColourProfile.toneMap(50) <= 1)
        #expect(abs(ColourProfile.pqNits(1) - 10_000) < 1)
        #expect(abs(ColourProfile.pqNits(0.58) - 203) < 5)
    }
}
