import Testing
@testable import PhotoCore
@testable import PhotoIO

/// An MP4's first bytes (an ftyp box) and some more.
private let movie: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0] + [UInt8](repeating: 7, count: 40)
private let image: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0, 4, 1, 2] + [UInt8](repeating: 9, count: 100) + [0xFF, 0xD9]

private func withXMP(_ jpeg: [UInt8], _ xmp: String) -> [UInt8] {
    let payload = EmbeddedMarkSegments.xmpHeader + Array(xmp.utf8)
    let length = payload.count + 2
    return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
}

private func googleXMP(length: Int, semantic: String = "MotionPhoto") -> String {
    """
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
      xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
      GCamera:MotionPhoto="1"><Container:Directory><rdf:Seq>
      <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0"/></rdf:li>
      <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="\(semantic)" Item:Length="\(length)"/></rdf:li>
    </rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
    """
}

private func find(_ bytes: [UInt8]) -> EmbeddedMovie? {
    MotionPhotoReader.find(size: Int64(bytes.count)) { offset, count in
        guard offset >= 0, offset < Int64(bytes.count) else { return [] }
        return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
    }
}

private func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
private func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }

@Suite struct MotionPhotoReaderTests {
    @Test func googlesContainerDirectoryNamesTheMovieAtTheEnd() {
        let still = withXMP(image, googleXMP(length: movie.count))
        #expect(find(still + movie) == EmbeddedMovie(offset: Int64(still.count), length: Int64(movie.count)))
    }

    @Test func onlyTheHeaderSegmentsAndTheXMPAreRead() {
        // Five 60 KB segments (a profile's APP2s) before the XMP: 300 KB no walk reads.
        let filler: [UInt8] = (0..<5).flatMap { _ in [0xFF, 0xE2, 0xEA, 0x62] + [UInt8](repeating: 3, count: 60_000) }
        let tagged = withXMP(image, googleXMP(length: movie.count))
        let still = Array(tagged[0..<2]) + filler + Array(tagged[2...])
        let file = still + movie
        var bytesRead = 0
        let found = MotionPhotoReader.find(size: Int64(file.count)) { offset, count in
            guard offset >= 0, offset < Int64(file.count) else { return [] }
            let bytes = Array(file[Int(offset)..<min(file.count, Int(offset) + count)])
            bytesRead += bytes.count
            return bytes
        }
        #expect(found == EmbeddedMovie(offset: Int64(still.count), length: Int64(movie.count)))
        #expect(bytesRead < googleXMP(length: movie.count).utf8.count + 200)
        // An XMP after the image's frame (SOF0) is not looked for.
        let frame: [UInt8] = [0xFF, 0xC0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0]
        let late = Array(image[0..<2]) + frame + withXMP(image, googleXMP(length: movie.count)).dropFirst(2)
        #expect(find(late + movie) == nil)
    }

    @Test func lengthsNoFileHoldsMakeNoMovie() {
        // Items after the movie whose lengths add up past any file's size (or below zero):
        // no movie, and the decoder reading the file goes on.
        for lengths in [["9223372036854775807", "9223372036854775807"], ["-9223372036854775807", "-9223372036854775807"], ["-5", "0"]] {
            let xmp = googleXMP(length: movie.count).replacingOccurrences(of: "</rdf:Seq>", with: lengths.map {
                "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Mime=\"image/jpeg\" Item:Semantic=\"Depth\" Item:Length=\"\($0)\"/></rdf:li>"
            }.joined() + "</rdf:Seq>")
            let still = withXMP(image, xmp)
            #expect(find(still + movie + [UInt8](repeating: 0, count: 64)) == nil)
        }
        let huge = withXMP(image, googleXMP(length: movie.count).replacingOccurrences(of: "Item:Length=\"\(movie.count)\"", with: "Item:Length=\"9223372036854775807\""))
        #expect(find(huge + movie) == nil)
    }

    @Test func olderMicroVideoFilesCountTheMovieFromTheEnd() {
        let xmp = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
          GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\(movie.count)"/></rdf:RDF></x:xmpmeta>
        """
        let still = withXMP(image, xmp)
        #expect(find(still + movie) == EmbeddedMovie(offset: Int64(still.count), length: Int64(movie.count)))
    }

    @Test func samsungsTrailerListsTheMovieRecord() {
        let name = Array("MotionPhoto_Data".utf8)
        let record: [UInt8] = [0, 0, 0x30, 0x0A] + le32(name.count) + name + movie
        let directory = Array("SEFH".utf8) + le32(106) + le32(1) + [0, 0, 0x30, 0x0A] + le32(record.count) + le32(record.count)
        let file = image + record + directory + le32(directory.count) + Array("SEFT".utf8)
        #expect(find(file) == EmbeddedMovie(offset: Int64(image.count + 8 + name.count), length: Int64(movie.count)))
    }

    @Test func aHeicHoldsItsMovieInAnMpvdBox() {
        let ftyp = be32(16) + Array("ftypheic".utf8) + [0, 0, 0, 0]
        let meta = be32(12) + Array("meta".utf8) + [1, 2, 3, 4]
        let mpvd = be32(8 + movie.count) + Array("mpvd".utf8) + movie
        #expect(find(ftyp + meta + mpvd) == EmbeddedMovie(offset: Int64(ftyp.count + meta.count + 8), length: Int64(movie.count)))
    }

    @Test func tagsPointingAtNoMovieAndPlainPhotosHaveNone() {
        // The tags promise a movie; the bytes there are the JPEG's.
        #expect(find(withXMP(image, googleXMP(length: 60))) == nil)
        // A movie appended, but its item is not the motion photo's.
        let still = withXMP(image, googleXMP(length: movie.count, semantic: "GainMap"))
        #expect(find(still + movie) == nil)
        #expect(find(image) == nil)
        #expect(find(image + movie) == nil)
        // Lengths past the file.
        #expect(find(withXMP(image, googleXMP(length: 1 << 40)) + movie) == nil)
    }

    @Test func thumbnailsAndRepliesCarryTheMovie() throws {
        var attributes = ThumbnailAttributes(uri: "file:///a.jpg", modified: 1)
        attributes.motionMovie = EmbeddedMovie(offset: 4000, length: 300)
        let entries = Dictionary(uniqueKeysWithValues: attributes.entries.map { ($0.key, $0.value) })
        #expect(ThumbnailAttributes(text: { entries[$0] }).motionMovie == EmbeddedMovie(offset: 4000, length: 300))
        #expect(EmbeddedMovie(text: "-1 4") == nil)
        #expect(EmbeddedMovie(text: "1") == nil)

        var layout = PixelLayout(frames: [PixelLayout.Frame(offset: 0, size: PixelSize(width: 2, height: 2), stride: 8)],
                                 hasAlpha: false, sourceSize: PixelSize(width: 2, height: 2), format: "jpeg")
        layout.motionMovie = EmbeddedMovie(offset: 10, length: 20)
        let reply = try DecoderReply(DecoderReply(id: 3, outcome: .pixels(layout)).message)
        guard case .pixels(let read) = reply.outcome else { Issue.record("no pixels"); return }
        #expect(read.motionMovie == EmbeddedMovie(offset: 10, length: 20))
    }
}
