import CGtk
import PhotoCore

/// The window's side of album pages: connecting a page to the window, switching between
/// albums, and letting a page go.
extension BrowserWindow {
    /// Connects a page's grid, viewer and edit mode to the window, and adds its grid and
    /// viewer to the window's pages.
    func wire(_ page: AlbumPage) {
        page.edit.onEditingChanged = { [weak self, weak page] editing in
            guard let self, let page, page === self.folder?.page else { return }
            self.header.showEditing(editing)
            self.applyPolicy()
        }
        page.edit.onCountChanged = { [weak self, weak page] _ in
            guard let self, let page, page === self.folder?.page else { return }
            self.applyPolicy()
        }
        page.edit.onJobChanged = { [weak self, weak page] in
            guard let self, let page, page === self.folder?.page else { return }
            self.applyPolicy()
        }
        page.grid.onContextMenu = { [weak self] id, x, y in self?.showContextMenu(forGridPhoto: id, x: x, y: y) }
        page.viewer.onContextMenu = { [weak self] x, y in self?.showContextMenuInViewer(x: x, y: y) }
        page.grid.onActivate = { [weak self, weak page] index in
            guard let self, let page else { return }
            self.activate(index, in: page)
        }
        page.viewer.onClose = { [weak self] in self?.showGrid() }
        page.viewer.onPhotoChanged = { [weak self] photo in self?.title.set(title: photo.displayName) }
        page.viewer.onRotationChanged = { [weak self, weak page] in
            guard let self, let page, page === self.folder?.page else { return }
            self.applyPolicy()
        }
        page.viewer.onChromeVisibility = { [weak self] visible in self?.setChromeVisible(visible) }
        page.viewer.onFullscreen = { [weak self] on in self?.setFullscreen(on) }
        page.contents.observeChanges { [weak self, weak page] _ in
            guard let self, let page, page === self.folder?.page else { return }
            self.openTargetIfListed()
            self.updateSubtitle()
            self.applyPolicy()
        }
        if let picking {
            setUpPicking(page, picking)
            page.viewer.onLongPress = { [weak self, weak page] in
                guard let self, let page else { return }
                self.pickingLongPress(in: page)
            }
        }
        gtk_stack_add_named(stack, page.grid.root, "grid-" + page.name)
        gtk_stack_add_named(stack, page.viewer.root, "viewer-" + page.name)
        installAlbumSwipe(on: page)
        wireTileSize(page)
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
    func activate(_ index: Int, in page: AlbumPage) {
        guard index >= 0, index < page.contents.photos.count else { return }
        if picking != nil { return pickingActivated(index, in: page) }
        let photo = page.contents.photos[index]
        guard photo.isNotFound else { return showViewer(at: index) }
        guard let rect = page.grid.tileRect(showing: photo.id) else { return }
        notFound.show(photo, pointingTo: rect, in: page.grid.menuAnchor)
    }

    /// Shows `album`'s grid, made if need be, keeping the scroll position and selection it
    /// had when last shown; `sliding` (the direction of a swipe or a move to the next album)
    /// slides it in from that side, else it fades in. The grid takes the focus, unless the
    /// person is moving through the switcher's chips with the keyboard.
    func showAlbum(_ album: AlbumID, sliding: Int = 0, focusingGrid: Bool = true) {
        guard let folder, folder.page.album != album else { return }
        if isViewerShown { folder.viewer.stop() }
        let order = folder.contents.photos.order
        let (page, isNew, dropped) = folder.show(album, order: order, window: self)
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
        applyPolicy()
        title.set(title: albumTitle(album))
        updateSubtitle()
        if focusingGrid { page.grid.focus() }
        if searchBar.isOpen { filter(by: searchBar.search) }
        if Trace.isEnabled {
            page.grid.scheduler.whenViewComplete { [weak page] in
                guard let page else { return }
                Trace.milestone("album-shown", page.contents.photos.count)
            }
        }
    }

    /// What the window title says for an album: its name in the switcher, or the folder's
    /// when there is nothing to switch between.
    func albumTitle(_ album: AlbumID) -> String {
        guard let folder else { return tr("Photo Browser") }
        if case .collection = album { return collectionAlbums.first { $0.id == album }?.title ?? folder.name }
        if album == .favourites { return tr("Favourites") }
        guard !folder.source.albums.isEmpty else { return folder.name }
        return folder.source.summary(of: album)?.title ?? folder.name
    }
}
