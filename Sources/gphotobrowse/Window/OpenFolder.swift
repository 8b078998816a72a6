import CGtk
import PhotoCore
import PhotoIO

/// Everything that belongs to the folder a window shows: its contents, thumbnail loader,
/// grid, viewer and edit mode, wired to one another. The window connects it to itself
/// (pages, title, menus) in `FolderOpening.swift`.
@MainActor
final class OpenFolder {
    private let live = LiveObjects.Token("OpenFolder")
    let name: String
    /// Where the folder's photos come from.
    let source: FolderSource
    let contents: AlbumContents
    let loader: ThumbnailLoader
    let grid: ThumbnailGrid
    let viewer: PhotoViewer
    let edit: EditController
    /// A photo to open in the viewer as soon as the listing finds it.
    var target: String?

    init(uri: String, name: String, target: String?, order: PhotoOrder, window: BrowserWindow) {
        self.name = name
        self.target = target
        source = FolderSource(uri: uri)
        contents = AlbumContents(id: .folder(uri), order: order, source: source)
        source.attach(contents)
        let scale = Int(gtk_widget_get_scale_factor(window.window.widget))
        loader = ThumbnailLoader(size: .for(edge: ThumbnailGrid.tileEdge * scale))
        grid = ThumbnailGrid(contents: contents, loader: loader)
        viewer = PhotoViewer(contents: contents, thumbnails: loader, decoder: window.decoder)
        edit = EditController(window: window.window, contents: contents, grid: grid, bar: window.editBar,
                              progress: window.progress, toasts: window.toasts)

        viewer.isEditing = { [weak edit] in edit?.isEditing ?? false }
        viewer.onToggleSelected = { [weak edit] id in edit?.toggle(id) }
        viewer.isSelected = { [weak edit] id in edit?.selection.isSelected(id) ?? false }
        grid.urisToDrag = { [weak edit] id in
            guard let edit, edit.isEditing, edit.selection.isSelected(id) else { return [id] }
            return edit.chosen.map(\.id)
        }
        installGridKeys()
    }

    /// Cancels the listing and every decode this folder started. Touches no widget, so it is
    /// safe while the window is being destroyed.
    func stopWork() {
        edit.cancelJobs()
        source.cancel()
        loader.cancelAll()
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
            case GDK_KEY_Escape where edit.isEditing: edit.leave()
            default: return false
            }
            return true
        }
        gtk_widget_add_controller(grid.root, keys)
    }
}
