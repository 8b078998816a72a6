import CGtk
import PhotoCore

/// The window's actions on the person's own albums: Add to Album… (the selection in edit
/// mode, the photo in the viewer, a context menu's photos), Remove from Album, and Rename
/// Album… and Delete Album for the album shown (`AlbumRenameDelete.swift`); Ctrl+Z; and
/// following their changes from any window (`YourAlbums`).
extension BrowserWindow {
    func installCollectionActions() {
        addAction(window, "add-to-album") { [weak self] in self?.addToAlbum() }
        addAction(window, "remove-from-album") { [weak self] in self?.removeFromAlbum() }
        addAction(window, "rename-album") { [weak self] in self.map { $0.shownCollection.map($0.renameAlbum) } }
        addAction(window, "delete-album") { [weak self] in self.map { $0.shownCollection.map($0.deleteAlbum) } }
        notFound.onRemove = { [weak self] uri in self?.removeFromAlbum([uri]) }
        collectionsObservation = YourAlbums.shared.observe { [weak self] in self?.collectionsChanged() }
    }

    /// The album of the person's own shown, if one is.
    var shownCollection: PhotoCollection? {
        guard let folder, case .collection(let id) = folder.page.album else { return nil }
        return YourAlbums.shared.collection(id)
    }

    /// The albums changed (here, in another window or process): the switcher follows, and an
    /// album shown that was deleted gives way to the folder's photos.
    private func collectionsChanged() {
        guard let folder else { return }
        if case .collection(let id) = folder.page.album, YourAlbums.shared.collection(id) == nil {
            showAlbum(.allPhotos)
        }
        updateAlbums()
        applyPolicy()
    }

    // MARK: Adding and removing photos

    private func addToAlbum() {
        // A photo not found is no photo to add.
        let uris = photosToActOn.filter { !$0.isNotFound }.map(\.id)
        guard !uris.isEmpty else { return }
        AddToAlbumDialog.present(over: window, count: uris.count, albums: collectionAlbums) { [weak self] choice in
            switch choice {
            case .new(let title):
                YourAlbums.shared.create(title: title, photos: uris) { [weak self] result in self?.added(uris.count, result) }
            case .existing(let id, _):
                let had = Set(YourAlbums.shared.collection(id)?.photos ?? [])
                let new = uris.filter { !had.contains($0) }.count
                YourAlbums.shared.add(uris, to: id) { [weak self] result in self?.added(new, result) }
            }
        }
    }

    private func added(_ count: Int, _ result: Result<PhotoCollection, CollectionProblem>) {
        switch result {
        case .success(let collection):
            let text = count == 0
                ? tr("The photos are in “%s” already", collection.title)
                : trn("Added %1$d photo to “%2$s”", "Added %1$d photos to “%2$s”", count, count, OutsideText(collection.title))
            toasts.show(text, actionLabel: tr("Show")) { [weak self] in self?.showAlbum(.collection(collection.id)) }
        case .failure(let problem):
            Dialogs.inform(window, title: tr("The Photos Were Not Added"), details: problem.message)
        }
    }

    private func removeFromAlbum() {
        removeFromAlbum(photosToActOn.map(\.id))
    }

    /// Removes these photos from the album shown, with Undo (the toast's, or Ctrl+Z).
    func removeFromAlbum(_ uris: [String]) {
        guard let collection = shownCollection, !uris.isEmpty else { return }
        YourAlbums.shared.remove(uris, from: collection.id) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let removal) where !removal.isEmpty:
                let count = removal.photos.count
                let history = self.folder?.history
                let step = history?.record(.albumRemoval(removal))
                self.toasts.show(trn("Removed %1$d photo from “%2$s”", "Removed %1$d photos from “%2$s”", count, count, OutsideText(collection.title)),
                                 actionLabel: tr("Undo")) { [weak self, weak history] in
                    // Once: not when Ctrl+Z took it back already.
                    if let history, let step, history.take(step) == nil { return }
                    self?.putBack(removal)
                }
            case .success:
                break
            case .failure(let problem):
                Dialogs.inform(self.window, title: tr("The Photos Were Not Removed"), details: problem.message)
            }
        }
    }

    /// Puts photos removed from an album back in their places.
    func putBack(_ removal: CollectionRemoval) {
        toasts.dismissActionable()
        YourAlbums.shared.restore([removal]) { [weak self] problems in self?.inform(problems, title: tr("The Photos Were Not Put Back")) }
    }

    // MARK: Undo

    /// Ctrl+Z: takes back the newest step of the window's history, whichever album it was
    /// done in: photos moved to the trash, removed from an album, an album deleted.
    func undoLast() {
        guard let folder, let step = folder.history.takeLast() else { return }
        switch step {
        case .trash(let batch): folder.edit.restore(batch)
        case .albumRemoval(let removal): putBack(removal)
        case .albumDeletion(let deleted, let wasShown): undoDelete(deleted, show: wasShown)
        case .rename(let from, let to): undoRename(from: from, to: to)
        case .rotation(let uri, let previous): rotationSaving.undo(uri, back: previous, in: folder)
        case .marks(let back): marking.undo(back)
        }
    }

    func inform(_ problems: [CollectionProblem], title: String) {
        guard !problems.isEmpty else { return }
        Dialogs.inform(window, title: title, details: problems.map(\.message).joined(separator: "\n"))
    }
}
