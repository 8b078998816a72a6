import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Edit mode for one open folder: the selection (the core's `SelectionModel`, kept by photo
/// identity), and what is done with it — export to a folder, move to the trash with undo,
/// delete permanently after asking.
@MainActor
final class EditController {
    private let live = LiveObjects.Token("EditController")
    private let window: UnsafeMutablePointer<GtkWindow>
    private let contents: AlbumContents
    private let grid: ThumbnailGrid
    private let bar: EditBar
    private let progress: JobProgress
    private let toasts: Toasts
    private(set) var selection = SelectionModel()
    /// What can be undone, shared by the window's albums: Ctrl+Z restores the last batch
    /// moved to the trash whichever album it was trashed from.
    private let history: UndoHistory
    private var exportFlag: CancellationFlag?
    /// The window's jobs: trash, restore, permanent deletion and export run as its jobs
    /// (an export stops when the window closes; moves to and from the trash finish).
    private let jobs: WindowJobs

    /// Edit mode started or ended.
    var onEditingChanged: (Bool) -> Void = { _ in }
    /// How many photos are selected changed.
    var onCountChanged: (Int) -> Void = { _ in }
    /// An export started or ended.
    var onJobChanged: () -> Void = {}
    /// Whether an export is under way (one at a time).
    var isExporting: Bool { exportFlag != nil }
    /// Choosing photos for `--pick --multiple`: edit mode's check boxes, always on, and no
    /// edit bar (the header's Choose button acts on the selection).
    var isChoosing = false {
        didSet { if isChoosing && !isEditing { enter() } }
    }

    init(window: UnsafeMutablePointer<GtkWindow>, contents: AlbumContents, grid: ThumbnailGrid,
         bar: EditBar, progress: JobProgress, toasts: Toasts, history: UndoHistory, jobs: WindowJobs) {
        self.window = window
        self.jobs = jobs
        self.contents = contents
        self.grid = grid
        self.bar = bar
        self.progress = progress
        self.toasts = toasts
        self.history = history
        grid.isSelected = { [weak self] id in self?.selection.isSelected(id) ?? false }
        grid.onSelectClick = { [weak self] id, extend in self?.clicked(id, extend: extend) }
        grid.onRubberBand = { [weak self] selected, _ in
            guard let self else { return }
            self.changed(self.selection.select(selected))
        }
        contents.observeChanges { [weak self] splice in
            guard let self else { return }
            self.changed(self.selection.apply(splice, to: self.contents.photos))
        }
    }

    var isEditing: Bool { selection.isEditing }

    // MARK: Selecting

    func enter() { changed(selection.enter()) }
    func leave() {
        guard !isChoosing else { return }
        changed(selection.leave())
    }
    func toggleEditing() { isEditing ? leave() : enter() }
    func selectAll() {
        if !isEditing { enter() }
        changed(selection.selectAll(in: contents.photos))
    }
    func selectNone() { changed(selection.selectNone()) }
    /// Enters edit mode with these photos selected (an album shown again).
    func restore(selected ids: [String]) {
        if !isEditing { enter() }
        changed(selection.select(ids))
    }

    /// Toggles one photo (the viewer's Space, a click in edit mode).
    func toggle(_ id: String) {
        if !isEditing { changed(selection.enter()) }
        changed(selection.toggle(id))
    }

    private func clicked(_ id: String, extend: Bool) {
        if !isEditing { changed(selection.enter()) }
        changed(extend ? selection.selectRange(to: id, in: contents.photos) : selection.toggle(id))
    }

    private func changed(_ change: SelectionChange) {
        guard !change.isEmpty else { return }
        if change.editingChanged {
            grid.setEditing(selection.isEditing)
            onEditingChanged(selection.isEditing)
        } else {
            grid.refreshSelection()
        }
        bar.showCount(selection.count)
        onCountChanged(selection.count)
    }

    /// Toggles the photo of the tile with the keyboard focus (Space in the grid in edit mode).
    func toggleFocused() {
        guard isEditing, let id = grid.focusedTile?.photo?.id else { return }
        toggle(id)
    }

    /// Shows this album's selection count in the edit bar (the window switched to it).
    func showCount() { bar.showCount(selection.count) }

    /// The photos to act on: the selection in edit mode, in display order.
    var chosen: [Photo] {
        selection.selected(in: contents.photos).compactMap { contents.photos.photo(id: $0) }
    }

    // MARK: Moving to the trash

    /// Moves `photos` to the trash without asking, and offers Undo. Where a photo's folder
    /// has no trash, asks before deleting it for good. A photo's companion files (the RAW
    /// beside a JPEG) go with it, and come back with it.
    func trash(_ photos: [Photo]) {
        guard !photos.isEmpty else { return }
        // A web photo is the server's: there is nothing of it here to trash.
        if photos.allSatisfy({ WebPhotoFiles.isWebAddress($0.id) }) {
            toasts.show(tr("Photos on the web cannot be moved to the trash."))
            return
        }
        let uris = photos.flatMap(\.fileIDs).filter { !WebPhotoFiles.isWebAddress($0) }
        let shown = Set(photos.map(\.id))
        let owner = MainThreadOwner(self)
        jobs.run { _ in
            let results = Trash.move(uris)
            // Trashed photos leave the person's albums; Undo puts them back.
            let trashed = results.filter(\.isTrashed).map(\.uri)
            let removals = trashed.isEmpty ? [] : YourAlbums.store.removeEverywhere(trashed).removals
            owner.onMain { edit in edit.trashed(results, albumRemovals: removals, shown: shown) }
        }
    }

    /// `shown`: the ids of the photos asked for, to count photos rather than files.
    private func trashed(_ results: [TrashResult], albumRemovals: [CollectionRemoval], shown: Set<String>) {
        let undoable = results.compactMap(\.item)
        let gone = results.filter(\.isTrashed).map(\.uri)
        let noTrash = results.filter { $0.failure?.kind == .notSupported }.map(\.uri)
        let failed = results.filter { $0.failure != nil && $0.failure?.kind != .notSupported }
        if !gone.isEmpty {
            contents.forget(Set(gone))
            if !albumRemovals.isEmpty { YourAlbums.shared.reload() }
            let count = shown.intersection(gone).count
            let photos = count > 0 ? count : gone.count
            let text = trn("%d photo moved to the trash", "%d photos moved to the trash", photos, photos)
            if undoable.isEmpty {
                toasts.show(text)
            } else {
                let step = history.record(.trash(TrashBatch(items: undoable, albumRemovals: albumRemovals)))
                toasts.show(text, actionLabel: tr("Undo")) { [weak self] in
                    guard let self, case .trash(let batch) = self.history.take(step) else { return }
                    self.restore(batch)
                }
            }
        }
        if !failed.isEmpty {
            Dialogs.inform(window, title: tr("Some Photos Were Not Moved to the Trash"),
                           details: failed.map { Self.line($0.uri, $0.failure?.message ?? tr("unknown error")) }.joined(separator: "\n"))
        }
        if !noTrash.isEmpty { deletePermanently(noTrash, reason: tr("There is no trash for the folder these photos are in.")) }
    }

    /// Restores a batch moved to the trash (Ctrl+Z, or Undo in the toast).
    func restore(_ batch: TrashBatch) {
        toasts.dismissActionable()
        let owner = MainThreadOwner(self)
        jobs.run { _ in
            var renamed: [String: String] = [:]
            let failures = batch.items.compactMap { item -> String? in
                switch Trash.restore(item) {
                case .success(let uri):
                    if uri != item.originalURI { renamed[item.originalURI] = uri }
                    return nil
                case .failure(let failure):
                    return Self.line(item.originalURI, failure.message)
                }
            }
            let albumProblems = batch.albumRemovals.isEmpty ? [] : YourAlbums.store.restore(batch.albumRemovals, renamed: renamed).problems
            if !batch.albumRemovals.isEmpty { onMain { YourAlbums.shared.reload() } }
            owner.onMain { edit in
                edit.contents.refresh(batch.items.map(\.originalURI) + Array(renamed.values))
                if !albumProblems.isEmpty {
                    Dialogs.inform(edit.window, title: tr("Some Photos Were Not Put Back in Their Albums"),
                                   details: albumProblems.map(\.message).joined(separator: "\n"))
                }
                if !failures.isEmpty {
                    Dialogs.inform(edit.window, title: tr("Some Photos Could Not Be Restored"), details: failures.joined(separator: "\n"))
                }
            }
        }
    }

    /// Shift+Delete, or no trash: asks, then deletes for good.
    func deletePermanently(_ uris: [String], reason: String? = nil) {
        guard !uris.isEmpty else { return }
        let title = uris.count == 1
            ? tr("Delete “%s” Permanently?", Self.name(uris[0]))
            : trn("Delete %d Photo Permanently?", "Delete %d Photos Permanently?", uris.count, uris.count)
        let details = (reason.map { $0 + " " } ?? "") + tr("Photos deleted permanently cannot be restored.")
        Dialogs.confirm(window, title: title, details: details, action: tr("_Delete")) { [weak self] in
            guard let self else { return }
            let owner = MainThreadOwner(self)
            self.jobs.run { _ in
                let results = zip(uris, Trash.deletePermanently(uris))
                let deleted = results.compactMap { uri, result in (try? result.get()).map { _ in uri } }
                // Gone for good: out of the person's albums too.
                let albumsChanged = !deleted.isEmpty && !YourAlbums.store.removeEverywhere(deleted).removals.isEmpty
                let failures = results.compactMap { uri, result -> String? in
                    if case .failure(let failure) = result { return Self.line(uri, failure.message) }
                    return nil
                }
                if albumsChanged { onMain { YourAlbums.shared.reload() } }
                owner.onMain { edit in
                    edit.contents.forget(Set(deleted))
                    if !failures.isEmpty {
                        Dialogs.inform(edit.window, title: tr("Some Photos Could Not Be Deleted"), details: failures.joined(separator: "\n"))
                    }
                }
            }
        }
    }

    // MARK: Exporting

    /// Asks for a folder and copies `photos` into it byte for byte, with progress and Cancel.
    func export(_ photos: [Photo]) {
        guard !photos.isEmpty, exportFlag == nil else { return }
        FolderChooser.ask(parent: window, title: tr("Export to Folder"), accept: tr("_Export")) { [weak self] folder in
            let target = g_file_get_uri(folder).map { p -> String in defer { g_free(p) }; return String(cString: p) }
            folder.unref()
            guard let self, let target else { return }
            self.run(export: photos.flatMap(\.fileIDs), to: target)
        }
    }

    private func run(export sources: [String], to target: String) {
        let cancel = CancellationFlag()
        exportFlag = cancel
        onJobChanged()
        progress.start(trn("Exporting %d photo…", "Exporting %d photos…", sources.count, sources.count)) { cancel.cancel() }
        let owner = MainThreadOwner(self)
        jobs.run(within: cancel) { flag in
            var lastShown = -1
            let report = PhotoExport.export(sources, to: target, cancellation: flag) { done, total, _ in
                guard done != lastShown else { return }  // once a file, not once a chunk
                lastShown = done
                owner.onMain { edit in
                    edit.progress.update(tr("Exporting %1$d of %2$d…", min(done + 1, total), total), fraction: Double(done) / Double(max(total, 1)))
                }
            }
            owner.onMain { edit in edit.exported(report, cancelled: flag.isCancelled) }
        }
    }

    private func exported(_ report: ExportReport, cancelled: Bool) {
        exportFlag = nil
        onJobChanged()
        progress.finish()
        let copied = report.copies.count
        let failures = report.failures.filter { $0.failure?.kind != .cancelled }
        if !failures.isEmpty {
            Dialogs.inform(window, title: copied == 0 ? tr("The Photos Were Not Exported") : tr("Some Photos Were Not Exported"),
                           details: failures.map { Self.line($0.source, $0.failure?.message ?? "") }.joined(separator: "\n"))
        }
        let text = cancelled
            ? trn("Export cancelled: %d photo exported", "Export cancelled: %d photos exported", copied, copied)
            : trn("%d photo exported", "%d photos exported", copied, copied)
        toasts.show(text)
    }

    /// Cancels an export under way (the window is closing).
    func cancelJobs() { exportFlag?.cancel() }

    /// A line of a report: which file, and what went wrong with it.
    nonisolated static func line(_ uri: String, _ problem: String) -> String {
        // TRANSLATORS: a line of a list of files that could not be handled: the file's name, then why.
        tr("%1$s: %2$s", name(uri), problem)
    }

    nonisolated static func name(_ uri: String) -> String {
        (URL(string: uri)?.lastPathComponent).map { $0.removingPercentEncoding ?? $0 } ?? uri
    }
}
