import CGtk
import PhotoCore

/// "Add to Album…": a dialog (AdwMessageDialog) with a field that searches the person's
/// albums as they type and names a new one, and the list of albums under it. Choosing an
/// album (a click, or Enter for the first in the list) or "New Album “…”" closes it and
/// reports the choice; a name no album can have says why under the field.
@MainActor
final class AddToAlbumDialog {
    enum Choice: Equatable {
        case existing(id: String, title: String)
        case new(title: String)
    }

    private let live = LiveObjects.Token("AddToAlbumDialog")
    private let dialog: UnsafeMutablePointer<AdwMessageDialog>
    private let entry: Widget
    private let problem: Widget
    private let list: Widget
    private let newRow: Widget
    private let newLabel: Widget
    private let albums: [AlbumSummary]
    /// The rows of the albums, in `albums`' order.
    private var rows: [Widget] = []
    private var query = ""
    private let onChoose: (Choice) -> Void

    /// Asks which album to add `count` photos to, over `parent`; `onChoose` runs once a
    /// choice is made (not when the dialog is cancelled).
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWindow>, count: Int, albums: [AlbumSummary],
                        onChoose: @escaping (Choice) -> Void) -> AddToAlbumDialog {
        let dialog = AddToAlbumDialog(parent: parent, count: count, albums: albums, onChoose: onChoose)
        gtk_window_present(dialog.dialog.window)
        gtk_widget_grab_focus(dialog.entry)
        return dialog
    }

    private init(parent: UnsafeMutablePointer<GtkWindow>, count: Int, albums: [AlbumSummary], onChoose: @escaping (Choice) -> Void) {
        self.albums = albums
        self.onChoose = onChoose
        dialog = Texts.messageDialog(parent, heading: ShownText(trn("Add %d Photo to an Album", "Add %d Photos to an Album", count, count)),
                                     body: ShownText(albums.isEmpty ? tr("Name a new album for them.") : tr("Choose an album, or name a new one.")))
        Texts.setTitle(window: dialog.window, ShownText(tr("Add to Album")))
        gtk_window_set_modal(dialog.window, 1)
        LiveObjects.track(dialog)
        adw_message_dialog_add_response(dialog, "cancel", tr("_Cancel"))
        adw_message_dialog_set_close_response(dialog, "cancel")

        entry = gtk_entry_new()
        gtk_entry_set_placeholder_text(entry.cast(), albums.isEmpty ? tr("Album name") : tr("Search, or name a new album"))
        Texts.setTooltip(entry, ShownText(tr("Enter adds the photos to the first album listed")))
        problem = gtk_label_new(nil)
        gtk_label_set_wrap(problem.cast(), 1)
        gtk_label_set_xalign(problem.cast(), 0)
        gtk_widget_add_css_class(problem, "error")
        gtk_widget_set_visible(problem, 0)

        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(list.cast(), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        (newRow, newLabel) = Self.row(title: "", count: nil, icon: "list-add-symbolic")
        gtk_list_box_append(list.cast(), newRow)
        for album in albums {
            let (row, _) = Self.row(title: album.title, count: album.count, icon: nil)
            gtk_list_box_append(list.cast(), row)
            rows.append(row)
        }
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(scroller.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_max_content_height(scroller.cast(), 280)
        gtk_scrolled_window_set_propagate_natural_height(scroller.cast(), 1)
        gtk_scrolled_window_set_child(scroller.cast(), list)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        for child in [entry, problem, scroller] { gtk_box_append(box.cast(), child) }
        adw_message_dialog_set_extra_child(dialog, box)

        // The dialog holds this controller until it is destroyed.
        ObjectData.attach(self, to: dialog, key: "gphotobrowse-add-to-album")
        onSignal(entry, "changed") { [weak self] in self?.typed() }
        onSignal(entry, "activate") { [weak self] in self?.chooseFirst() }
        onSignal(list, "row-activated", pointer: { [weak self] row in
            guard let self, let row else { return }
            self.choose(row: Widget(raw: row))
        })
        typed()
    }

    private static func row(title: String, count: Int?, icon: String?) -> (Widget, label: Widget) {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_set_margin_top(box, 10)
        gtk_widget_set_margin_bottom(box, 10)
        gtk_widget_set_margin_start(box, 12)
        gtk_widget_set_margin_end(box, 12)
        if let icon { gtk_box_append(box.cast(), gtk_image_new_from_icon_name(icon)) }
        let label = Texts.label(ShownText(OutsideText(title)))
        gtk_label_set_xalign(label.cast(), 0)
        // A long name wraps (the dialog is narrow), and only one longer than three lines is
        // shortened, in its middle: its end, often what tells two names apart, stays.
        gtk_label_set_wrap(label.cast(), 1)
        gtk_label_set_wrap_mode(label.cast(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_lines(label.cast(), 3)
        gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_set_hexpand(label, 1)
        gtk_box_append(box.cast(), label)
        if let count {
            let number = Texts.label(ShownText(count.formatted()))
            gtk_widget_add_css_class(number, "dim-label")
            gtk_widget_add_css_class(number, "numeric")
            gtk_box_append(box.cast(), number)
        }
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(row.cast(), box)
        return (row, label)
    }

    // MARK: Typing and choosing

    private var search: AlbumSearch { AlbumSearch(query: query, titles: albums.map(\.title)) }

    private func typed() {
        query = String(cString: gtk_editable_get_text(entry.cast()))
        let search = self.search
        let shown = Set(search.matches)
        for (index, row) in rows.enumerated() { gtk_widget_set_visible(row, shown.contains(index) ? 1 : 0) }
        var message = search.problem?.message
        if search.exact != nil, let taken = message { message = taken + " " + tr("Enter adds the photos to it.") }
        Texts.setText(label: newLabel, ShownText(tr("New Album “%s”", search.newTitle ?? "")))
        gtk_widget_set_visible(newRow, search.newTitle == nil ? 0 : 1)
        Texts.setText(label: problem, ShownText(message ?? ""))
        gtk_widget_set_visible(problem, message == nil ? 0 : 1)
    }

    /// Enter: the album titled as typed, else a new album of that title, else the first
    /// album listed.
    private func chooseFirst() {
        switch search.firstChoice {
        case .existing(let index): choose(row: rows[index])
        case .new: choose(row: newRow)
        case nil: break
        }
    }

    private func choose(row: Widget) {
        if row == newRow {
            guard gtk_widget_get_visible(newRow) != 0 else { return }
            guard let title = search.newTitle else { return }
            return finish(.new(title: title))
        }
        guard let index = rows.firstIndex(of: row), case .collection(let id) = albums[index].id else { return }
        finish(.existing(id: id, title: albums[index].title))
    }

    private func finish(_ choice: Choice) {
        let onChoose = self.onChoose
        gtk_window_destroy(dialog.window)
        onChoose(choice)
    }
}
