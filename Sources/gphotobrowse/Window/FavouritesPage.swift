import Foundation
import PhotoCore

/// The Favourites album (`AlbumID.favourites`): every favourite below the folder opened, in
/// the switcher after the folder's albums while there is one. Its page holds the folder's
/// photos filtered by the favourites known (`ShownMarks`); the photos' sidecars are read once
/// the folder is listed, so that the favourites set in an earlier visit, or by another app,
/// are there before their photos are shown. `trace favourites COUNT MS` when their number
/// changes.
extension BrowserWindow {
    func installFavourites() {
        ShownMarks.shared.listen(header) { [weak self] uri, marks in self?.marksChanged(uri, marks) }
    }

    /// The switcher's Favourites line, while a photo of the folder is one.
    var favouritesSummary: AlbumSummary? {
        guard let folder else { return nil }
        let tree = folder.source.tree
        return FavouritesAlbum.summary(favourites: folder.favourites) { tree.photo(id: $0) }
    }

    /// What the Favourites page shows when nothing is searched.
    var favouritesFilter: (Photo) -> Bool {
        let favourites = folder?.favourites ?? []
        return { favourites.contains($0.id) }
    }

    /// The folder is listed: its photos' sidecars are read for their marks.
    func readSidecarMarks() {
        guard let folder, !folder.source.isWeb else { return }
        let known = ShownMarks.shared.known
        let favourites = folder.source.tree.photos(in: .allPhotos).map(\.id).filter { known[$0]?.favourite == true }
        if !favourites.isEmpty {
            folder.favourites.formUnion(favourites)
            favouritesChangedSoon()
        }
        ShownMarks.shared.readSidecars(of: folder.source.tree.photos(in: .allPhotos))
    }

    private func marksChanged(_ uri: String, _ marks: PhotoMarks) {
        guard let folder, folder.favourites.contains(uri) != marks.favourite, folder.source.tree.photo(id: uri) != nil else { return }
        if marks.favourite { folder.favourites.insert(uri) } else { folder.favourites.remove(uri) }
        favouritesChangedSoon()
    }

    /// The page and the switcher follow, once however many marks came meanwhile.
    private func favouritesChangedSoon() {
        guard let folder, !folder.favouritesPending else { return }
        folder.favouritesPending = true
        _ = after(milliseconds: 100) { [weak self, weak folder] in
            guard let self, let folder, folder === self.folder else { return }
            folder.favouritesPending = false
            self.showFavourites()
        }
    }

    private func showFavourites() {
        guard let folder else { return }
        if let page = folder.pages.first(where: { $0.album == .favourites }) {
            if page === folder.page, searchBar.isOpen, !searchBar.search.isEmpty {
                filter(by: searchBar.search)
            } else {
                page.contents.setFilter(favouritesFilter)
            }
        }
        updateAlbums()
        Trace.milestone("favourites", folder.favourites.count)
    }
}
