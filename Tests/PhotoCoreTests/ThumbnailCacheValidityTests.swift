import Testing
@testable import PhotoCore

@Suite("Thumbnail validity")
struct ThumbnailCacheValidityTests {
    let uri = "file:///photos/a.jpg"

    /// Attributes as a PNG reader would hand them over.
    func attributes(_ text: [String: String]) -> ThumbnailAttributes {
        ThumbnailAttributes { text[$0] }
    }

    @Test func sameURIAndModificationTimeIsValid() {
        let thumbnail = attributes(["Thumb::URI": uri, "Thumb::MTime": "1700000000"])
        #expect(thumbnail.isValid(forURI: uri, modified: 1_700_000_000))
        #expect(thumbnail.isValid(forURI: uri, modified: 1_700_000_000, fileSize: 1234))  // no size recorded: not checked
    }

    @Test func anotherModificationTimeIsStale() {
        let thumbnail = attributes(["Thumb::URI": uri, "Thumb::MTime": "1700000000"])
        #expect(!thumbnail.isValid(forURI: uri, modified: 1_700_000_001))
        #expect(!thumbnail.isValid(forURI: uri, modified: 1_699_999_999))
    }

    @Test func anotherURIIsNotThisFile() {
        let thumbnail = attributes(["Thumb::URI": uri, "Thumb::MTime": "5"])
        #expect(!thumbnail.isValid(forURI: "file:///photos/b.jpg", modified: 5))
        #expect(!thumbnail.isValid(forURI: "file:///photos/A.jpg", modified: 5))
        #expect(!thumbnail.isValid(forURI: "file:///photos/a%2Ejpg", modified: 5))  // compared as written
    }

    @Test func recordedSizeMustMatch() {
        let thumbnail = attributes(["Thumb::URI": uri, "Thumb::MTime": "5", "Thumb::Size": "1234"])
        #expect(thumbnail.isValid(forURI: uri, modified: 5, fileSize: 1234))
        #expect(!thumbnail.isValid(forURI: uri, modified: 5, fileSize: 1235))
        #expect(thumbnail.isValid(forURI: uri, modified: 5))  // the file's size unknown: not checked
    }

    @Test(arguments: [
        [:],
        ["Thumb::URI": "file:///photos/a.jpg"],
        ["Thumb::MTime": "5"],
        ["Thumb::URI": "file:///photos/a.jpg", "Thumb::MTime": ""],
        ["Thumb::URI": "file:///photos/a.jpg", "Thumb::MTime": "5.0"],
        ["Thumb::URI": "file:///photos/a.jpg", "Thumb::MTime": " 5"],
        ["Thumb::URI": "file:///photos/a.jpg", "Thumb::MTime": "5s"],
        ["Thumb::URI": "file:///photos/a.jpg", "Thumb::MTime": "99999999999999999999999"],
        ["Thumb::URI": "file:///photos/a.jpg", "Thumb::MTime": "5", "Thumb::Size": "big"],
    ])
    func missingOrMalformedKeysAreInvalid(text: [String: String]) {
        #expect(!attributes(text).isValid(forURI: uri, modified: 5, fileSize: 10))
    }

    @Test func entriesRoundTrip() {
        var written = ThumbnailAttributes(uri: uri, modified: 1_700_000_000, fileSize: 4096,
                                          imageSize: PixelSize(width: 4000, height: 3000),
                                          software: ThumbnailAttributes.thisSoftware, mimeType: "image/jpeg")
        written.failureReason = "The image is damaged"
        written.failureKind = "corrupt"
        let text = Dictionary(uniqueKeysWithValues: written.entries.map { ($0.key, $0.value) })
        #expect(text["Thumb::URI"] == uri)
        #expect(text["Thumb::MTime"] == "1700000000")
        #expect(text["Thumb::Size"] == "4096")
        #expect(text["Thumb::Image::Width"] == "4000")
        #expect(text["Thumb::Image::Height"] == "3000")
        #expect(text["Software"] == "gphotobrowse 0.1.0")
        #expect(attributes(text) == written)
    }
}
