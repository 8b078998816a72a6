import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// A Live Photo's still and movie read in a real confined decoder process: a JPEG whose EXIF
/// holds Apple's maker note, a QuickTime movie whose metadata holds the same identifier.
@Suite(.serialized) struct LivePhotoIdentifiersTests {
    private let folder = TempFolder()
    private let identifier = "FFCBAC24-E547-4BBC-AF47-38B1A3D845E3"

    private static func decoder() -> IsolatedDecoder {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        return IsolatedDecoder(settings: settings)
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    private static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }
    private static func box(_ type: String, _ content: [UInt8]) -> [UInt8] { be32(8 + content.count) + Array(type.utf8) + content }

    /// A JPEG's first bytes with an EXIF block: IFD0 → EXIF IFD → Apple's maker note.
    private func still(_ identifier: String) -> [UInt8] {
        let text = Array(identifier.utf8) + [0]
        var note = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8) + Self.be16(1)
        note += Self.be16(0x0011) + Self.be16(2) + Self.be32(text.count) + Self.be32(14 + 2 + 12 + 4) + Self.be32(0) + text
        var tiff = Array("MM".utf8) + Self.be16(42) + Self.be32(8)
        tiff += Self.be16(1) + Self.be16(0x8769) + Self.be16(4) + Self.be32(1) + Self.be32(26) + Self.be32(0)
        tiff += Self.be16(1) + Self.be16(0x927C) + Self.be16(7) + Self.be32(note.count) + Self.be32(44) + Self.be32(0) + note
        let payload = JPEGExif.header + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1] + Self.be16(payload.count + 2) + payload + [0xFF, 0xDA, 0, 2, 1, 2, 0xFF, 0xD9]
    }

    private func movie(_ identifier: String?) -> [UInt8] {
        let key = LivePhotoIdentifier.movieKey
        var meta: [UInt8] = []
        if let identifier {
            let keys = Self.box("keys", Self.be32(0) + Self.be32(1) + Self.be32(8 + key.utf8.count) + Array("mdta".utf8) + Array(key.utf8))
            let data = Self.box("data", Self.be32(1) + Self.be32(0) + Array(identifier.utf8))
            meta = Self.box("meta", Self.box("hdlr", [UInt8](repeating: 0, count: 8) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12))
                            + keys + Self.box("ilst", Self.be32(8 + data.count) + Self.be32(1) + data))
        }
        return Self.box("ftyp", Array("qt  ".utf8) + Self.be32(0) + Array("qt  ".utf8)) + Self.box("mdat", [UInt8](repeating: 1, count: 64))
            + Self.box("moov", Self.box("mvhd", [UInt8](repeating: 0, count: 100)) + meta)
    }

    private func write(_ name: String, _ bytes: [UInt8]) -> String {
        FileManager.default.createFile(atPath: folder.path(name), contents: Data(bytes))
        return folder.uri(name)
    }

    @Test func aStillAndItsMovieGiveTheSameIdentifierAndOtherFilesNone() {
        let uris = [write("IMG_0001.JPG", still(identifier)), write("renamed.MOV", movie(identifier.lowercased())),
                    write("plain.MOV", movie(nil)), write("other.JPG", still("not one")), folder.uri("photo.png")]
        folder.image("photo.png", width: 4, height: 4)
        let read = Self.decoder().liveIdentifiers(uris: uris, cancellation: CancellationFlag())
        #expect(read == [identifier, identifier, nil, nil, nil])
    }

    @Test func aCancelledReadingReadsNothing() {
        let flag = CancellationFlag()
        flag.cancel()
        #expect(Self.decoder().liveIdentifiers(uris: [write("a.JPG", still(identifier))], cancellation: flag) == [nil])
    }
}
