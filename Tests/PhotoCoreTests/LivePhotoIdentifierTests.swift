import Testing
@testable import PhotoCore

/// Bytes laid out as Apple writes them: an EXIF block whose maker note is Apple's, and a
/// QuickTime movie whose metadata holds the content identifier.
enum AppleLayout {
    static func u16(_ value: Int, big: Bool) -> [UInt8] {
        big ? [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    static func u32(_ value: Int, big: Bool = true) -> [UInt8] {
        let b = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return big ? b : b.reversed()
    }

    /// An Apple maker note holding `identifier` as tag 0x0011 (and a number before it).
    static func makerNote(_ identifier: String, big: Bool = true) -> [UInt8] {
        let text = Array(identifier.utf8) + [0]
        var note = Array("Apple iOS".utf8) + [0] + [0, 1] + (big ? Array("MM".utf8) : Array("II".utf8))
        let directory = 14, entries = 2
        let dataAt = directory + 2 + entries * 12 + 4
        note += u16(entries, big: big)
        note += u16(0x0001, big: big) + u16(9, big: big) + u32(1, big: big) + u32(14, big: big)
        note += u16(0x0011, big: big) + u16(2, big: big) + u32(text.count, big: big) + u32(dataAt, big: big)
        note += u32(0, big: big)
        return note + text
    }

    /// A TIFF structure (IFD0 → EXIF IFD → maker note).
    static func tiff(makerNote note: [UInt8], big: Bool = true) -> [UInt8] {
        var tiff = (big ? Array("MM".utf8) : Array("II".utf8)) + u16(42, big: big) + u32(8, big: big)
        // IFD0 at 8: one entry, the EXIF IFD's offset.
        let exifIFD = 8 + 2 + 12 + 4
        tiff += u16(1, big: big) + u16(0x8769, big: big) + u16(4, big: big) + u32(1, big: big) + u32(exifIFD, big: big) + u32(0, big: big)
        let noteAt = exifIFD + 2 + 12 + 4
        tiff += u16(1, big: big) + u16(0x927C, big: big) + u16(7, big: big) + u32(note.count, big: big) + u32(noteAt, big: big) + u32(0, big: big)
        return tiff + note
    }

    static func box(_ type: String, _ content: [UInt8]) -> [UInt8] { u32(8 + content.count) + Array(type.utf8) + content }

    /// A movie: ftyp, mdat, then moov with a meta box (QuickTime's, or ISO's with a version).
    static func movie(keys: [String], values: [String], isoMeta: Bool = false) -> [UInt8] {
        var keysContent = u32(0) + u32(keys.count)
        for key in keys { keysContent += u32(8 + key.utf8.count) + Array("mdta".utf8) + Array(key.utf8) }
        var list: [UInt8] = []
        for (n, value) in values.enumerated() {
            let data = box("data", u32(1) + u32(0) + Array(value.utf8))
            list += u32(8 + data.count) + u32(n + 1) + data
        }
        let hdlr = box("hdlr", u32(0) + u32(0) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12))
        let metaContent = (isoMeta ? u32(0) : []) + hdlr + box("keys", keysContent) + box("ilst", list)
        let moov = box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)) + box("meta", metaContent))
        return box("ftyp", Array("qt  ".utf8) + u32(0) + Array("qt  ".utf8)) + box("mdat", [UInt8](repeating: 7, count: 300)) + moov
    }

    static func read(_ bytes: [UInt8]) -> (Int64, Int) -> [UInt8] {
        { offset, count in
            guard offset >= 0, offset < Int64(bytes.count) else { return [] }
            return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
        }
    }
}

@Suite struct LivePhotoIdentifierTests {
    let identifier = "ffcbac24-e547-4bbc-af47-38b1a3d845e3"

    @Test func theStillsMakerNoteInEitherByteOrder() {
        for big in [true, false] {
            let tiff = AppleLayout.tiff(makerNote: AppleLayout.makerNote(identifier, big: big), big: big)
            #expect(LivePhotoIdentifier.fromTIFF(tiff) == identifier.uppercased(), "big-endian \(big)")
        }
    }

    @Test func anotherMakersNoteOrNoneHasNone() {
        var note = AppleLayout.makerNote(identifier)
        note.replaceSubrange(0..<5, with: Array("Canon".utf8))
        #expect(LivePhotoIdentifier.fromTIFF(AppleLayout.tiff(makerNote: note)) == nil)
        #expect(LivePhotoIdentifier.fromTIFF(Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0]) == nil)
        #expect(LivePhotoIdentifier.fromTIFF([]) == nil)
    }

    @Test func aCutOrLyingStructureIsNoCrash() {
        let tiff = AppleLayout.tiff(makerNote: AppleLayout.makerNote(identifier))
        for cut in stride(from: 0, to: tiff.count, by: 3) {
            #expect(LivePhotoIdentifier.fromTIFF(Array(tiff.prefix(cut))) == nil)
        }
        for at in 0..<tiff.count {
            var lying = tiff
            lying[at] = 0xFF
            _ = LivePhotoIdentifier.fromTIFF(lying)
        }
    }

    @Test func theMoviesMetadataItem() {
        let keys = ["com.apple.quicktime.make", LivePhotoIdentifier.movieKey, "com.apple.quicktime.model"]
        for iso in [false, true] {
            let movie = AppleLayout.movie(keys: keys, values: ["Apple", identifier, "iPhone 12"], isoMeta: iso)
            #expect(LivePhotoIdentifier.fromMovie(size: Int64(movie.count), read: AppleLayout.read(movie)) == identifier.uppercased(), "ISO meta \(iso)")
        }
    }

    @Test func aMovieWithoutTheItemHasNone() {
        let movie = AppleLayout.movie(keys: ["com.apple.quicktime.make"], values: ["Apple"])
        #expect(LivePhotoIdentifier.fromMovie(size: Int64(movie.count), read: AppleLayout.read(movie)) == nil)
        let cut = Array(movie.prefix(movie.count - 20))
        let full = AppleLayout.movie(keys: [LivePhotoIdentifier.movieKey], values: [identifier])
        for length in stride(from: 0, to: full.count, by: 7) {
            let part = Array(full.prefix(length))
            #expect(LivePhotoIdentifier.fromMovie(size: Int64(part.count), read: AppleLayout.read(part)) == nil)
        }
        #expect(LivePhotoIdentifier.fromMovie(size: Int64(cut.count), read: AppleLayout.read(cut)) == nil)
    }

    @Test func onlyWhatLooksLikeAnIdentifierIsTaken() {
        #expect(LivePhotoIdentifier.normalized("abc") == nil)
        #expect(LivePhotoIdentifier.normalized("AAAA-1111\0\0") == "AAAA-1111")
        #expect(LivePhotoIdentifier.normalized("AAAA 1111") == nil)
        #expect(LivePhotoIdentifier.normalized("AAAA-1111\u{202E}") == nil)
        #expect(LivePhotoIdentifier.normalized(String(repeating: "A", count: 49)) == nil)
    }

    @Test func aReplyCarriesThemAndRefusesOthers() throws {
        let reply = DecoderReply(id: 7, outcome: .liveIdentifiers(["AAAA-1111", nil, "BBBB-2222"]))
        #expect(try DecoderReply(reply.message) == reply)
        let many = DecoderReply(id: 8, outcome: .liveIdentifiers(Array(repeating: identifier.uppercased(), count: 64)))
        #expect(try DecoderReply(many.message) == many)
        for operation in [DecoderRequest.Operation.liveIdentifiers, .motionMovie] {
            #expect(try DecoderRequest(DecoderRequest(id: 9, operation: operation).message).operation == operation)
        }
        for movie in [EmbeddedMovie(offset: 100, length: 2000), nil] {
            let reply = DecoderReply(id: 10, outcome: .motionMovie(movie))
            #expect(try DecoderReply(reply.message) == reply)
        }
    }
}
