import CGtk
import PhotoCore

/// The context menu of one photo or a few (right click, long press, the Menu key): Open
/// With…, Show in Files, Copy, Export… or Save a Copy…, Add to Album…, Remove from Album
/// (in an album of the person's own), Rename…, Save Rotation (while the viewer's photo is
/// turned), Move to Trash, Print…, Set as Background…, Properties. Its items
/// are window actions, which act on `photos` while the menu is open.
@MainActor
final class ContextMenu {
    /// The photos the open menu is about; nil when no menu is open.
    private(set) var photos: [Photo]? {
        didSet { onChange() }
    }
    /// The menu opened for other photos, or closed: what the window's actions act on changed.
    var onChange: () -> Void = {}
    /// Whether a menu is open.
    var isOpen: Bool { photos != nil }

    /// The menu's model. `inViewer` names the viewer's Save a Copy… instead of Export….
    static func model(inViewer: Bool) -> OpaquePointer {
        let menu = g_menu_new()!
        let open = g_menu_new()!
        g_menu_append(open, tr("Open With…"), "win.open-with")
        g_menu_append(open, tr("Show in Files"), "win.show-in-files")
        let edit = g_menu_new()!
        g_menu_append(edit, tr("Copy"), "win.copy")
        g_menu_append(edit, inViewer ? tr("Save a Copy…") : tr("Export…"), inViewer ? "win.save-copy" : "win.export")
        g_menu_append(edit, tr("Add to Album…"), "win.add-to-album")
        // Only in an album of the person's own (the action is enabled there).
        let remove = g_menu_item_new(tr("Remove from Album"), "win.remove-from-album")!
        g_menu_item_set_attribute_value(remove, "hidden-when", g_variant_new_string("action-disabled"))
        g_menu_append_item(edit, remove)
        remove.unref()
        g_menu_append(edit, tr("Rename…"), "win.rename")
        g_menu_append(edit, tr("Tags…"), "win.tag")
        // Only while the viewer's photo is turned (the action is enabled then).
        let saveRotation = g_menu_item_new(tr("Save Rotation"), "win.save-rotation")!
        g_menu_item_set_attribute_value(saveRotation, "hidden-when", g_variant_new_string("action-disabled"))
        g_menu_append_item(edit, saveRotation)
        saveRotation.unref()
        g_menu_append(edit, tr("Move to Trash"), "win.trash")
        let share = g_menu_new()!
        g_menu_append(share, tr("Print…"), "win.print")
        g_menu_append(share, tr("Set as Background…"), "win.set-background")
        let details = g_menu_new()!
        g_menu_append(details, tr("Properties"), "win.photo-properties")
        for section in [open, edit, share, details] {
            g_menu_append_section(menu, nil, section.cast())
            section.unref()
        }
        return menu.cast()
    }

    /// The menus made so far, one per widget they pop up on (the grid, the viewer), kept
    /// and reused while that widget shows; `detach` lets one go.
    private var popovers: [(anchor: Widget, inViewer: Bool, popover: OwnedObject<Widget>)] = []

    /// Pops the menu for `photos` up at (x, y) in `widget`.
    func popUp(for photos: [Photo], inViewer: Bool, on widget: Widget, x: Double, y: Double) {
        self.photos = photos
        let (popover, isNew) = popover(on: widget, inViewer: inViewer)
        var point = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(popover.cast(), &point)
        if isNew {
            // A new GtkPopoverMenu adds its section separators from a high-priority idle
            // callback; measured before that, it comes out too short and cuts off its last
            // item. Pop it up once those have run.
            whenIdle { gtk_popover_popup(popover.cast()) }
        } else {
            gtk_popover_popup(popover.cast())
        }
    }

    /// The menu over a tile of `page`'s grid: for the selection when the tile is part of it.
    func popUp(forTile id: String?, of page: AlbumPage, x: Double, y: Double) {
        guard let id, let photo = page.contents.photos.photo(id: id) else { return }
        let photos = page.edit.isEditing && page.edit.selection.isSelected(id) ? page.edit.chosen : [photo]
        popUp(for: photos, inViewer: false, on: page.grid.menuAnchor, x: x, y: y)
    }

    /// The menu over the photo `page`'s viewer shows.
    func popUp(inViewerOf page: AlbumPage, x: Double, y: Double) {
        guard let index = page.viewer.index, index < page.contents.photos.count else { return }
        popUp(for: [page.contents.photos[index]], inViewer: true, on: page.viewer.menuAnchor, x: x, y: y)
    }

    /// Takes the menu off `widget` (it is about to go): a widget must not be finalized with
    /// a popover still attached.
    func detach(from widget: Widget) {
        for entry in popovers where entry.anchor == widget {
            gtk_popover_popdown(entry.popover.pointer.cast())
            gtk_widget_unparent(entry.popover.pointer)
        }
        popovers.removeAll { $0.anchor == widget }
    }

    private func popover(on widget: Widget, inViewer: Bool) -> (Widget, isNew: Bool) {
        if let entry = popovers.first(where: { $0.anchor == widget && $0.inViewer == inViewer }) { return (entry.popover.pointer, false) }
        let model = Self.model(inViewer: inViewer)
        let popover = gtk_popover_menu_new_from_model(model.cast())!
        gtk_widget_set_name(popover, "context-menu")
        model.unref()
        // Its parent holds the popover; this reference is the menu's own, until `detach`.
        let owned = OwnedObject(sharing: popover)
        LiveObjects.track(popover)
        gtk_widget_set_parent(popover, widget)
        gtk_popover_set_has_arrow(popover.cast(), 0)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        onSignal(popover, "closed") { [weak self] in
            // The chosen item's action runs before the menu says it closed; then forget.
            after(milliseconds: 100) { [weak self] in self?.photos = nil }
        }
        if !popovers.contains(where: { $0.anchor == widget }) {
            // A widget must not be finalized with a popover still attached: the window's
            // widgets go before the window's own "destroy".
            onSignal(widget, "destroy") { [weak self] in self?.detach(from: widget) }
        }
        popovers.append((widget, inViewer, owned))
        return (popover, true)
    }
}
