import CGtk
import PhotoCore

/// What choosing photos needs of the window, beyond what it shows: the viewer shown (a
/// preview), and the actions offered brought up to date as photos are checked.
@MainActor
protocol PhotosToPick: ShownPages {
    func showViewer(at index: Int)
    func applyPolicy()
}

/// What makes a browser window choose photos for `--pick`: newest first, the newest photo
/// focused so that Enter alone chooses it; a click previews a photo, a double click or Enter
/// chooses it; with `--multiple`, check boxes on the tiles (clicks, Space, Ctrl+A,
/// Shift+click) and a header button that chooses them all ("Choose 3 Photos"). Escape,
/// Cancel, Ctrl+W or closing the window choose nothing. Nothing is moved, deleted or changed
/// from here: the window's `ActionPolicy` enables nothing that writes. It needs the program's
/// session, the window (its actions and keys), its header, the jobs the choice is written
/// in, its context menu, and what the window shows.
@MainActor
final class PhotoPicking {
    private let session: PickSession
    private let header: WindowHeader
    private let jobs: WindowJobs
    private let contextMenu: ContextMenu
    private weak var pages: (any PhotosToPick)?

    init(session: PickSession, header: WindowHeader, jobs: WindowJobs, contextMenu: ContextMenu, pages: any PhotosToPick) {
        self.session = session
        self.header = header
        self.jobs = jobs
        self.contextMenu = contextMenu
        self.pages = pages
    }

    /// Sets the header up for choosing, and adds Cancel, Choose and Escape to `window`.
    func install(on window: UnsafeMutablePointer<GtkWindow>) {
        header.showPicking(multiple: session.options.multiple)
        if let title = session.options.title { header.title.fixedTitle = title }
        addAction(window, "pick-cancel") { [weak self] in self?.session.cancel() }
        addAction(window, "pick-choose") { [weak self] in self?.chooseFromHeader() }
        // Escape in the grid: nothing chosen (in the viewer it goes back to the grid first).
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] keyval, _ in
            guard let self, Int32(keyval) == GDK_KEY_Escape, self.pages?.isViewerShown == false, !self.contextMenu.isOpen else { return false }
            self.session.cancel()
            return true
        }
        gtk_widget_add_controller(window.widget, keys)
    }

    /// A page of the picking window: double clicks and Enter choose, a click previews, a long
    /// press in the preview chooses; with `--multiple`, check boxes always.
    func setUp(_ page: AlbumPage) {
        page.grid.activatesOnSingleClick = false
        page.grid.onPreview = { [weak self] index in self?.pages?.showViewer(at: index) }
        page.viewer.onLongPress = { [weak self, weak page] in
            guard let self, let page else { return }
            self.longPress(in: page)
        }
        if session.options.multiple {
            page.edit.isChoosing = true
            page.edit.onCountChanged = { [weak self, weak page] count in
                guard let self, let pages = self.pages, let page, page === pages.folder?.page else { return }
                self.header.showChosen(count)
                pages.applyPolicy()
            }
        }
        // The newest photo has the focus until the person moves it, whatever arrives.
        page.contents.observeChanges { [weak self, weak page] _ in
            guard let pages = self?.pages, let page, page === pages.folder?.page, !page.grid.focusWasMoved, !pages.isViewerShown,
                  page.contents.photos.count > 0 else { return }
            page.grid.reveal(0)
        }
    }

    /// A tile activated (double click, Enter): that photo is chosen, or, with `--multiple`,
    /// the photos checked (that one when none is).
    func activated(_ index: Int, in page: AlbumPage) {
        guard index >= 0, index < page.contents.photos.count else { return }
        let chosen = session.options.multiple ? page.edit.chosen : []
        session.choose(chosen.isEmpty ? [page.contents.photos[index]] : chosen, jobs: jobs)
    }

    /// The header's Choose: the photos checked, else the photo previewed, else the one with
    /// the keyboard focus.
    private func chooseFromHeader() {
        guard let pages, let folder = pages.folder else { return }
        let page = folder.page
        if session.options.multiple, !page.edit.chosen.isEmpty { return session.choose(page.edit.chosen, jobs: jobs) }
        if pages.isViewerShown, let index = page.viewer.index { return session.choose([page.contents.photos[index]], jobs: jobs) }
        if let id = page.grid.focusedTile?.photo?.id, let photo = page.contents.photos.photo(id: id) { return session.choose([photo], jobs: jobs) }
        if page.contents.photos.count > 0 { session.choose([page.contents.photos[0]], jobs: jobs) }
    }

    /// A long press in the preview: the photo's choice toggles (`--multiple`), or the photo is
    /// chosen.
    private func longPress(in page: AlbumPage) {
        guard let index = page.viewer.index, index < page.contents.photos.count else { return }
        let photo = page.contents.photos[index]
        if session.options.multiple {
            page.edit.toggle(photo.id)
            page.viewer.showSelectedState()
        } else {
            session.choose([photo], jobs: jobs)
        }
    }
}
