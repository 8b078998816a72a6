import CGtk
import PhotoCore
import PhotoIO

/// Renaming and deleting an album of the person's own, the one shown (the main menu) or any
/// (its chip's menu in the switcher); a deletion is undone from its toast or with Ctrl+Z.
extension BrowserWindow {
    func renameAlbum(_ collection: PhotoCollection) {
        let others = YourAlbums.shared.collections.filter { $0.id != collection.id }.map(\.title)
        RenameAlbumDialog.present(over: window, current: collection.title, others: others) { [weak self] title in
            YourAlbums.shared.rename(collection.id, to: title) { [weak self] result in
                if case .failure(let problem) = result { self?.inform([problem], title: tr("The Album Was Not Renamed")) }
            }
        }
    }

    /// Deletes the album (its document waits in the albums folder's `deleted/` for Undo); a
    /// window showing it goes back to the folder.
    func deleteAlbum(_ collection: PhotoCollection) {
        let wasShown = shownCollection?.id == collection.id
        YourAlbums.shared.delete(collection.id) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let deleted):
                let history = self.folder?.history
                let step = history?.record(.albumDeletion(deleted, wasShown: wasShown))
                self.toasts.show(tr("Deleted the album “%s”", OutsideText(collection.title)), actionLabel: tr("Undo"), seconds: 10) { [weak self, weak history] in
                    // Once: not when Ctrl+Z took it back already.
                    if let history, let step, history.take(step) == nil { return }
                    self?.undoDelete(deleted, show: wasShown)
                }
            case .failure(let problem):
                self.inform([problem], title: tr("The Album Was Not Deleted"))
            }
        }
    }

    /// Brings a deleted album back; `show`: the window showed it when it was deleted, and
    /// shows it again.
    func undoDelete(_ deleted: DeletedCollection, show: Bool) {
        toasts.dismissActionable()
        YourAlbums.shared.undoDelete(deleted) { [weak self] result in
            switch result {
            case .success(let back): if show { self?.showAlbum(.collection(back.id)) }
            case .failure(let problem): self?.inform([problem], title: tr("The Album Was Not Restored"))
            }
        }
    }
}
