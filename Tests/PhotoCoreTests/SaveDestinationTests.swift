import PhotoCore
import Testing

/// Which folder a launch without a folder opens, and where a save goes.
@Suite struct PicturesFolderTests {
    @Test func xdgsFolderFirstThenPicturesInTheHomeFolder() {
        #expect(PicturesFolder.candidates(configured: "/home/me/Bilder", home: "/home/me") == ["/home/me/Bilder", "/home/me/Pictures"])
        #expect(PicturesFolder.candidates(configured: "/data/photos/", home: "/home/me/") == ["/data/photos", "/home/me/Pictures"])
    }

    @Test func withoutXDGsFolderPicturesInTheHomeFolder() {
        #expect(PicturesFolder.candidates(configured: nil, home: "/home/me") == ["/home/me/Pictures"])
        #expect(PicturesFolder.candidates(configured: nil, home: "/") == ["/Pictures"])
    }

    @Test func xdgsFolderSetToTheHomeFolderIsTurnedOff() {
        // xdg-user-dirs: a directory pointed at the home folder is disabled; walking all of
        // the home folder is never what a launch without a folder means.
        #expect(PicturesFolder.candidates(configured: "/home/me", home: "/home/me") == ["/home/me/Pictures"])
        #expect(PicturesFolder.candidates(configured: "/home/me/", home: "/home/me") == ["/home/me/Pictures"])
    }

    @Test func aRelativeOrRepeatedFolderIsListedOnce() {
        #expect(PicturesFolder.candidates(configured: "Pictures", home: "/home/me") == ["/home/me/Pictures"])
        #expect(PicturesFolder.candidates(configured: "/home/me/Pictures/", home: "/home/me") == ["/home/me/Pictures"])
    }

    @Test func candidatesAsFileURIs() {
        #expect(PicturesFolder.candidateURIs(configured: "/home/me/My Photos", home: "/home/me")
            == ["file:///home/me/My%20Photos", "file:///home/me/Pictures"])
    }

    @Test func savingGoesToTheFirstFolderThereIsElseMakesXDGs() {
        let both = { (_: String) in true }
        #expect(PicturesFolder.forSaving(configured: "/home/me/Bilder", home: "/home/me", isFolder: both) == "/home/me/Bilder")
        #expect(PicturesFolder.forSaving(configured: "/home/me/Bilder", home: "/home/me", isFolder: { $0 == "/home/me/Pictures" })
            == "/home/me/Pictures")
        #expect(PicturesFolder.forSaving(configured: "/home/me/Bilder", home: "/home/me", isFolder: { _ in false }) == "/home/me/Bilder")
        #expect(PicturesFolder.forSaving(configured: nil, home: "/home/me", isFolder: { _ in false }) == "/home/me/Pictures")
    }
}

@Suite struct SaveDestinationTests {
    private let pictures = "file:///home/me/Pictures"

    @Test func aPhotoOnDiskIsSavedBesideItself() {
        let original = "file:///home/me/Trip/IMG%201.jpg"
        #expect(SaveDestination.board(original: original, pictures: pictures) == .beside(original))
        let remote = "sftp://host/photos/a.png"
        #expect(SaveDestination.board(original: remote, pictures: pictures) == .beside(remote))
    }

    @Test func aBlankBoardIsADrawingInPictures() {
        #expect(SaveDestination.board(original: nil, pictures: pictures) == .drawing(inFolder: pictures))
    }

    @Test func aWebPhotoIsSavedInPicturesUnderItsAddresssName() {
        #expect(SaveDestination.board(original: "https://example.org/album/IMG%201.jpg?size=large", pictures: pictures)
            == .beside("file:///home/me/Pictures/IMG%201.jpg"))
        #expect(SaveDestination.board(original: "http://example.org/a/b/%E4%BA%AC%E9%83%BD.jpg", pictures: pictures + "/")
            == .beside("file:///home/me/Pictures/%E4%BA%AC%E9%83%BD.jpg"))
    }

    @Test func aWebAddressNeverNamesAFileOutsidePictures() {
        for address in ["https://example.org/", "https://example.org", "https://example.org/..", "https://example.org/a/%2E%2E",
                        "https://example.org/a/..%2F..%2Fetc", "https://example.org/a/%252e%252e"] {
            guard case .beside(let uri) = SaveDestination.board(original: address, pictures: pictures) else {
                Issue.record("\(address) is not saved beside a file")
                continue
            }
            let name = String(uri.dropFirst(pictures.count + 1))
            #expect(uri.hasPrefix(pictures + "/") && !name.contains("/") && name != ".." && name != "." && !name.isEmpty, "\(address) → \(uri)")
        }
        #expect(SaveDestination.fileName(ofAddress: "https://example.org/a/%2E%2E") == "photo")
        #expect(SaveDestination.fileName(ofAddress: "https://example.org/") == "photo")
        for address in ["https://example.org/a%00b%0A.jpg", "https://example.org/a%2500b%250A.jpg", "https://example.org/x%252Fy.jpg"] {
            let name = SaveDestination.fileName(ofAddress: address)
            #expect(!name.contains("/") && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(address) → \(name)")
        }
        #expect(SaveDestination.fileName(ofAddress: "https://example.org/x%252Fy.jpg") == "x_y.jpg")
    }

    @Test func saveACopySuggestsTheFilesNameOrTheAddresssLastPart() {
        #expect(SaveDestination.copyName(id: "file:///p/IMG_1.jpg", displayName: "IMG_1.jpg") == "IMG_1.jpg")
        #expect(SaveDestination.copyName(id: "https://example.org/photos/IMG%202.jpg", displayName: "Sunset over the bay") == "IMG 2.jpg")
    }

    @Test func takenNamesAreNumberedBeforeTheExtension() {
        func names(_ name: String, _ count: Int) -> [String] {
            SaveDestination.numberedNames(Array(name.utf8)).prefix(count).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(names("IMG_1.jpg", 3) == ["IMG_1.jpg", "IMG_1 (2).jpg", "IMG_1 (3).jpg"])
        #expect(names("archive.tar.gz", 2) == ["archive.tar.gz", "archive.tar (2).gz"])
        #expect(names(".hidden", 2) == [".hidden", ".hidden (2)"])
        #expect(names("README", 2) == ["README", "README (2)"])
        #expect(SaveDestination.numberedNames(Array("a.jpg".utf8)).count == SaveDestination.nameLimit)
    }

    @Test func namesThatAreNotUTF8KeepTheirBytes() {
        let name: [UInt8] = [0x66, 0xFF, 0x2E, 0x6A, 0x70, 0x67]  // "f\xFF.jpg"
        #expect(SaveDestination.numbered(name, 2) == [0x66, 0xFF] + Array(" (2)".utf8) + [0x2E, 0x6A, 0x70, 0x67])
        #expect(SaveDestination.numbered(name, 1) == name)
    }
}
