import CGtk
import PhotoCore
import PhotoIO

/// One album as the window shows it: its photos, grid, viewer and edit mode, wired to one
/// another. Each album keeps its own scroll position and selection; the viewer pages within
/// the album it was opened from. `AlbumPages` connects a page to the window (its pages, title,
/// menus).
@MainActor
final class AlbumPage {
    private let live = LiveObjects.Token("AlbumPage")
    let album: AlbumID
    /// Names its grid and viewer among the window's pages ("grid-3", "viewer-3").
    let name: String
    private static var made = 0
    let contents: AlbumContents
    let grid: ThumbnailGrid
    let viewer: PhotoViewer
    let edit: EditController

    init(album: AlbumID, contents: AlbumContents, loader: ThumbnailLoader, tileEdge: Int, parts: WindowParts, history: UndoHistory) {
        self.album = album
        Self.made += 1
        name = String(Self.made)
        self.contents = contents
        grid = ThumbnailGrid(contents: contents, loader: loader, tileEdge: tileEdge)
        viewer = PhotoViewer(contents: contents, thumbnails: loader, decoder: parts.decoder, jobs: parts.jobs)
        edit = EditController(window: parts.parent, contents: contents, grid: grid, bar: parts.editBar,
                              progress: parts.progress, toasts: parts.toasts, history: history, jobs: parts.jobs)

        viewer.isEditing = { [weak edit] in edit?.isEditing ?? false }
        viewer.onToggleSelected = { [weak edit] id in edit?.toggle(id) }
        viewer.isSelected = { [weak edit] id in edit?.selection.isSelected(id) ?? false }
        grid.urisToDrag = { [weak edit] id in
            guard let edit, edit.isEditing, edit.selection.isSelected(id) else { return [id] }
            return edit.chosen.map(\.id)
        }
        installGridKeys()
    }

    /// Shows tiles of `edge` pixels, their thumbnails (and the viewer's placeholders) from `loader`.
    func setTileSize(_ edge: Int, loader: ThumbnailLoader) {
        grid.setTileSize(edge, loader: loader)
        viewer.use(thumbnails: loader)
    }

    /// Cancels the decodes and jobs this album started. Touches no widget.
    func stopWork() {
        edit.cancelJobs()
        viewer.cancelDecode()
    }

    /// Edit mode's keys in the grid, before the grid view's own bindings (which would select
    /// in GTK's model rather than ours).
    private func installGridKeys() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak edit] keyval, state in
            guard let edit else { return false }
            let control = state.rawValue & GDK_CONTROL_MASK.rawValue != 0, shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
            switch Int32(keyval) {
            case GDK_KEY_a where control && !shift, GDK_KEY_A where control && !shift: edit.selectAll()
            case GDK_KEY_a where control && shift, GDK_KEY_A where control && shift: edit.selectNone()
            case GDK_KEY_Escape where edit.isEditing && !edit.isChoosing: edit.leave()
            case GDK_KEY_space where edit.isEditing && !control: edit.toggleFocused()
            default: return false
            }
            return true
        }
        gtk_widget_add_controller(grid.root, keys)
    }
}

/// What every album page of a window uses of it: the window its dialogs go over, the
/// decoder processes, the window's jobs, and the edit bar, progress bar and toasts they share.
@MainActor
struct WindowParts {
    let parent: UnsafeMutablePointer<GtkWindow>
    let decoder: IsolatedDecoder
    let jobs: WindowJobs
    let editBar: EditBar
    let progress: JobProgress
    let toasts: Toasts
}
