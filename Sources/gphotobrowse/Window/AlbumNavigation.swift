import CGtk
import PhotoCore

/// Moving between albums: the switcher and the list, Ctrl+Page Down / Ctrl+Page Up, Alt+1…9,
/// and a horizontal swipe on the grid (touchpad or touch), which pages between albums as a
/// paged view does.
extension BrowserWindow {
    /// The albums in the switcher's order: the folder's, then the person's own.
    var albumOrder: [AlbumID] {
        guard folder != nil else { return [] }
        return switcherFolderAlbums.map(\.id) + collectionAlbums.map(\.id)
    }

    /// The folder's albums in the switcher; for a folder without subfolders, when the
    /// person has albums of their own, the folder itself (All Photos), to come back to.
    var switcherFolderAlbums: [AlbumSummary] {
        guard let folder else { return [] }
        let albums = folder.source.albums
        let favourites = favouritesSummary.map { [$0] } ?? []
        guard albums.isEmpty, !collectionAlbums.isEmpty || !favourites.isEmpty else { return albums + favourites }
        let all = folder.source.summary(of: .allPhotos)
        return [AlbumSummary(id: .allPhotos, title: folder.name, count: all?.count ?? 0, cover: all?.cover, newest: all?.newest)] + favourites
    }

    func installAlbumNavigation() {
        addAction(window, "next-album") { [weak self] in self?.moveAlbum(by: 1) }
        addAction(window, "previous-album") { [weak self] in self?.moveAlbum(by: -1) }
        for n in 1...9 {
            addAction(window, "album-\(n)") { [weak self] in
                guard let self, n <= self.albumOrder.count else { return }
                self.showAlbum(self.albumOrder[n - 1], sliding: 0)
            }
        }
        header.albums.onSelect = { [weak self] album, withKeys in self?.showAlbum(album, sliding: 0, focusingGrid: !withKeys) }
        header.albumList.onSelect = { [weak self] album in self?.showAlbum(album, sliding: 0) }
        header.albums.chipMenu.onRename = { [weak self] id in
            YourAlbums.shared.collection(id).map { self?.collectionActions.renameDelete.rename($0) }
        }
        header.albums.chipMenu.onDelete = { [weak self] id in
            YourAlbums.shared.collection(id).map { self?.collectionActions.renameDelete.delete($0) }
        }
    }

    /// The album `delta` places from the one shown, in the switcher's order.
    func moveAlbum(by delta: Int) {
        guard let folder, isGridShown else { return }
        let order = albumOrder
        guard order.count > 1, let index = order.firstIndex(of: folder.page.album) else { return }
        let next = index + delta
        guard next >= 0, next < order.count else { return }
        showAlbum(order[next], sliding: delta)
    }

    /// Shows the folder's albums in the header (and keeps the one shown selected).
    func updateAlbums() {
        guard let folder else { return }
        let albums = switcherFolderAlbums, collections = collectionAlbums
        header.showAlbums(albums, collections: collections, current: folder.page.album)
        if isGridShown { title.set(title: albumTitle(folder.page.album)) }
        applyPolicy()
        if Trace.isEnabled { folder.traceSwitcher(albums + collections, subfolderAlbums: folder.source.subfolderAlbumCount) }
        // The album shown went (its folder deleted or moved away, its last photo gone):
        // show All Photos rather than an empty grid.
        if case .folder = folder.page.album, folder.source.isListed, folder.source.summary(of: folder.page.album) == nil,
           folder.source.tree.photoCount > 0 {
            showAlbum(.allPhotos)
        }
        if folder.page.album == .favourites, favouritesSummary == nil { showAlbum(.allPhotos) }
    }

    /// A horizontal swipe on a grid pages to the next or previous album: two-finger scrolling
    /// on a touchpad (the grid itself scrolls vertically only), or a touch swipe.
    func installAlbumSwipe(on page: AlbumPage) {
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
            self.moveAlbum(by: direction)
            return true
        }
        onSequence(scroll, "scroll-begin") { travelled = 0 }
        gtk_widget_add_controller(page.grid.root, scroll)

        let swipe = gtk_gesture_swipe_new()!
        gtk_gesture_single_set_touch_only(swipe.cast(), 1)
        onSignal(swipe, "swipe", doubles: { [weak self] vx, vy in
            guard abs(vx) > 800, abs(vx) > 2 * abs(vy) else { return }
            self?.moveAlbum(by: vx < 0 ? 1 : -1)
        })
        gtk_widget_add_controller(page.grid.root, swipe.cast())
    }
}
