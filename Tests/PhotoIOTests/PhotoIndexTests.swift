import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

@Suite struct PhotoIndexTests {
    let folder = TempFolder()
    var index: PhotoIndex { PhotoIndex(cacheHome: folder.path) }

    func file(_ name: String, size: Int64 = 100, modified: Int64 = 5) -> PhotoIndex.FileState {
        PhotoIndex.FileState(uri: "file:///photos/Kyoto/" + name, size: size, modified: modified)
    }

    @Test func marksAndFactsComeBackWhileTheFileAndSidecarsAreTheSame() {
        let a = file("a.jpg"), b = file("b.jpg")
        let marks = PhotoMarks(favourite: true, rating: 4, tags: ["harbour", "night"])
        index.record([.marks(marks, file: a, sidecarStamp: 7), .facts(.init(camera: "Canon EOS R5", taken: 42), file: a),
                      .facts(.init(camera: "", taken: nil), file: b)])
        // Another instance (the next run) reads what the first wrote.
        let known = PhotoIndex(cacheHome: folder.path).known([a, b, file("c.jpg")]) { _ in 7 }
        #expect(known[a.uri] == PhotoIndex.Known(marks: marks, facts: .init(camera: "Canon EOS R5", taken: 42)))
        #expect(known[b.uri] == PhotoIndex.Known(marks: nil, facts: .init(camera: "", taken: nil)))
        #expect(known["file:///photos/Kyoto/c.jpg"] == nil)
        // A sidecar changed: the marks are read again, the camera still holds.
        #expect(index.known([a]) { _ in 8 }[a.uri] == PhotoIndex.Known(marks: nil, facts: .init(camera: "Canon EOS R5", taken: 42)))
        // The file changed: nothing holds.
        #expect(index.known([file("a.jpg", size: 101)]) { _ in 7 }.isEmpty)
        #expect(index.known([file("a.jpg", modified: 6)]) { _ in 7 }.isEmpty)
    }

    @Test func aChangedFileKeepsOnlyWhatWasReadOfItSince() {
        let index = self.index
        index.record([.marks(PhotoMarks(favourite: true, rating: 2, tags: []), file: file("a.jpg"), sidecarStamp: 0),
                      .facts(.init(camera: "Old", taken: 1), file: file("a.jpg"))])
        let changed = file("a.jpg", size: 200)
        index.record([.facts(.init(camera: "New", taken: 2), file: changed)])
        #expect(index.known([changed]) { _ in 0 }[changed.uri] == PhotoIndex.Known(marks: nil, facts: .init(camera: "New", taken: 2)))
        index.record([.removed(changed.uri)])
        #expect(index.count == 0)
    }

    @Test func placeNamesAreKept() {
        let index = self.index
        let places = PlaceNames(location: "Gion", city: "Kyōto", country: "Japan")
        let a = file("a.jpg"), b = file("b.jpg")
        index.record([.marks(PhotoMarks(rating: 2, places: places), file: a, sidecarStamp: 7),
                      .marks(PhotoMarks(tags: ["Kyoto trip"]), file: b, sidecarStamp: 0)])
        #expect(index.known([a]) { _ in 7 }[a.uri]?.marks?.places == places)
        #expect(index.known([b]) { _ in 0 }[b.uri]?.marks == PhotoMarks(tags: ["Kyoto trip"]))
    }

    @Test func aDatabaseNotOursOrOfAnotherVersionIsMadeAgain() throws {
        try FileManager.default.createDirectory(atPath: folder.path("gphotobrowse"), withIntermediateDirectories: true)
        folder.file("gphotobrowse/index-v1.sqlite", text: String(repeating: "not a database ", count: 400))
        let a = file("a.jpg")
        index.record([.facts(.init(camera: "X", taken: nil), file: a)])
        #expect(index.known([a]) { _ in 0 }[a.uri]?.facts?.camera == "X")

        // Another version's: its rows are not read, and it is made again.
        let path = index.path
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
        let again = PhotoIndex(cacheHome: folder.path)
        #expect(again.known([a]) { _ in 0 }.isEmpty)
        #expect(again.count == 0)
        again.record([.facts(.init(camera: "Y", taken: nil), file: a)])
        #expect(PhotoIndex(cacheHome: folder.path).known([a]) { _ in 0 }[a.uri]?.facts?.camera == "Y")
    }
}
