import Foundation
import PhotoCore

/// What the Favourites album needs of the window it is in, beyond what it shows: the search
/// shown applied again, and the switcher brought up to date.
@MainActor
protocol FavouritesShown: ShownPages {
    /// Filters the album shown by `search` (`PhotoFiltering`).
    func filter(by search: PhotoSearch)
    /// Shows the folder's albums in the switcher (and leaves an album that went).
    func updateAlbums()
}

/// The Favourites album (`AlbumID.favourites`): every favourite below the folder opened, in
/// the switcher after the folder's albums while there is one. Its page holds the folder's
/// photos filtered by the favourites known (`ShownMarks`); the photos' sidecars are read once
/// the folder is listed, so that the favourites set in an earlier visit, or by another app,
/// are there before their photos are shown. `trace favourites COUNT MS` when their number
/// changes. It needs the window's search bar and what the window shows.
@MainActor
final class FavouritesPage {
    private let searchBar: PhotoSearchBar
    private weak var pages: (any FavouritesShown)?

    init(searchBar: PhotoSearchBar, pages: any FavouritesShown) {
        self.searchBar = searchBar
        self.pages = pages
    }

    /// Follows the marks read and written while the window lives.
    func install() {
        ShownMarks.shared.listen(self) { [weak self] uri, marks in self?.marksChanged(uri, marks) }
    }

    /// The folder is listed: its photos' sidecars are read for their marks, on the marks
    /// worker; the favourites known now are the page's at once.
    func readSidecarMarks() {
        guard let folder = pages?.folder, !folder.source.isWeb else { return }
        let tree = folder.source.tree
        let favourites = FavouritesAlbum.favourites(among: ShownMarks.shared.knownFavourites) { tree.photo(id: $0) != nil }
        if !favourites.isEmpty {
            folder.favourites.formUnion(favourites)
            changedSoon(in: folder)
        }
        ShownMarks.shared.readSidecars(in: tree)
    }

    private func marksChanged(_ uri: String, _ marks: PhotoMarks) {
        guard let folder = pages?.folder, folder.favourites.contains(uri) != marks.favourite, folder.source.tree.photo(id: uri) != nil else { return }
        if marks.favourite { folder.favourites.insert(uri) } else { folder.favourites.remove(uri) }
        changedSoon(in: folder)
    }

    /// The page and the switcher follow, once however many marks came meanwhile.
    private func changedSoon(in folder: OpenFolder) {
        guard !folder.favouritesPending else { return }
        folder.favouritesPending = true
        _ = after(milliseconds: 100) { [weak self, weak folder] in
            guard let self, let folder, folder === self.pages?.folder else { return }
            folder.favouritesPending = false
            self.show(folder)
        }
    }

    private func show(_ folder: OpenFolder) {
        guard let pages else { return }
        if let page = folder.pages.first(where: { $0.album == .favourites }) {
            if page === folder.page, searchBar.isOpen, !searchBar.search.isEmpty {
                pages.filter(by: searchBar.search)
            } else {
                page.contents.setFilter(folder.favouritesFilter)
            }
        }
        pages.updateAlbums()
        Trace.milestone("favourites", folder.favourites.count)
    }
}

extension OpenFolder {
    /// The switcher's Favourites line, while a photo of the folder is one.
    var favouritesSummary: AlbumSummary? {
        let tree = source.tree
        return FavouritesAlbum.summary(favourites: favourites) { tree.photo(id: $0) }
    }

    /// What the Favourites page shows when nothing is searched.
    var favouritesFilter: (Photo) -> Bool {
        let favourites = self.favourites
        return { favourites.contains($0.id) }
    }
}
