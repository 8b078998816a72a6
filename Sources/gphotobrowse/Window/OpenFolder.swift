import Foundation
import CGtk
import PhotoCore
import PhotoIO

/// Everything that belongs to the folder a window shows: where its photos come from, their
/// thumbnails, what was trashed from it, and a page (grid, viewer, edit mode) for each album
/// shown, the current one first among them.
@MainActor
final class OpenFolder {
    private let live = LiveObjects.Token("OpenFolder")
    /// The folder's name, or a web album's title once its list is read.
    var name: String
    /// Where the folder's photos come from.
    let source: FolderSource
    /// The thumbnails of the cache size the tiles show, shared by the pages' grids and
    /// viewers and the album covers.
    private(set) var loader: ThumbnailLoader
    /// The loader of the cache size shown before, with its thumbnails in memory: going back
    /// to that size decodes nothing again. Older ones go, to keep memory bounded.
    private var previousLoader: ThumbnailLoader?
    /// The tiles' size.
    private(set) var tileSize: TileSize
    /// The display's scale when the folder was opened: device pixels a tile's edge takes.
    private let scale: Int
    let history = UndoHistory()
    /// The window's jobs, which the folder's decodes, downloads and reads belong to.
    let jobs: WindowJobs
    /// What the folder's album pages use of the window.
    let parts: WindowParts
    /// The album pages made, most recently shown first; the first is the one shown.
    private(set) var pages: [AlbumPage] = []
    /// Where the person was in albums whose pages were let go: shown again, they open there.
    private var places: [AlbumID: AlbumPlace] = [:]
    /// A photo to open in the viewer as soon as the listing finds it.
    var target: String?
    /// The sources of the pages of the person's own albums, by page name (an album holds its
    /// source weakly).
    var collectionSources: [String: CollectionSource] = [:]
    /// The photos of the folder known to be favourites (`FavouritesPage`).
    var favourites: Set<String> = []
    /// A change of `favourites` is waiting to be shown.
    var favouritesPending = false
    /// What searches of the folder look at (`PhotoFiltering`), made once it is listed.
    var searchCorpus: FolderSearchCorpus?
    /// How many album pages are kept with their widgets; older ones are let go (never All
    /// Photos').
    static let keptPages = 6

    var page: AlbumPage { pages[0] }
    var contents: AlbumContents { page.contents }
    var grid: ThumbnailGrid { page.grid }
    var viewer: PhotoViewer { page.viewer }
    var edit: EditController { page.edit }

    /// Opens the folder at `uri` on its album `first`.
    init(uri: String, name: String, target: String?, first: AlbumID, order: PhotoOrder, tileSize: TileSize, parts: WindowParts) {
        self.name = name
        self.target = target
        self.tileSize = tileSize
        source = FolderSource(uri: uri, name: name, jobs: parts.jobs)
        scale = Int(gtk_widget_get_scale_factor(parts.parent.widget))
        jobs = parts.jobs
        self.parts = parts
        loader = ThumbnailLoader(size: tileSize.thumbnailSize(scale: scale), jobs: parts.jobs)
        pages = [makePage(first, order: order)]
    }

    /// Shows tiles of `size` on every page; returns whether their thumbnails now come from
    /// another loader (the covers follow it then).
    @discardableResult
    func setTileSize(_ size: TileSize) -> Bool {
        guard size != tileSize else { return false }
        tileSize = size
        let wanted = size.thumbnailSize(scale: scale)
        let changed = wanted != loader.size
        if changed {
            let kept = previousLoader?.size == wanted ? previousLoader! : ThumbnailLoader(size: wanted, jobs: jobs)
            previousLoader = loader
            loader = kept
        }
        for page in pages { page.setTileSize(size.edge, loader: loader) }
        // Nothing is asked of the loader left any more: what it still has queued goes.
        if changed { previousLoader?.cancelAll() }
        return changed
    }

    /// The page of `album`, made if need be, as the current one; returns it, whether it is
    /// new, and the pages let go to stay within `keptPages`.
    func show(_ album: AlbumID, order: PhotoOrder) -> (page: AlbumPage, isNew: Bool, dropped: [AlbumPage]) {
        if let index = pages.firstIndex(where: { $0.album == album }) {
            let page = pages.remove(at: index)
            pages.insert(page, at: 0)
            return (page, false, [])
        }
        pages.insert(makePage(album, order: order), at: 0)
        var dropped: [AlbumPage] = []
        // All Photos, the album most returned to and the costliest to make again, stays.
        while pages.count > Self.keptPages,
              let oldest = pages.lastIndex(where: { $0.album != .allPhotos }) {
            dropped.append(pages.remove(at: oldest))
        }
        for page in dropped {
            places[page.album] = AlbumPlace(of: page)
            page.stopWork()
            collectionSources[page.name]?.cancel()
            collectionSources[page.name] = nil
        }
        if let place = places.removeValue(forKey: album) { place.restore(in: pages[0]) }
        return (pages[0], true, dropped)
    }

    private func makePage(_ album: AlbumID, order: PhotoOrder) -> AlbumPage {
        if case .collection(let id) = album { return makeCollectionPage(id, order: order) }
        let contents = AlbumContents(id: album, order: order, source: source)
        // The favourites only, from the first photos fed.
        if album == .favourites {
            let favourites = self.favourites
            contents.setFilter { favourites.contains($0.id) }
        }
        let page = AlbumPage(album: album, contents: contents, loader: loader, tileEdge: tileSize.edge, parts: parts, history: history)
        // After the page, whose grid then sees the photos already found arrive.
        source.attach(contents)
        return page
    }

    /// The switcher's counts last traced, and whether it has shown albums yet.
    private var tracedSwitcher: [Int]?

    /// `trace albums-first COUNT` when the switcher first shows albums, and with tile tracing
    /// `trace switcher-album INDEX COUNT` for each album whenever the list changed.
    func traceSwitcher(_ albums: [AlbumSummary], subfolderAlbums: Int) {
        guard !albums.isEmpty else { return }
        if tracedSwitcher == nil { Trace.milestone("albums-first", subfolderAlbums) }
        let counts = albums.map(\.count)
        guard counts != tracedSwitcher else { return }
        tracedSwitcher = counts
        guard Trace.tilesEnabled else { return }
        for (index, count) in counts.enumerated() { Trace.milestone("switcher-album", index + 1, count) }
    }

    /// Cancels the listing and every decode this folder started. Touches no widget, so it is
    /// safe while the window is being destroyed.
    func stopWork() {
        source.cancel()
        for source in collectionSources.values { source.cancel() }
        loader.cancelAll()
        previousLoader?.cancelAll()
        for page in pages { page.stopWork() }
        // The visit is over: the copies of its files on another machine go (unless another
        // window reads them).
        if RemoteFileCopies.isRemote(source.uri) {
            let uri = source.uri
            // No job of the window: the clean-up must run when the window closes.
            Thread.detachNewThread { RemoteFileCopies.shared.forget(under: uri) }
        }
    }
}

/// Where the person was in an album: how far its grid was scrolled, and what was selected.
struct AlbumPlace {
    let scrollOffset: Double
    /// The selection, when the album was in edit mode.
    let selected: [String]?

    @MainActor
    init(of page: AlbumPage) {
        scrollOffset = page.grid.scrollOffset
        selected = page.edit.isEditing ? page.edit.selection.selected(in: page.contents.photos) : nil
    }

    @MainActor
    func restore(in page: AlbumPage) {
        page.grid.restoreScroll(to: scrollOffset)
        if let selected { page.edit.restore(selected: selected) }
    }
}
