import CGtk
import PhotoCore

extension OpenFolder {
    /// The page of an album of the person's own: fed by its own source, which the folder
    /// keeps while the page is kept; its grid shows photos not found as such.
    func makeCollectionPage(_ id: String, order: PhotoOrder) -> AlbumPage {
        let source = CollectionSource(id: id, jobs: jobs)
        let contents = AlbumContents(id: .collection(id), order: order, source: source)
        let page = AlbumPage(album: .collection(id), contents: contents, loader: loader, tileEdge: tileSize.edge,
                             parts: parts, history: history)
        page.grid.isMissing = { [weak source] uri in source?.isMissing(uri) ?? false }
        collectionSources[page.name] = source
        // Fed once the grid mirrors the album.
        source.attach(contents)
        return page
    }
}

extension OpenFolder {
    /// Looks the photos of a page of the person's own album up again when it is shown again:
    /// a file may have been moved or deleted meanwhile.
    func recheck(_ page: AlbumPage) {
        guard case .collection(let id) = page.album, let collection = YourAlbums.shared.collection(id) else { return }
        YourAlbums.shared.lookUp(collection.photos)
    }
}
