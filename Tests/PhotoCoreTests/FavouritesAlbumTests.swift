@testable import PhotoCore
import Testing

@Suite struct FavouritesAlbumTests {
    func photo(_ name: String, modified: Int64) -> Photo {
        Photo(id: "file:///p/" + name, displayName: name, modified: modified, size: 1, contentType: "image/jpeg")
    }

    @Test func countsTheFavouritesOfTheFolderWithTheNewestAsCover() {
        let photos = [photo("a.jpg", modified: 1), photo("b.jpg", modified: 3), photo("c.jpg", modified: 2)]
        let byID = Dictionary(uniqueKeysWithValues: photos.map { ($0.id, $0) })
        // A favourite elsewhere (another folder's) is not this folder's.
        let favourites: Set<String> = [photos[0].id, photos[2].id, "file:///elsewhere/d.jpg"]
        let summary = FavouritesAlbum.summary(favourites: favourites) { byID[$0] }
        #expect(summary?.id == .favourites)
        #expect(summary?.count == 2)
        #expect(summary?.cover?.displayName == "c.jpg")
        #expect(FavouritesAlbum.summary(favourites: ["file:///elsewhere/d.jpg"]) { byID[$0] } == nil)
    }

    @Test func theAlbumHasAKeyAndTakesEveryFolderPhotoToFilter() {
        #expect(AlbumID(key: AlbumID.favourites.key) == .favourites)
        var tree = FolderTree(rootURI: "file:///p", rootName: "p")
        let sub = TreeFolder(uri: "file:///p/sub", path: ["sub"])
        tree.insert([photo("a.jpg", modified: 1)], in: sub)
        #expect(tree.photos(in: .favourites).count == 1)
        #expect(tree.summary(of: .favourites) == nil)
    }

    @Test func theFavouritesKnownWhenAFolderIsListedAreThoseItHolds() {
        let folder: Set<String> = ["a", "b", "c", "d"]
        #expect(FavouritesAlbum.favourites(among: ["c", "a", "e"], holds: folder.contains) == ["c", "a"])
        #expect(FavouritesAlbum.favourites(among: ["e", "f"], holds: folder.contains).isEmpty)
        #expect(FavouritesAlbum.favourites(among: [], holds: folder.contains).isEmpty)
    }
}
