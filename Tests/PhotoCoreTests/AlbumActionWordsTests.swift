@testable import PhotoCore
import Testing

/// What a toast says after an action on one of the person's albums, and what adding adds.
@Suite struct AlbumActionWordsTests {
    @Test func addingSaysHowManyPhotosWereNewToTheAlbum() {
        #expect(AlbumActionWords.added(1, to: "Trip") == "Added 1 photo to “\u{2068}Trip\u{2069}”")
        #expect(AlbumActionWords.added(3, to: "Trip") == "Added 3 photos to “\u{2068}Trip\u{2069}”")
        #expect(AlbumActionWords.added(0, to: "Trip") == "The photos are in “\u{2068}Trip\u{2069}” already")
    }

    @Test func removingAndDeletingNameTheAlbum() {
        #expect(AlbumActionWords.removed(1, from: "Trip") == "Removed 1 photo from “\u{2068}Trip\u{2069}”")
        #expect(AlbumActionWords.removed(2, from: "Trip") == "Removed 2 photos from “\u{2068}Trip\u{2069}”")
        #expect(AlbumActionWords.deleted("Trip") == "Deleted the album “\u{2068}Trip\u{2069}”")
    }

    @Test func anAlbumsTitleCannotReorderTheSentence() {
        // A title from a document another program wrote may hold an override and a newline.
        let text = AlbumActionWords.deleted("\u{202E}gpj.exe\nB")
        #expect(text == "Deleted the album “\u{2068}gpj.exe B\u{2069}”")
    }

    @Test func onlyPhotosNotInTheAlbumCountAsAdded() {
        let album = PhotoCollection(id: "a", title: "Trip", photos: ["file:///p/1.jpg", "file:///p/2.jpg"], created: 0, modified: 0)
        #expect(album.countNew(among: ["file:///p/1.jpg", "file:///p/3.jpg", "file:///p/3.jpg"]) == 1)
        #expect(album.countNew(among: ["file:///p/2.jpg"]) == 0)
        #expect(album.countNew(among: []) == 0)
    }
}
