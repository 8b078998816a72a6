import CGtk
import PhotoCore
import PhotoIO

/// What album pages need of the window they are shown in, beyond what it shows: its grid or
/// viewer shown, the actions offered brought up to date, the subtitle and the photo to open
/// once listed (`FolderOpening`), the search shown applied again, and the tile size stepped.
@MainActor
protocol AlbumPagesShown: ShownPages {
    func showViewer(at index: Int)
    func showGrid()
    func applyPolicy()
    /// Opens the viewer on the photo the folder was opened for, once it is listed.
    func openTargetIfListed()
    /// The grid's second title line: how many photos, or how far reading dates has come.
    func updateSubtitle(dates progress: DateTakenReader.Progress?)
    /// Filters the album shown by `search` (`PhotoFiltering`).
    func filter(by search: PhotoSearch)
    /// Tiles `count` steps larger (or smaller), remembered (`WindowSettings`).
    func stepTileSize(by count: Int)
}

/// The window's album pages: connecting a page to the window (its stack of pages, header,
/// title and menus), switching between albums, and letting a page go. It needs the window
/// (to go fullscreen), its stack, header and menus, the search bar, the picker of a picking
/// window, moving between albums, and what the window shows.
@MainActor
final class AlbumPages {
    /// The window (it owns this), made fullscreen by the viewer.
    private let parent: UnsafeMutablePointer<GtkWindow>
    /// The window's pages: its status page, and each album page's grid and viewer.
    private let stack: OpaquePointer
    private let header: WindowHeader
    private let searchBar: PhotoSearchBar
    /// The popovers a page's widgets may hold, taken off them when the page goes.
    private let contextMenu: ContextMenu
    private let notFound: NotFoundPopover
    private let renamePopover: RenamePopover
    private let tagsPopover: TagsPopover
    private let navigation: AlbumNavigation
    private let picker: PhotoPicking?
    private weak var pages: (any AlbumPagesShown)?

    init(parent: UnsafeMutablePointer<GtkWindow>, stack: OpaquePointer, header: WindowHeader, searchBar: PhotoSearchBar,
         contextMenu: ContextMenu, notFound: NotFoundPopover, renamePopover: RenamePopover, tagsPopover: TagsPopover,
         navigation: AlbumNavigation, picker: PhotoPicking?, pages: any AlbumPagesShown) {
        self.parent = parent
        self.stack = stack
        self.header = header
        self.searchBar = searchBar
        self.contextMenu = contextMenu
        self.notFound = notFound
        self.renamePopover = renamePopover
        self.tagsPopover = tagsPopover
        self.navigation = navigation
        self.picker = picker
        self.pages = pages
    }

    /// Whether `page` is the one the window shows.
    private func isShown(_ page: AlbumPage) -> Bool { page === pages?.folder?.page }

    /// Connects a page's grid, viewer and edit mode to the window, and adds its grid and
    /// viewer to the window's pages.
    func wire(_ page: AlbumPage) {
        page.edit.onEditingChanged = { [weak self, weak page] editing in
            guard let self, let page, self.isShown(page) else { return }
            self.header.showEditing(editing)
            self.pages?.applyPolicy()
        }
        page.edit.onCountChanged = { [weak self, weak page] _ in
            guard let self, let page, self.isShown(page) else { return }
            self.pages?.applyPolicy()
        }
        page.edit.onJobChanged = { [weak self, weak page] in
            guard let self, let page, self.isShown(page) else { return }
            self.pages?.applyPolicy()
        }
        page.grid.onContextMenu = { [weak contextMenu = self.contextMenu, weak page] id, x, y in
            guard let page else { return }
            contextMenu?.popUp(forTile: id, of: page, x: x, y: y)
        }
        page.viewer.onContextMenu = { [weak contextMenu = self.contextMenu, weak page] x, y in
            guard let page else { return }
            contextMenu?.popUp(inViewerOf: page, x: x, y: y)
        }
        page.grid.onActivate = { [weak self, weak page] index in
            guard let self, let page else { return }
            self.activate(index, in: page)
        }
        page.viewer.onClose = { [weak self] in self?.pages?.showGrid() }
        page.viewer.onPhotoChanged = { [weak header = self.header] photo in header?.title.set(title: photo.displayName) }
        page.viewer.onRotationChanged = { [weak self, weak page] in
            guard let self, let page, self.isShown(page) else { return }
            self.pages?.applyPolicy()
        }
        // The viewer hides the header bar with its own chrome, and asks for fullscreen.
        page.viewer.onChromeVisibility = { [weak header = self.header] visible in
            guard let header else { return }
            gtk_widget_set_visible(header.root, visible ? 1 : 0)
        }
        page.viewer.onFullscreen = { [parent = self.parent] on in
            if on { gtk_window_fullscreen(parent) } else { gtk_window_unfullscreen(parent) }
        }
        page.viewer.onMovieShownChanged = { [weak self, weak page] in
            guard let self, let page, self.isShown(page) else { return }
            self.pages?.applyPolicy()
        }
        page.contents.observeChanges { [weak self, weak page] _ in
            guard let self, let pages = self.pages, let page, self.isShown(page) else { return }
            pages.openTargetIfListed()
            pages.updateSubtitle(dates: nil)
            pages.applyPolicy()
        }
        picker?.setUp(page)
        gtk_stack_add_named(stack, page.grid.root, "grid-" + page.name)
        gtk_stack_add_named(stack, page.viewer.root, "viewer-" + page.name)
        navigation.installSwipe(on: page)
        page.grid.onTileSizeStep = { [weak self] count in self?.pages?.stepTileSize(by: count) }
    }

    /// Takes a page out of the window (the folder closed, or the page was let go).
    func unwire(_ page: AlbumPage) {
        page.viewer.stop()
        contextMenu.detach(from: page.grid.menuAnchor)
        contextMenu.detach(from: page.viewer.menuAnchor)
        notFound.detach(from: page.grid.menuAnchor)
        renamePopover.detach(from: page.grid.menuAnchor)
        tagsPopover.detach(from: page.grid.menuAnchor)
        gtk_stack_remove(stack, page.grid.root)
        gtk_stack_remove(stack, page.viewer.root)
    }

    /// Opens the photo at `index` of the page's album in the viewer; for a photo not found
    /// (an album of the person's own), says so on its tile instead, with Remove from Album.
    private func activate(_ index: Int, in page: AlbumPage) {
        guard index >= 0, index < page.contents.photos.count else { return }
        if let picker { return picker.activated(index, in: page) }
        let photo = page.contents.photos[index]
        guard photo.isNotFound else { pages?.showViewer(at: index); return }
        guard let rect = page.grid.tileRect(showing: photo.id) else { return }
        notFound.show(photo, pointingTo: rect, in: page.grid.menuAnchor)
    }

    /// Shows `album`'s grid, made if need be, keeping the scroll position and selection it
    /// had when last shown; `sliding` (the direction of a swipe or a move to the next album)
    /// slides it in from that side, else it fades in. The grid takes the focus, unless the
    /// person is moving through the switcher's chips with the keyboard.
    func show(_ album: AlbumID, sliding: Int = 0, focusingGrid: Bool = true) {
        guard let pages, let folder = pages.folder, folder.page.album != album else { return }
        if pages.isViewerShown { folder.viewer.stop() }
        let order = folder.contents.photos.order
        let (page, isNew, dropped) = folder.show(album, order: order)
        if isNew { wire(page) } else { folder.recheck(page) }
        // Taking a page's tiles apart takes tens of milliseconds: after the album shown
        // has drawn, when the main loop is idle.
        for old in dropped { whenIdle { [weak self] in self?.unwire(old) } }
        gtk_stack_set_visible_child_full(stack, "grid-" + page.name,
                                         sliding > 0 ? GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT
                                             : sliding < 0 ? GTK_STACK_TRANSITION_TYPE_SLIDE_RIGHT : GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        header.show(.grid)
        header.albums.select(album)
        header.showEditing(page.edit.isEditing)
        page.edit.showCount()
        pages.applyPolicy()
        header.title.set(title: folder.title(of: album))
        pages.updateSubtitle(dates: nil)
        if focusingGrid { page.grid.focus() }
        if searchBar.isOpen { pages.filter(by: searchBar.search) }
        if Trace.isEnabled {
            page.grid.scheduler.whenViewComplete { [weak page] in
                guard let page else { return }
                Trace.milestone("album-shown", page.contents.photos.count)
            }
        }
    }
}

extension OpenFolder {
    /// What the window title says for an album: its name in the switcher, or the folder's
    /// when there is nothing to switch between.
    func title(of album: AlbumID) -> String {
        if case .collection = album { return YourAlbums.shared.summaries.first { $0.id == album }?.title ?? name }
        if album == .favourites { return tr("Favourites") }
        guard !source.albums.isEmpty else { return name }
        return source.summary(of: album)?.title ?? name
    }
}
