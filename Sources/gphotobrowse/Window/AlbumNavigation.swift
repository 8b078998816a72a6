import CGtk
import PhotoCore

/// What moving between albums needs of the window, beyond what it shows: an album shown
/// (`AlbumPages`), and the actions offered brought up to date.
@MainActor
protocol AlbumsToSwitch: ShownPages {
    func showAlbum(_ album: AlbumID, sliding: Int, focusingGrid: Bool)
    func applyPolicy()
}

/// Moving between albums: the switcher and the list, Ctrl+Page Down / Ctrl+Page Up, Alt+1…9,
/// and a horizontal swipe on the grid (touchpad or touch), which pages between albums as a
/// paged view does; the switcher kept up to date with the folder's albums and the person's
/// own (`SwitcherAlbums`). It needs the window its actions are on, its header and title,
/// renaming and deleting from a chip's menu, and what the window shows.
@MainActor
final class AlbumNavigation {
    /// The window the actions are on (it owns this).
    private let parent: UnsafeMutablePointer<GtkWindow>
    private let header: WindowHeader
    private let renameDelete: AlbumRenameDelete
    private weak var pages: (any AlbumsToSwitch)?

    init(parent: UnsafeMutablePointer<GtkWindow>, header: WindowHeader, renameDelete: AlbumRenameDelete, pages: any AlbumsToSwitch) {
        self.parent = parent
        self.header = header
        self.renameDelete = renameDelete
        self.pages = pages
    }

    /// The person's own albums, as the switcher lists them in every window.
    private var ownAlbums: [AlbumSummary] { YourAlbums.shared.summaries }

    /// The albums in the switcher's order: the folder's, then the person's own.
    private var order: [AlbumID] {
        guard pages?.folder != nil else { return [] }
        return folderAlbums.map(\.id) + ownAlbums.map(\.id)
    }

    /// The folder's albums in the switcher.
    private var folderAlbums: [AlbumSummary] {
        guard let folder = pages?.folder else { return [] }
        return SwitcherAlbums.folderAlbums(subfolders: folder.source.albums, favourites: folder.favouritesSummary,
                                           hasOwnAlbums: !ownAlbums.isEmpty, allPhotos: folder.source.summary(of: .allPhotos),
                                           folderName: folder.name)
    }

    /// Adds the actions to the window and answers the switcher, the list and the chips' menu.
    func install() {
        addAction(parent, "next-album") { [weak self] in self?.move(by: 1) }
        addAction(parent, "previous-album") { [weak self] in self?.move(by: -1) }
        for n in 1...9 {
            addAction(parent, "album-\(n)") { [weak self] in
                guard let self, let album = SwitcherAlbums.album(number: n, in: self.order) else { return }
                self.pages?.showAlbum(album, sliding: 0, focusingGrid: true)
            }
        }
        header.albums.onSelect = { [weak self] album, withKeys in self?.pages?.showAlbum(album, sliding: 0, focusingGrid: !withKeys) }
        header.albumList.onSelect = { [weak self] album in self?.pages?.showAlbum(album, sliding: 0, focusingGrid: true) }
        header.albums.chipMenu.onRename = { [weak self] id in
            YourAlbums.shared.collection(id).map { self?.renameDelete.rename($0) }
        }
        header.albums.chipMenu.onDelete = { [weak self] id in
            YourAlbums.shared.collection(id).map { self?.renameDelete.delete($0) }
        }
    }

    /// Shows the album `delta` places from the one shown, in the switcher's order.
    func move(by delta: Int) {
        guard let pages, let folder = pages.folder, pages.isGridShown,
              let album = SwitcherAlbums.album(delta, from: folder.page.album, in: order) else { return }
        pages.showAlbum(album, sliding: delta, focusingGrid: true)
    }

    /// Shows the folder's albums in the header (and keeps the one shown selected).
    func update() {
        guard let pages, let folder = pages.folder else { return }
        let albums = folderAlbums, collections = ownAlbums
        header.showAlbums(albums, collections: collections, current: folder.page.album)
        if pages.isGridShown { header.title.set(title: folder.title(of: folder.page.album)) }
        pages.applyPolicy()
        if Trace.isEnabled { folder.traceSwitcher(albums + collections, subfolderAlbums: folder.source.subfolderAlbumCount) }
        // The album shown went (its folder deleted or moved away, its last photo gone):
        // show All Photos rather than an empty grid.
        if case .folder = folder.page.album, folder.source.isListed, folder.source.summary(of: folder.page.album) == nil,
           folder.source.tree.photoCount > 0 {
            pages.showAlbum(.allPhotos, sliding: 0, focusingGrid: true)
        }
        if folder.page.album == .favourites, folder.favouritesSummary == nil { pages.showAlbum(.allPhotos, sliding: 0, focusingGrid: true) }
    }

    /// A horizontal swipe on a page's grid pages to the next or previous album: two-finger
    /// scrolling on a touchpad (the grid itself scrolls vertically only), or a touch swipe.
    func installSwipe(on page: AlbumPage) {
        let scroll = gtk_event_controller_scroll_new(GtkEventControllerScrollFlags(GTK_EVENT_CONTROLLER_SCROLL_HORIZONTAL.rawValue))!
        var travelled = 0.0
        onScroll(scroll) { [weak self, scroll] dx, _ in
            guard let self else { return false }
            travelled += dx
            // Wheels click in steps of 1; touchpads report pixels (smooth scrolling, many events).
            let smooth = gtk_event_controller_scroll_get_unit(scroll.cast()) == GDK_SCROLL_UNIT_SURFACE
            let threshold = smooth ? 160.0 : 1.0
            guard abs(travelled) >= threshold else { return true }
            let direction = travelled > 0 ? 1 : -1
            travelled = 0
            self.move(by: direction)
            return true
        }
        onSequence(scroll, "scroll-begin") { travelled = 0 }
        gtk_widget_add_controller(page.grid.root, scroll)

        let swipe = gtk_gesture_swipe_new()!
        gtk_gesture_single_set_touch_only(swipe.cast(), 1)
        onSignal(swipe, "swipe", doubles: { [weak self] vx, vy in
            guard abs(vx) > 800, abs(vx) > 2 * abs(vy) else { return }
            self?.move(by: vx < 0 ? 1 : -1)
        })
        gtk_widget_add_controller(page.grid.root, swipe.cast())
    }
}
