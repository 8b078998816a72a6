import CGtk
import PhotoCore

/// The window's actions (`win.NAME`): what the header bar, the edit bar, the context menu
/// and the keyboard shortcuts (set in `Application`) run.
extension BrowserWindow {
    func installActions() {
        addAction(window, "open") { [weak self] in self?.chooseFolder() }
        addAction(window, "open-location") { [weak self] in
            guard let self else { return }
            OpenLocationDialog.ask(parent: self.window) { [weak self] uri in self?.opening.open(uris: [uri]) }
        }
        addAction(window, "back") { [weak self] in self?.showGrid() }
        addAction(window, "properties") { [weak self] in self?.folder?.viewer.toggleProperties() }

        addAction(window, "edit") { [weak self] in self?.folder?.edit.toggleEditing() }
        addAction(window, "leave-edit") { [weak self] in self?.folder?.edit.leave() }
        addAction(window, "select-all") { [weak self] in self?.folder?.edit.selectAll() }
        addAction(window, "select-none") { [weak self] in self?.folder?.edit.selectNone() }
        addAction(window, "export") { [weak self] in self.map { $0.folder?.edit.export($0.photosToActOn) } }
        addAction(window, "trash") { [weak self] in self.map { $0.folder?.edit.trash($0.photosToActOn) } }
        addAction(window, "delete-permanently") { [weak self] in
            self.map { $0.folder?.edit.deletePermanently($0.photosToActOn.flatMap(\.fileIDs)) }
        }
        addAction(window, "undo") { [weak self] in self?.undoLast() }
        addAction(window, "rename") { [weak self] in self?.renaming.start() }
        addAction(window, "save-rotation") { [weak self] in
            guard let self, self.isViewerShown, let folder = self.folder else { return }
            self.rotationSaving.save(shownIn: folder)
        }
        installMarkActions()
        addAction(window, "tag") { [weak self] in self?.tagging.start() }

        addAction(window, "photo-properties") { [weak self] in
            guard let self, let folder = self.folder, let photo = self.photosToActOn.first,
                  let index = folder.contents.photos.index(of: photo.id) else { return }
            if !self.isViewerShown { self.showViewer(at: index) }
            folder.viewer.toggleProperties()
        }
        addAction(window, "open-with") { [weak self] in
            guard let self, let photo = self.photosToActOn.first else { return }
            PhotoActions.openWith(photo.id, parent: self.window)
        }
        addAction(window, "show-in-files") { [weak self] in self?.photosToActOn.first.map { PhotoActions.showInFiles($0.id) } }
        addAction(window, "copy") { [weak self] in
            guard let self else { return }
            PhotoActions.copy(self.photosToActOn.map(\.id), from: self.window.widget)
        }
        addAction(window, "slideshow") { [weak self] in self?.startSlideshow() }
        addAction(window, "print") { [weak self] in
            guard let self, !self.photosToPrint.isEmpty else { return }
            PhotoPrinting.print(self.photosToPrint, parent: self.window, toasts: self.toasts, jobs: self.jobs)
        }
        addAction(window, "set-background") { [weak self] in
            guard let self, let photo = self.photosToActOn.first else { return }
            SetAsBackground.ask(for: photo, parent: self.window, toasts: self.toasts, jobs: self.jobs)
        }
        addAction(window, "mark-up") { [weak self] in
            guard let self, let photo = self.photosToActOn.first ?? self.folder?.page.grid.focusedTile?.photo,
                  let application = gtk_window_get_application(self.window) else { return }
            BoardWindow.open(photo: photo.id, application: OpaquePointer(application))
        }
        addAction(window, "save-copy") { [weak self] in
            guard let self, let photo = self.photosToActOn.first else { return }
            PhotoActions.saveCopy(of: photo, parent: self.window, toasts: self.toasts, jobs: self.jobs)
        }
    }

    /// Ctrl+Z: takes back the newest step of the window's history, whichever album it was
    /// done in: photos moved to the trash, removed from an album, an album deleted, a rename,
    /// a rotation saved, marks written.
    func undoLast() {
        guard let folder, let step = folder.history.takeLast() else { return }
        switch step {
        case .trash(let batch): folder.edit.restore(batch)
        case .albumRemoval(let removal): collectionActions.putBack(removal)
        case .albumDeletion(let deleted, let wasShown): collectionActions.renameDelete.undoDelete(deleted, show: wasShown)
        case .rename(let from, let to): renaming.undo(from: from, to: to)
        case .rotation(let uri, let previous): rotationSaving.undo(uri, back: previous, in: folder)
        case .marks(let back): marking.undo(back)
        }
    }

    /// What Delete, Export… and Shift+Delete act on: the photos a context menu was opened
    /// for, else the photo shown in the viewer, else the photos selected in edit mode.
    var photosToActOn: [Photo] {
        guard let folder else { return [] }
        if let photos = contextMenu.photos { return photos }
        if isViewerShown, let index = folder.viewer.index { return [folder.contents.photos[index]] }
        return folder.edit.isEditing ? folder.edit.chosen : []
    }

    /// What Ctrl+P prints: the photos to act on, else (in the grid, outside edit mode) the
    /// photo whose tile has the focus.
    var photosToPrint: [Photo] {
        let photos = photosToActOn
        guard photos.isEmpty, isGridShown, let photo = folder?.grid.focusedTile?.photo else { return photos }
        return [photo]
    }

    /// F5: a slideshow from the photo shown, or from the grid's focused photo (else the first).
    private func startSlideshow() {
        guard let folder, folder.contents.photos.count > 0 else { return }
        if !isViewerShown {
            let focused = folder.grid.focusedTile?.photo.flatMap { folder.contents.photos.index(of: $0.id) }
            showViewer(at: focused ?? 0)
        }
        folder.viewer.startSlideshow()
    }

    private func chooseFolder() {
        FolderChooser.ask(parent: window, startingIn: Preferences.shared.settings.lastFolder) { [weak self] file in
            let uri = g_file_get_uri(file).map { p -> String in defer { g_free(p) }; return String(cString: p) }
            file.unref()
            if let uri { self?.opening.open(uris: [uri]) }
        }
    }

    // MARK: Marks

    func installMarkActions() {
        for stars in 0...PhotoMarks.maxRating {
            addAction(window, "rate-\(stars)") { [weak self] in self?.changeMarks(.rating(stars)) }
        }
        addAction(window, "favourite") { [weak self] in self?.toggleFavourite() }
    }

    /// The photos a mark goes on: the ones to act on, else the photo whose tile has the focus.
    var photosToMark: [Photo] { photosToPrint.filter { !$0.isNotFound } }

    func toggleFavourite() {
        let photos = photosToMark
        guard !photos.isEmpty else { return }
        let all = photos.allSatisfy { ShownMarks.shared.marks(of: $0.id)?.favourite ?? false }
        changeMarks(.favourite(!all))
    }

    /// Writes `change` on the photos at `uris` (nil: the photos to mark now), through the
    /// window's `PhotoMarking`.
    func changeMarks(_ change: MarksChange, on chosen: [String]? = nil) {
        guard let folder else { return }
        marking.write(change, on: chosen ?? photosToMark.map(\.id), in: folder)
    }
}
