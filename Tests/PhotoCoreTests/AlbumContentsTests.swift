import PhotoCore
import Testing

/// A source that records what its albums ask of it.
@MainActor
private final class RecordingSource: AlbumSource {
    var forgotten: [Set<String>] = []
    var refreshed: [[String]] = []
    var datesAsked = 0
    weak var album: AlbumContents?

    func forget(_ ids: Set<String>) {
        forgotten.append(ids)
        album?.remove(ids)
    }
    func refresh(_ uris: [String]) { refreshed.append(uris) }
    func datesNeeded(by album: AlbumContents) { datesAsked += 1 }
}

private func photo(_ name: String, modified: Int64) -> Photo {
    Photo(id: "file:///p/\(name)", displayName: name, modified: modified, size: 1, contentType: "image/jpeg")
}

@MainActor
@Suite struct AlbumContentsTests {
    @Test func photosArriveAsSplicesInDisplayOrder() {
        let album = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        var splices: [PhotoList.Splice] = []
        album.observeChanges { splices.append($0) }
        album.insert([photo("b.jpg", modified: 2), photo("a.jpg", modified: 1)])
        album.insert([photo("c.jpg", modified: 3)])
        #expect(album.photos.count == 3)
        #expect(album.photos[0].displayName == "a.jpg")
        #expect(album.photos[2].displayName == "c.jpg")
        #expect(splices.count == 2)
        album.remove(["file:///p/a.jpg"])
        #expect(album.photos.count == 2)
        #expect(splices.count == 3)
        // Nothing changed: no splice.
        album.remove(["file:///p/none.jpg"])
        #expect(splices.count == 3)
    }

    @Test func deletingGoesThroughTheSourceSoEveryAlbumLosesThePhotos() {
        let source = RecordingSource()
        let album = AlbumContents(id: .folder("file:///p"), order: .byName, source: source)
        source.album = album
        album.insert([photo("a.jpg", modified: 1), photo("b.jpg", modified: 2)])
        album.forget(["file:///p/a.jpg"])
        #expect(source.forgotten == [["file:///p/a.jpg"]])
        #expect(album.photos.count == 1)
        album.refresh(["file:///p/a.jpg"])
        #expect(source.refreshed == [["file:///p/a.jpg"]])
    }

    @Test func withoutASourceDeletingRemovesFromTheAlbumItself() {
        let album = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        album.insert([photo("a.jpg", modified: 1)])
        album.forget(["file:///p/a.jpg"])
        #expect(album.photos.count == 0)
    }

    @Test func datesTakenAreAskedForOnceListedAndSortedByThem() {
        let source = RecordingSource()
        let album = AlbumContents(id: .allPhotos, order: .byName, source: source)
        var listed: [Int] = []
        album.onListed = { result in if case .success(let count) = result { listed.append(count) } }
        album.insert([photo("a.jpg", modified: 1)])
        // Sorting by date before the listing ends waits for it.
        album.sort(by: .newestFirst)
        #expect(source.datesAsked == 0)
        album.listed(.success(1))
        #expect(listed == [1])
        #expect(source.datesAsked == 1)
        // A second end of listing is not announced again.
        album.listed(.success(1))
        #expect(listed == [1])
    }
}
