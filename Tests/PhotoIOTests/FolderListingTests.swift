import Foundation
import PhotoCore
import PhotoIO
import Testing

/// Runs a listing to the end and keeps everything it reports.
private struct Listed {
    var batches: [[Photo]] = []
    var skipped: [SkippedEntry] = []
    var result: Result<Int, FolderError>

    init(_ uri: String, interval: Double = 0.1, before: (FolderListing) -> Void = { _ in }) {
        let listing = FolderListing(uri: uri)
        before(listing)
        var batches: [[Photo]] = []
        var skipped: [SkippedEntry] = []
        result = listing.run(interval: interval, deliver: { batches.append($0) }, skip: { skipped.append($0) })
        self.batches = batches
        self.skipped = skipped
    }

    var photos: [Photo] { batches.flatMap { $0 } }
    var names: Set<String> { Set(photos.map(\.displayName)) }
}

@Suite struct FolderListingTests {
    private let folder = TempFolder()

    @Test func listsImagesByNameOrContentAndReportsWhatItSkips() throws {
        folder.image("a.png", width: 8, height: 8)
        folder.image("b.jpg", width: 8, height: 8, type: "jpeg")
        folder.file("notes.txt", text: "not a photo\n")
        folder.file("noext", bytes: folder.bytes("a.png"))
        folder.file("mystery", text: "also not a photo, and no extension to say so\n")
        folder.folder("subfolder")
        folder.fifo("x.jpg")
        folder.symlink("dangling.jpg", to: "nowhere.jpg")
        folder.symlink("loop.jpg", to: "loop.jpg")

        let listed = Listed(folder.uri)
        #expect(try listed.result.get() == 3)
        #expect(listed.photos.count == 3)
        #expect(listed.names == ["a.png", "b.jpg", "noext"])

        let reasons = Dictionary(listed.skipped.map { ($0.name, $0.reason) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(reasons.keys) == ["x.jpg", "dangling.jpg", "loop.jpg"])
        #expect(reasons.values.allSatisfy { !$0.isEmpty })

        let noext = try #require(listed.photos.first { $0.displayName == "noext" })
        #expect(noext.contentType == "image/png")
        #expect(noext.id == folder.uri("noext"))
        let a = try #require(listed.photos.first { $0.displayName == "a.png" })
        #expect(a.size == Int64(folder.bytes("a.png").count))
        #expect(a.modified > 0)
    }

    @Test func aFolderAppearingIsSearchedAsAWalkWouldSearchIt() throws {
        folder.folder("Trip")
        folder.folder(".cache")
        folder.symlink("Elsewhere", to: folder.path("Trip"))
        folder.image("a.png", width: 8, height: 8)
        let flag = CancellationFlag()
        #expect(FolderListing.changedEntry(at: folder.uri("Trip"), cancellation: flag) == .folder(name: "Trip"))
        #expect(FolderListing.changedEntry(at: folder.uri(".cache"), cancellation: flag) == .nothing)
        #expect(FolderListing.changedEntry(at: folder.uri("Elsewhere"), cancellation: flag) == .nothing)
        guard case .photo(let photo) = FolderListing.changedEntry(at: folder.uri("a.png"), cancellation: flag) else {
            Issue.record("a.png is not a photo")
            return
        }
        #expect(photo.displayName == "a.png")
        // A mount point (another file system than the folder it is in): not searched, as
        // the walk does not cross into one.
        #expect(FolderListing.changedEntry(at: "file:///proc", cancellation: flag) == .nothing)

        // Read again, the folder names the same ones to search.
        let contents = try #require(FolderContents.read(folder.uri, cancellation: flag))
        let folders = Dictionary(uniqueKeysWithValues: contents.folders.map { ($0.name, $0.isWalked) })
        #expect(folders == ["Trip": true, "Elsewhere": false])
    }

    @Test func missingFolderFailsSayingItDoesNotExist() throws {
        let listed = Listed(folder.uri("not-here"))
        guard case .failure(let error) = listed.result else { Issue.record("listing a missing folder succeeded"); return }
        #expect(error.message.contains("does not exist"))
        #expect(listed.batches.isEmpty)
    }

    @Test func fileFailsSayingItIsNotAFolder() throws {
        folder.file("plain.txt", text: "hello")
        guard case .failure(let error) = Listed(folder.uri("plain.txt")).result else {
            Issue.record("listing a file succeeded"); return
        }
        #expect(error.message.contains("is not a folder"))
    }

    @Test func thousandFilesAllArriveAcrossBatches() throws {
        folder.image("seed.png", width: 4, height: 4)
        let png = folder.bytes("seed.png")
        try FileManager.default.removeItem(atPath: folder.path("seed.png"))
        for i in 0..<1000 { folder.file(String(format: "img_%04d.png", i), bytes: png) }

        let listed = Listed(folder.uri, interval: 0)
        #expect(try listed.result.get() == 1000)
        #expect(listed.batches.map(\.count).reduce(0, +) == 1000)
        #expect(listed.batches.count > 1)
        #expect(!listed.batches.contains { $0.isEmpty })
        #expect(Set(listed.photos.map(\.id)).count == 1000)
        #expect(listed.skipped.isEmpty)
    }

    @Test func nonUTF8NameIsListedAndDecodableByItsURI() throws {
        folder.image("seed.png", width: 30, height: 20)
        let raw = Array(folder.path("seed.png").utf8.dropLast("seed.png".utf8.count)) + [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x70, 0x6E, 0x67, 0]  // "caf\xE9.png"
        let renamed = raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { rename(folder.path("seed.png"), $0.baseAddress!) }
        }
        try #require(renamed == 0)

        let listed = Listed(folder.uri)
        let photo = try #require(listed.photos.first)
        #expect(listed.photos.count == 1)
        #expect(photo.id.hasSuffix("/caf%E9.png"))
        #expect(!photo.displayName.isEmpty)

        let image = try PixbufDecoder().decode(DecodeRequest(uri: photo.id, fitting: PixelSize(width: 100, height: 100)), cancellation: CancellationFlag()).get()
        #expect(image.size == PixelSize(width: 30, height: 20))
    }

    @Test func cancelledListingDeliversNothing() {
        folder.image("a.png", width: 4, height: 4)
        let listed = Listed(folder.uri) { $0.cancel() }
        #expect(listed.batches.isEmpty)
    }
}
