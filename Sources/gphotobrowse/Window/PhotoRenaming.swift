import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Renaming a photo (F2, Rename… in its menu): the window's `RenamePopover` on the focused
/// tile or over the viewer's title, the rename on a worker (`PhotoRename`, GIO), the photo
/// followed under its new name (its place, selection, focus, the viewer), a toast with
/// Undo, and Ctrl+Z. It needs the popover, the window's title, toasts, jobs and context
/// menu, and what the window shows.
@MainActor
final class PhotoRenaming {
    private let popover: RenamePopover
    /// The window's title: what the popover points at in the viewer.
    private let title: Widget
    private let toasts: Toasts
    private let jobs: WindowJobs
    private let contextMenu: ContextMenu
    private weak var pages: (any ShownPages)?

    init(popover: RenamePopover, title: Widget, toasts: Toasts, jobs: WindowJobs, contextMenu: ContextMenu, pages: any ShownPages) {
        self.popover = popover
        self.title = title
        self.toasts = toasts
        self.jobs = jobs
        self.contextMenu = contextMenu
        self.pages = pages
    }

    private var folder: OpenFolder? { pages?.folder }
    private var isViewerShown: Bool { pages?.isViewerShown ?? false }

    /// The photo F2 renames: the one a menu is open for, the viewer's, the one selected in
    /// edit mode, else the focused tile's (as the window's policy offers Rename).
    private var photoToRename: Photo? {
        guard let folder else { return nil }
        if let photos = contextMenu.photos { return photos.count == 1 ? photos[0] : nil }
        if isViewerShown, let index = folder.viewer.index { return folder.contents.photos[index] }
        if folder.edit.isEditing, !folder.edit.chosen.isEmpty { return folder.edit.chosen.count == 1 ? folder.edit.chosen[0] : nil }
        return folder.grid.focusedTile?.photo.flatMap { folder.contents.photos.photo(id: $0.id) }
    }

    func start() {
        guard let folder, let photo = photoToRename else { return }
        if WebPhotoFiles.isWebAddress(photo.id) { return toasts.show(tr("Photos on the web cannot be renamed.")) }
        guard !photo.isNotFound else { return }
        popover.onRename = { [weak self] uri, name in self?.rename(uri, to: name) }
        popover.onClosed = { [weak self] in
            guard let self, let folder = self.folder else { return }
            if self.isViewerShown { folder.viewer.focus() } else { folder.grid.focusTile(showing: photo.id) }
        }
        if isViewerShown {
            let anchor = title
            let rect = GdkRectangle(x: 0, y: 0, width: gtk_widget_get_width(anchor), height: gtk_widget_get_height(anchor))
            popover.show(uri: photo.id, name: photo.displayName, pointingTo: rect, in: anchor)
        } else {
            guard let rect = folder.grid.tileRect(showing: photo.id) else { return }
            popover.show(uri: photo.id, name: photo.displayName, pointingTo: rect, in: folder.grid.menuAnchor)
        }
    }

    /// Renames on a worker; a refusal goes back to the popover, which stays open.
    private func rename(_ uri: String, to name: String) {
        let started = Trace.millisecondsSinceStart()
        // The popover gives the focus back to the photo's tile when it closes.
        let place = place(of: uri, focused: !isViewerShown)
        // A job of the window: one not started when the window closes never renames; once the
        // file is renamed, the albums follow it whatever happens to the window.
        let owner = MainThreadOwner(self)
        jobs.perform { flag in
            let result = PhotoRename.rename(uri, to: name, cancellation: flag)
            let photo = (try? result.get()).flatMap { FolderListing.photo(at: $0) }
            if Self.followInAlbums(uri, result) { onMain { YourAlbums.shared.reload() } }
            owner.onMain { renaming in
                switch result {
                case .failure(let failure):
                    renaming.popover.showProblem(failure.message)
                case .success(let newURI):
                    renaming.popover.close()
                    if let photo { renaming.follow(uri, to: photo, from: place) }
                    Trace.milestone("renamed", text: "\(parseName(ofURI: newURI)) \(Trace.millisecondsSinceStart() - started)")
                    let step = renaming.folder?.history.record(.rename(from: uri, to: newURI))
                    renaming.toasts.show(tr("Renamed to “%s”", OutsideText(name)), actionLabel: tr("Undo")) { [weak renaming] in
                        guard let renaming, let step, case .rename(let from, let to)? = renaming.folder?.history.take(step) else { return }
                        renaming.undo(from: from, to: to)
                    }
                }
            }
        }
    }

    /// Albums of the person's own that hold the photo at `old` follow it to the name a rename
    /// gave it; true when one changed. On a worker.
    private nonisolated static func followInAlbums(_ old: String, _ result: Result<String, FileOperationFailure>) -> Bool {
        guard case .success(let new) = result else { return false }
        return !YourAlbums.store.renameEverywhere([old: new]).changed.isEmpty
    }

    /// Gives the photo at `to` its old name (at `from`) back.
    func undo(from: String, to: String) {
        toasts.dismissActionable()
        let name = EditController.name(from)
        let place = place(of: to, focused: !isViewerShown && folder?.grid.focusedTile?.photo?.id == to)
        let owner = MainThreadOwner(self)
        jobs.perform { flag in
            let result = PhotoRename.rename(to, to: name, cancellation: flag)
            let photo = (try? result.get()).flatMap { FolderListing.photo(at: $0) }
            if Self.followInAlbums(to, result) { onMain { YourAlbums.shared.reload() } }
            owner.onMain { renaming in
                switch result {
                case .success: if let photo { renaming.follow(to, to: photo, from: place) }
                case .failure(let failure): renaming.toasts.show(tr("The old name was not given back: %s", failure.message), seconds: 10)
                }
            }
        }
    }

    /// Where the photo at a URI was when its rename began: selected, its tile focused. Taken
    /// then, because the folder's monitor may tell of the rename before the rename's answer
    /// comes back, and the photo's selection and focus go with its old name.
    private struct Place {
        let selected: Bool
        let focused: Bool
    }

    private func place(of uri: String, focused: Bool) -> Place {
        guard let edit = folder?.page.edit else { return Place(selected: false, focused: focused) }
        return Place(selected: edit.isEditing && edit.selection.isSelected(uri), focused: focused)
    }

    /// Shows the renamed photo where the old one was: selected if it was, focused if its
    /// tile was, in the viewer if it was shown there.
    private func follow(_ old: String, to photo: Photo, from place: Place) {
        guard let folder else { return }
        let page = folder.page
        if isViewerShown, page.viewer.current?.id == old { page.viewer.renamed[old] = photo.id }
        folder.source.renamed(from: old, to: photo)
        // The folder's monitor may have told of the rename first: the viewer moved on then.
        if isViewerShown { page.viewer.followRename(from: old, to: photo.id) }
        if place.selected, page.edit.isEditing { page.edit.restore(selected: [photo.id]) }
        if place.focused, !isViewerShown, let index = page.contents.photos.index(of: photo.id) { page.grid.reveal(index) }
    }
}

extension PhotoViewer {
    /// This app renamed `old` to `new`, and the album holds `new`: the viewer follows the
    /// photo when it was shown, whichever came first, the rename's answer or the folder's
    /// change (`renamed` covers the answer first; this, the change first).
    func followRename(from old: String, to new: String) {
        guard let replaced, replaced.old == old, current?.id == replaced.by, let index = contents.photos.index(of: new) else { return }
        self.replaced = nil
        rotations.rename(old, to: new)
        show(index, entering: true)
    }
}
