import Foundation
import PhotoCore
import Testing

/// A web album's list as it crosses back from a decoder process: what is encoded decodes to
/// the same list, limits cut rather than break, and bytes that are not a list are refused.
@Suite struct WebPhotoListTests {
    private let list = WebPhotoList(
        title: "Kyoto",
        photos: [WebPhotoEntry(url: "https://example.org/a.jpg", thumbnail: "https://example.org/t/a.jpg", title: "Gate",
                               taken: 1_714_525_200_000_000),
                 WebPhotoEntry(url: "https://example.org/b.jpg")],
        albums: [WebPhotoAlbum(title: "Day 1", photos: [WebPhotoEntry(url: "http://example.org/c%20d.jpg", title: "京都")])],
        isTruncated: false, skipped: 2)

    private func decode(_ bytes: [UInt8]) throws(WebPhotoList.Malformed) -> WebPhotoList {
        var result: Result<WebPhotoList, WebPhotoList.Malformed> = .failure(.init(reason: "not run"))
        bytes.withUnsafeBytes { memory in
            do throws(WebPhotoList.Malformed) { result = .success(try WebPhotoList(decoding: memory)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    @Test func aListDecodesToItself() throws {
        #expect(try decode(list.encoded()) == list)
        #expect(list.photoCount == 3)
        let bare = WebPhotoList(photos: [WebPhotoEntry(url: "https://example.org/x.png")])
        #expect(try decode(bare.encoded()) == bare)
    }

    @Test func photosPastTheLimitAreLeftOutAndTheListSaysSo() throws {
        let many = (0..<(WebPhotoList.maxPhotos + 10)).map { WebPhotoEntry(url: "https://example.org/\($0).jpg") }
        let read = try decode(WebPhotoList(photos: Array(many.prefix(100)), albums: [WebPhotoAlbum(title: "All", photos: many)]).encoded())
        #expect(read.photoCount == WebPhotoList.maxPhotos)
        #expect(read.albums[0].photos.count == WebPhotoList.maxPhotos - 100)
        #expect(read.isTruncated)
    }

    @Test func anAddressTooLongIsSkippedAndATitleTooLongIsCut() throws {
        let long = "https://example.org/" + String(repeating: "a", count: WebPhotoList.maxAddressBytes)
        let title = String(repeating: "京", count: WebPhotoList.maxTitleBytes)
        let read = try decode(WebPhotoList(title: title, photos: [WebPhotoEntry(url: long), WebPhotoEntry(url: "https://example.org/k.jpg")]).encoded())
        #expect(read.photos.map(\.url) == ["https://example.org/k.jpg"])
        #expect(read.skipped == 1)
        #expect(read.title.map { $0.utf8.count <= WebPhotoList.maxTitleBytes && $0.allSatisfy { $0 == "京" } } == true)
    }

    @Test func bytesThatAreNoListAreRefused() throws {
        let good = list.encoded()
        #expect(throws: WebPhotoList.Malformed.self) { try decode([]) }
        #expect(throws: WebPhotoList.Malformed.self) { try decode(Array("GPBM".utf8) + good.dropFirst(4)) }
        #expect(throws: WebPhotoList.Malformed.self) { try decode(good + [0]) }
        for cut in [5, 10, good.count / 2, good.count - 1] {
            #expect(throws: WebPhotoList.Malformed.self) { try decode(Array(good.prefix(cut))) }
        }
        // An address that is not on the web: a file of this computer.
        let local = String(decoding: good, as: UTF8.self).contains("https://example.org/b.jpg")
        #expect(local)
        var bytes = good
        let at = bytes.firstRange(of: Array("https://example.org/b.jpg".utf8))!
        bytes.replaceSubrange(at, with: Array("file:///etc/passwd.jpg123".utf8))
        #expect(throws: WebPhotoList.Malformed.self) { try decode(bytes) }
        // A count far past what follows.
        var counted = WebPhotoList(photos: [WebPhotoEntry(url: "https://e.org/a")]).encoded()
        let header = 4 + 1 + 1 + 4 + 1
        counted.replaceSubrange(header..<header + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: WebPhotoList.Malformed.self) { try decode(counted) }
    }

    @Test func unsafeCharactersInAddressesAreEscaped() {
        #expect(WebAddress.escapingUnsafeCharacters("my photo.jpg") == "my%20photo.jpg")
        #expect(WebAddress.escapingUnsafeCharacters("京.jpg?a=1#x") == "%E4%BA%AC.jpg?a=1#x")
        #expect(WebAddress.escapingUnsafeCharacters("a%20b.jpg") == "a%20b.jpg")
        #expect(WebAddress.isWebAddress("HTTPS://example.org") && !WebAddress.isWebAddress("ftp://example.org"))
    }

    /// The fuzzer's seeds: a list, and the request and reply that carry one.
    @Test func theFuzzSeedsAreWhatTheyAreNamed() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../fuzz/corpus/decoder-messages")
        let list = try [UInt8](Data(contentsOf: seeds.appendingPathComponent("web-list.bin")))
        #expect(try decode(list) == self.list)
        let request = try DecoderRequest(DecoderMessage(decoding: [UInt8](Data(contentsOf: seeds.appendingPathComponent("request-web-list.bin")))))
        #expect(request.operation == .webList && request.baseURL == "https://example.org/kyoto.json")
        let reply = try DecoderReply(DecoderMessage(decoding: [UInt8](Data(contentsOf: seeds.appendingPathComponent("reply-web-list.bin")))))
        #expect(reply.outcome == .webList(byteCount: list.count))
    }
}
