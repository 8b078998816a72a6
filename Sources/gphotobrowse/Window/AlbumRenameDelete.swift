import CGtk
import PhotoCore
import PhotoIO

/// Renaming and deleting an album of the person's own, the one shown (the main menu) or any
/// (its chip's menu in the switcher); a deletion is undone from its toast or with Ctrl+Z. It
/// needs the window's toasts, the window its dialogs go over, and the albums it shows.
@MainActor
final class AlbumRenameDelete {
    private weak var toasts: Toasts?
    private weak var albums: (any AlbumsShown)?
    /// The window the dialogs are over (it owns this).
    private let parent: UnsafeMutablePointer<GtkWindow>

    init(toasts: Toasts, parent: UnsafeMutablePointer<GtkWindow>, albums: any AlbumsShown) {
        self.toasts = toasts
        self.parent = parent
        self.albums = albums
    }

    func rename(_ collection: PhotoCollection) {
        let others = YourAlbums.shared.collections.filter { $0.id != collection.id }.map(\.title)
        RenameAlbumDialog.present(over: parent, current: collection.title, others: others) { [weak self] title in
            YourAlbums.shared.rename(collection.id, to: title) { [weak self] result in
                guard let self, case .failure(let problem) = result else { return }
                Dialogs.inform(self.parent, title: tr("The Album Was Not Renamed"), problems: [problem])
            }
        }
    }

    /// Deletes the album (its document waits in the albums folder's `deleted/` for Undo); a
    /// window showing it goes back to the folder.
    func delete(_ collection: PhotoCollection) {
        let wasShown = albums?.shownCollection?.id == collection.id
        YourAlbums.shared.delete(collection.id) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let deleted):
                let history = self.albums?.undoHistory
                let step = history?.record(.albumDeletion(deleted, wasShown: wasShown))
                self.toasts?.show(AlbumActionWords.deleted(collection.title), actionLabel: tr("Undo"), seconds: 10) { [weak self, weak history] in
                    // Once: not when Ctrl+Z took it back already.
                    if let history, let step, history.take(step) == nil { return }
                    self?.undoDelete(deleted, show: wasShown)
                }
            case .failure(let problem):
                Dialogs.inform(self.parent, title: tr("The Album Was Not Deleted"), problems: [problem])
            }
        }
    }

    /// Brings a deleted album back; `show`: the window showed it when it was deleted, and
    /// shows it again.
    func undoDelete(_ deleted: DeletedCollection, show: Bool) {
        toasts?.dismissActionable()
        YourAlbums.shared.undoDelete(deleted) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let back): if show { self.albums?.show(.collection(back.id)) }
            case .failure(let problem): Dialogs.inform(self.parent, title: tr("The Album Was Not Restored"), problems: [problem])
            }
        }
    }
}
