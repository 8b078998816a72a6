import CGtk
import PhotoCore

/// The window's actions on the person's own albums: Add to Album… (the selection in edit
/// mode, the photo in the viewer, a context menu's photos), Remove from Album, and Rename
/// Album… and Delete Album for the album shown (`AlbumRenameDelete`); following their changes
/// from any window (`YourAlbums`). It needs the window's toasts, the window its actions and
/// dialogs belong to, and the albums it shows.
@MainActor
final class CollectionActions {
    private weak var toasts: Toasts?
    private weak var albums: (any AlbumsShown)?
    /// The window the actions are on and the dialogs over (it owns this).
    private let parent: UnsafeMutablePointer<GtkWindow>
    /// Renaming and deleting an album, from the main menu or a chip's menu.
    let renameDelete: AlbumRenameDelete
    /// The person's albums followed while the window lives.
    private var observation: Observation?

    init(toasts: Toasts, parent: UnsafeMutablePointer<GtkWindow>, albums: any AlbumsShown) {
        self.toasts = toasts
        self.parent = parent
        self.albums = albums
        renameDelete = AlbumRenameDelete(toasts: toasts, parent: parent, albums: albums)
    }

    /// Adds the actions to the window and follows the person's albums.
    func install() {
        addAction(parent, "add-to-album") { [weak self] in self?.addToAlbum() }
        addAction(parent, "remove-from-album") { [weak self] in self?.removeFromAlbum() }
        addAction(parent, "rename-album") { [weak self] in
            guard let self, let collection = self.albums?.shownCollection else { return }
            self.renameDelete.rename(collection)
        }
        addAction(parent, "delete-album") { [weak self] in
            guard let self, let collection = self.albums?.shownCollection else { return }
            self.renameDelete.delete(collection)
        }
        observation = YourAlbums.shared.observe { [weak self] in self?.collectionsChanged() }
    }

    /// The albums changed (here, in another window or process): the switcher follows, and an
    /// album shown that was deleted gives way to the folder's photos.
    private func collectionsChanged() {
        guard let albums, let shown = albums.shownAlbum else { return }
        if case .collection(let id) = shown, YourAlbums.shared.collection(id) == nil {
            albums.show(.allPhotos)
        }
        albums.albumsChanged()
    }

    // MARK: Adding and removing photos

    private func addToAlbum() {
        // A photo not found is no photo to add.
        guard let albums else { return }
        let uris = albums.photosToActOn.filter { !$0.isNotFound }.map(\.id)
        guard !uris.isEmpty else { return }
        AddToAlbumDialog.present(over: parent, count: uris.count, albums: YourAlbums.shared.summaries) { [weak self] choice in
            switch choice {
            case .new(let title):
                YourAlbums.shared.create(title: title, photos: uris) { [weak self] result in self?.added(uris.count, result) }
            case .existing(let id, _):
                let new = YourAlbums.shared.collection(id)?.countNew(among: uris) ?? uris.count
                YourAlbums.shared.add(uris, to: id) { [weak self] result in self?.added(new, result) }
            }
        }
    }

    private func added(_ count: Int, _ result: Result<PhotoCollection, CollectionProblem>) {
        switch result {
        case .success(let collection):
            toasts?.show(AlbumActionWords.added(count, to: collection.title), actionLabel: tr("Show")) { [weak self] in
                self?.albums?.show(.collection(collection.id))
            }
        case .failure(let problem):
            Dialogs.inform(parent, title: tr("The Photos Were Not Added"), problems: [problem])
        }
    }

    private func removeFromAlbum() {
        guard let albums else { return }
        removeFromAlbum(albums.photosToActOn.map(\.id))
    }

    /// Removes these photos from the album shown, with Undo (the toast's, or Ctrl+Z).
    func removeFromAlbum(_ uris: [String]) {
        guard let collection = albums?.shownCollection, !uris.isEmpty else { return }
        YourAlbums.shared.remove(uris, from: collection.id) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let removal) where !removal.isEmpty:
                let history = self.albums?.undoHistory
                let step = history?.record(.albumRemoval(removal))
                self.toasts?.show(AlbumActionWords.removed(removal.photos.count, from: collection.title), actionLabel: tr("Undo")) { [weak self, weak history] in
                    // Once: not when Ctrl+Z took it back already.
                    if let history, let step, history.take(step) == nil { return }
                    self?.putBack(removal)
                }
            case .success:
                break
            case .failure(let problem):
                Dialogs.inform(self.parent, title: tr("The Photos Were Not Removed"), problems: [problem])
            }
        }
    }

    /// Puts photos removed from an album back in their places.
    func putBack(_ removal: CollectionRemoval) {
        toasts?.dismissActionable()
        YourAlbums.shared.restore([removal]) { [weak self] problems in
            guard let self else { return }
            Dialogs.inform(self.parent, title: tr("The Photos Were Not Put Back"), problems: problems)
        }
    }
}
