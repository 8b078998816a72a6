import CGtk
import PhotoCore

/// The bar under the grid in edit mode: how many photos are selected and what can be done
/// with them. Its buttons are window actions (`win.select-all`, `win.export`, …), enabled
/// by the window's `ActionPolicy` (nothing selected: nothing to export).
@MainActor
final class EditBar {
    let root: Widget
    private let count: Widget
    private let removeFromAlbum: Widget

    init() {
        let bar = gtk_center_box_new()!
        gtk_widget_add_css_class(bar, "toolbar")
        gtk_widget_add_css_class(bar, "edit-bar")
        let start = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let done = Self.button(tr("Done"), action: "win.leave-edit", tooltip: tr("Leave Edit Mode (Escape)"))
        let all = Self.button(tr("Select All"), action: "win.select-all", tooltip: tr("Ctrl+A"))
        let none = Self.button(tr("Select None"), action: "win.select-none", tooltip: tr("Ctrl+Shift+A"))
        for child in [done, all, none] { gtk_box_append(start.cast(), child) }
        count = gtk_label_new(nil)
        gtk_widget_add_css_class(count, "heading")
        let end = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let addToAlbum = Self.button(tr("Add to Album…"), action: "win.add-to-album", tooltip: tr("Add the selected photos to an album of yours (Ctrl+D)"))
        removeFromAlbum = Self.button(tr("Remove from Album"), action: "win.remove-from-album",
                                      tooltip: tr("Take the selected photos out of this album; the files stay where they are"))
        gtk_widget_set_visible(removeFromAlbum, 0)
        let export = Self.button(tr("Export…"), action: "win.export", tooltip: tr("Copy the selected photos to a folder"))
        let trash = Self.button(tr("Move to Trash"), action: "win.trash", tooltip: tr("Move the selected photos to the trash (Delete)"))
        gtk_widget_add_css_class(trash, "destructive-action")
        for child in [addToAlbum, removeFromAlbum, export, trash] { gtk_box_append(end.cast(), child) }
        gtk_center_box_set_start_widget(bar.cast(), start)
        gtk_center_box_set_center_widget(bar.cast(), count)
        gtk_center_box_set_end_widget(bar.cast(), end)

        root = gtk_revealer_new()
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_child(root.cast(), bar)
    }

    private static func button(_ label: String, action: String, tooltip: String) -> Widget {
        let button = gtk_button_new_with_label(label)!
        gtk_actionable_set_action_name(button.cast(), action)
        Texts.setTooltip(button, ShownText(tooltip))
        return button
    }

    func show(_ visible: Bool) { gtk_revealer_set_reveal_child(root.cast(), visible ? 1 : 0) }

    func showCount(_ selected: Int) {
        Texts.setText(label: count, ShownText(trn("%d selected", "%d selected", selected, selected)))
    }

    /// Offers Remove from Album when the album shown is one of the person's own.
    func showRemoveFromAlbum(_ visible: Bool) {
        gtk_widget_set_visible(removeFromAlbum, visible ? 1 : 0)
    }
}
