@testable import PhotoCore
import Testing

@Suite struct SwitcherAlbumsTests {
    func summary(_ id: AlbumID, _ title: String, count: Int = 1) -> AlbumSummary {
        AlbumSummary(id: id, title: title, count: count, cover: nil, newest: nil)
    }

    @Test func aFolderWithSubfoldersListsThemThenFavourites() {
        let subfolders = [summary(.folder("file:///p/a"), "a"), summary(.folder("file:///p/b"), "b")]
        let favourites = summary(.favourites, "Favourites")
        let listed = SwitcherAlbums.folderAlbums(subfolders: subfolders, favourites: favourites, hasOwnAlbums: true,
                                                 allPhotos: summary(.allPhotos, "p", count: 9), folderName: "p")
        #expect(listed.map(\.id) == [.folder("file:///p/a"), .folder("file:///p/b"), .favourites])
    }

    @Test func aFolderWithoutSubfoldersIsListedItselfOnlyWhenThereIsSomewhereElseToGo() {
        let all = summary(.allPhotos, "ignored", count: 7)
        #expect(SwitcherAlbums.folderAlbums(subfolders: [], favourites: nil, hasOwnAlbums: false, allPhotos: all, folderName: "Trip").isEmpty)
        let withOwn = SwitcherAlbums.folderAlbums(subfolders: [], favourites: nil, hasOwnAlbums: true, allPhotos: all, folderName: "Trip")
        #expect(withOwn.map(\.id) == [.allPhotos])
        #expect(withOwn.first?.title == "Trip")
        #expect(withOwn.first?.count == 7)
        let withFavourites = SwitcherAlbums.folderAlbums(subfolders: [], favourites: summary(.favourites, "F"), hasOwnAlbums: false,
                                                         allPhotos: nil, folderName: "Trip")
        #expect(withFavourites.map(\.id) == [.allPhotos, .favourites])
        #expect(withFavourites.first?.count == 0)
    }

    @Test func movingStopsAtEitherEndAndNeedsTheShownAlbumListed() {
        let order: [AlbumID] = [.allPhotos, .favourites, .collection("x")]
        #expect(SwitcherAlbums.album(1, from: .allPhotos, in: order) == .favourites)
        #expect(SwitcherAlbums.album(-1, from: .favourites, in: order) == .allPhotos)
        #expect(SwitcherAlbums.album(1, from: .collection("x"), in: order) == nil)
        #expect(SwitcherAlbums.album(-1, from: .allPhotos, in: order) == nil)
        #expect(SwitcherAlbums.album(1, from: .folder("file:///elsewhere"), in: order) == nil)
        #expect(SwitcherAlbums.album(1, from: .allPhotos, in: [.allPhotos]) == nil)
    }

    @Test func altAndANumberTakesThatPlace() {
        let order: [AlbumID] = [.allPhotos, .favourites]
        #expect(SwitcherAlbums.album(number: 1, in: order) == .allPhotos)
        #expect(SwitcherAlbums.album(number: 2, in: order) == .favourites)
        #expect(SwitcherAlbums.album(number: 3, in: order) == nil)
        #expect(SwitcherAlbums.album(number: 0, in: order) == nil)
    }
}
