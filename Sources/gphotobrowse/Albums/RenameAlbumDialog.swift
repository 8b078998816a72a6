import CGtk
import PhotoCore

/// "Rename Album…": the album's title in a field; Rename is offered only for a title the
/// album can have (see `CollectionTitle`), and the field says why not otherwise.
@MainActor
final class RenameAlbumDialog {
    private let live = LiveObjects.Token("RenameAlbumDialog")
    private let dialog: UnsafeMutablePointer<AdwMessageDialog>
    private let entry: Widget
    private let problem: Widget
    private let current: String
    private let others: [String]

    /// Asks for a new title for the album titled `current`; `others`: the other albums'
    /// titles. `onRename` runs with the title typed when Rename is chosen.
    static func present(over parent: UnsafeMutablePointer<GtkWindow>, current: String, others: [String],
                        onRename: @escaping (String) -> Void) {
        let dialog = RenameAlbumDialog(parent: parent, current: current, others: others, onRename: onRename)
        gtk_window_present(dialog.dialog.window)
        gtk_widget_grab_focus(dialog.entry)
    }

    private init(parent: UnsafeMutablePointer<GtkWindow>, current: String, others: [String], onRename: @escaping (String) -> Void) {
        self.current = current
        self.others = others
        dialog = Texts.messageDialog(parent, heading: ShownText(tr("Rename Album")), body: nil)
        Texts.setTitle(window: dialog.window, ShownText(tr("Rename Album")))
        gtk_window_set_modal(dialog.window, 1)
        LiveObjects.track(dialog)
        adw_message_dialog_add_response(dialog, "cancel", tr("_Cancel"))
        adw_message_dialog_add_response(dialog, "rename", tr("_Rename"))
        adw_message_dialog_set_response_appearance(dialog, "rename", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(dialog, "rename")
        adw_message_dialog_set_close_response(dialog, "cancel")

        entry = gtk_entry_new()
        gtk_editable_set_text(entry.cast(), current)
        gtk_entry_set_activates_default(entry.cast(), 1)
        problem = gtk_label_new(nil)
        gtk_label_set_wrap(problem.cast(), 1)
        gtk_label_set_xalign(problem.cast(), 0)
        gtk_widget_add_css_class(problem, "error")
        gtk_widget_set_visible(problem, 0)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_box_append(box.cast(), entry)
        gtk_box_append(box.cast(), problem)
        adw_message_dialog_set_extra_child(dialog, box)

        ObjectData.attach(self, to: dialog, key: "gphotobrowse-rename-album")
        onSignal(entry, "changed") { [weak self] in self?.typed() }
        onSignal(dialog, "response", string: { [weak self] response in
            guard let self, response == "rename" else { return }
            onRename(String(cString: gtk_editable_get_text(self.entry.cast())))
        })
        typed()
    }

    private func typed() {
        let text = String(cString: gtk_editable_get_text(entry.cast()))
        var message: String?
        do throws(CollectionProblem) {
            _ = try CollectionTitle.validated(text, among: others)
        } catch {
            message = error.message
        }
        let unchanged = CollectionTitle.normalized(text) == current
        adw_message_dialog_set_response_enabled(dialog, "rename", message == nil && !unchanged ? 1 : 0)
        Texts.setText(label: problem, ShownText(message ?? ""))
        gtk_widget_set_visible(problem, message == nil ? 0 : 1)
    }
}
