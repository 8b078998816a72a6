@testable import PhotoCore
import Testing

@MainActor @Suite struct AlbumContentsFilterTests {
    func photo(_ name: String) -> Photo {
        Photo(id: "file:///p/" + name, displayName: name, modified: 1, size: 1, contentType: "image/jpeg")
    }

    @Test func aFilterHidesPhotosAndClearingItShowsThemAgain() {
        let album = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        album.insert(["a.jpg", "b.jpg", "c.jpg", "ab.jpg"].map(photo))
        var splices = 0
        album.observeChanges { _ in splices += 1 }
        album.setFilter { $0.displayName.hasPrefix("a") }
        #expect(album.photos.all.map(\.displayName) == ["a.jpg", "ab.jpg"])
        #expect(album.unfilteredCount == 4)
        // Photos found while filtered go where the filter says.
        album.insert(["ax.jpg", "d.jpg"].map(photo))
        #expect(album.photos.all.map(\.displayName) == ["a.jpg", "ab.jpg", "ax.jpg"])
        album.remove([photo("d.jpg").id])
        album.setFilter(nil)
        #expect(album.photos.all.map(\.displayName) == ["a.jpg", "ab.jpg", "ax.jpg", "b.jpg", "c.jpg"])
        #expect(splices >= 3)
    }
}
