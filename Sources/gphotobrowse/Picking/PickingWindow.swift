import CGtk
import PhotoCore

/// A browser window that chooses photos for `--pick`: newest first, the newest photo focused
/// so that Enter alone chooses it; a click previews a photo, a double click or Enter chooses
/// it; with `--multiple`, check boxes on the tiles (clicks, Space, Ctrl+A, Shift+click) and a
/// header button that chooses them all ("Choose 3 Photos"). Escape, Cancel, Ctrl+W or closing
/// the window choose nothing. Nothing is moved, deleted or changed from here.
extension BrowserWindow {
    func installPicking(_ session: PickSession) {
        header.showPicking(multiple: session.options.multiple)
        if let title = session.options.title { self.title.fixedTitle = title }
        addAction(window, "pick-cancel") { [weak self] in self?.picking?.cancel() }
        addAction(window, "pick-choose") { [weak self] in self?.chooseFromHeader() }
        // A picker changes nothing on the disk: `ActionPolicy` enables nothing that writes.
        // Escape in the grid: nothing chosen (in the viewer it goes back to the grid first).
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] keyval, _ in
            guard let self, Int32(keyval) == GDK_KEY_Escape, !self.isViewerShown, !self.contextMenu.isOpen else { return false }
            self.picking?.cancel()
            return true
        }
        gtk_widget_add_controller(window.widget, keys)
    }

    /// A page of the picking window: double clicks and Enter choose, a click previews; with
    /// `--multiple`, check boxes always.
    func setUpPicking(_ page: AlbumPage, _ session: PickSession) {
        page.grid.activatesOnSingleClick = false
        page.grid.onPreview = { [weak self] index in self?.showViewer(at: index) }
        if session.options.multiple {
            page.edit.isChoosing = true
            page.edit.onCountChanged = { [weak self, weak page] count in
                guard let self, let page, page === self.folder?.page else { return }
                self.header.showChosen(count)
                self.applyPolicy()
            }
        }
        // The newest photo has the focus until the person moves it, whatever arrives.
        page.contents.observeChanges { [weak self, weak page] _ in
            guard let self, let page, page === self.folder?.page, !page.grid.focusWasMoved, !self.isViewerShown,
                  page.contents.photos.count > 0 else { return }
            page.grid.reveal(0)
        }
    }

    /// A tile activated (double click, Enter) in a picking window: that photo is chosen,
    /// or, with `--multiple`, the photos checked (that one when none is).
    func pickingActivated(_ index: Int, in page: AlbumPage) {
        guard let session = picking, index >= 0, index < page.contents.photos.count else { return }
        let chosen = session.options.multiple ? page.edit.chosen : []
        session.choose(chosen.isEmpty ? [page.contents.photos[index]] : chosen, jobs: jobs)
    }

    /// The header's Choose: the photos checked, else the photo previewed, else the one with
    /// the keyboard focus.
    private func chooseFromHeader() {
        guard let session = picking, let folder else { return }
        let page = folder.page
        if session.options.multiple, !page.edit.chosen.isEmpty { return session.choose(page.edit.chosen, jobs: jobs) }
        if isViewerShown, let index = page.viewer.index { return session.choose([page.contents.photos[index]], jobs: jobs) }
        if let id = page.grid.focusedTile?.photo?.id, let photo = page.contents.photos.photo(id: id) { return session.choose([photo], jobs: jobs) }
        if page.contents.photos.count > 0 { session.choose([page.contents.photos[0]], jobs: jobs) }
    }

    /// A long press in the preview: the photo's choice toggles (`--multiple`), or the photo is
    /// chosen.
    func pickingLongPress(in page: AlbumPage) {
        guard let session = picking, let index = page.viewer.index, index < page.contents.photos.count else { return }
        let photo = page.contents.photos[index]
        if session.options.multiple {
            page.edit.toggle(photo.id)
            page.viewer.showSelectedState()
        } else {
            session.choose([photo], jobs: jobs)
        }
    }
}
