import CGtk
import PhotoCore

/// The menu of a chip of the person's own album in the switcher: Rename… and Delete, for
/// that album whether or not it is the one shown. A right click, a long press (touch), or
/// the Menu key or Shift+F10 on a focused chip opens it; a folder album's chip, or the
/// heading, has none (a folder's albums are its subfolders, nothing to rename here).
@MainActor
final class AlbumChipMenu {
    private let listView: Widget
    private let popover: OwnedObject<Widget>
    /// The album the open menu is about.
    private var album: String?
    private let chipAt: (_ x: Double, _ y: Double) -> AlbumChip?
    private let focusedChip: () -> AlbumChip?
    private var shownOnce = false

    /// Rename… was chosen for the album with this id.
    var onRename: (String) -> Void = { _ in }
    /// Delete was chosen for the album with this id.
    var onDelete: (String) -> Void = { _ in }

    init(on listView: Widget, chipAt: @escaping (_ x: Double, _ y: Double) -> AlbumChip?, focusedChip: @escaping () -> AlbumChip?) {
        self.listView = listView
        self.chipAt = chipAt
        self.focusedChip = focusedChip

        let menu = g_menu_new()!
        g_menu_append(menu, tr("Rename…"), "chip.rename")
        g_menu_append(menu, tr("Delete"), "chip.delete")
        let popover = gtk_popover_menu_new_from_model(menu.cast())!
        gtk_widget_set_name(popover, "album-chip-menu")
        menu.unref()
        // The list view holds it as its child; this reference is the menu's own.
        self.popover = OwnedObject(sharing: popover)
        LiveObjects.track(popover)
        gtk_widget_set_parent(popover, listView)
        gtk_popover_set_position(popover.cast(), GTK_POS_BOTTOM)

        let actions = g_simple_action_group_new()!
        addAction(actions, "rename") { [weak self] in self?.album.map { self?.onRename($0) } }
        addAction(actions, "delete") { [weak self] in self?.album.map { self?.onDelete($0) } }
        gtk_widget_insert_action_group(listView, "chip", actions.cast())
        actions.unref()
        onSignal(popover, "closed") { [weak self] in
            // The chosen item's action runs before the menu says it closed; then forget.
            after(milliseconds: 100) { [weak self] in
                guard let self, gtk_widget_get_visible(self.popover.pointer) == 0 else { return }
                self.album = nil
            }
        }
        // A widget must not be finalized with a popover still attached.
        onSignal(listView, "destroy") { [popover = self.popover] in gtk_widget_unparent(popover.pointer) }
        installInput()
    }

    private func installInput() {
        let rightClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(rightClick.cast(), 3)
        onPressed(rightClick) { [weak self, rightClick] _, x, y in
            guard let self, let chip = self.chipAt(x, y), self.popUp(for: chip) else { return }
            gtk_gesture_set_state(rightClick.cast(), GTK_EVENT_SEQUENCE_CLAIMED)
        }
        gtk_widget_add_controller(listView, rightClick.cast())

        let longPress = gtk_gesture_long_press_new()!
        gtk_gesture_single_set_touch_only(longPress.cast(), 1)
        onSignal(longPress, "pressed", doubles: { [weak self] x, y in
            guard let self, let chip = self.chipAt(x, y) else { return }
            self.popUp(for: chip)
        })
        gtk_widget_add_controller(listView, longPress.cast())

        let keys = gtk_event_controller_key_new()!
        onKeyPressed(keys) { [weak self] keyval, state in
            let shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
            guard let self, Int32(keyval) == GDK_KEY_Menu || (Int32(keyval) == GDK_KEY_F10 && shift),
                  let chip = self.focusedChip() else { return false }
            return self.popUp(for: chip)
        }
        gtk_widget_add_controller(listView, keys)
    }

    /// Opens the menu under `chip` when it is one of the person's own albums; returns whether it did.
    @discardableResult
    private func popUp(for chip: AlbumChip) -> Bool {
        guard case .collection(let id)? = chip.album?.id else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(chip.root, listView, &bounds) != 0 else { return false }
        album = id
        var rect = GdkRectangle(x: Int32(bounds.origin.x), y: Int32(bounds.origin.y),
                                width: Int32(bounds.size.width), height: Int32(bounds.size.height))
        let popover = self.popover.pointer
        gtk_popover_set_pointing_to(popover.cast(), &rect)
        if shownOnce {
            gtk_popover_popup(popover.cast())
        } else {
            // As the photos' context menu: a new GtkPopoverMenu finishes building itself from
            // an idle callback, and is measured right after it.
            shownOnce = true
            whenIdle { gtk_popover_popup(popover.cast()) }
        }
        return true
    }
}
