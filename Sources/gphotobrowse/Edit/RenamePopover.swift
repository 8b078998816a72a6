import CGtk
import PhotoCore
import PhotoIO

/// The popover that renames a photo (F2, Rename… in its menu), as Files' rename popover: a
/// field holding the photo's name with the part before the extension selected, Rename, and
/// under them why a name was refused. Enter renames, Escape closes.
///
/// One popover per window, parented to the widget it last popped up on (a grid's view, the
/// header's title), and taken off a widget that goes (`detach`).
@MainActor
final class RenamePopover {
    private let entry: Widget
    private let renameButton: Widget
    private let problem: Widget
    private let anchor: PopoverAnchor
    /// The photo being renamed, while the popover is open.
    private(set) var uri: String?
    private var busy = false

    /// Rename was asked for the photo at this URI, with this name.
    var onRename: (_ uri: String, _ name: String) -> Void = { _, _ in }
    /// The popover closed (the focus goes back where it was).
    var onClosed: () -> Void = {}

    var isOpen: Bool { uri != nil }

    init() {
        anchor = PopoverAnchor(named: "rename")
        let popover = anchor.popover
        gtk_widget_add_css_class(popover, "rename-photo")  // see Style: no shadow

        let title = Texts.label(ShownText(tr("Rename Photo")))
        gtk_widget_add_css_class(title, "heading")
        gtk_label_set_xalign(title.cast(), 0)
        entry = gtk_entry_new()
        gtk_widget_set_hexpand(entry, 1)
        gtk_entry_set_activates_default(entry.cast(), 0)
        renameButton = gtk_button_new_with_mnemonic(tr("_Rename"))
        Accessible.name(renameButton, mnemonic: tr("_Rename"))
        gtk_widget_add_css_class(renameButton, "suggested-action")
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_box_append(row.cast(), entry)
        gtk_box_append(row.cast(), renameButton)
        problem = gtk_label_new(nil)
        gtk_widget_add_css_class(problem, "error")
        gtk_label_set_wrap(problem.cast(), 1)
        gtk_label_set_wrap_mode(problem.cast(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_max_width_chars(problem.cast(), 20)
        gtk_label_set_xalign(problem.cast(), 0)
        gtk_widget_set_visible(problem, 0)

        PopoverContent.setColumn(of: popover, [title, row, problem], width: 340)

        onSignal(entry, "activate") { [weak self] in self?.submit() }
        onSignal(renameButton, "clicked") { [weak self] in self?.submit() }
        onSignal(entry, "changed") { [weak self] in self?.showProblem(nil) }
        onSignal(popover, "closed") { [weak self] in
            guard let self else { return }
            self.uri = nil
            self.busy = false
            self.onClosed()
        }
    }

    /// Pops up over `rect` in `widget` for the photo at `uri` named `name`, the name before
    /// its extension selected.
    func show(uri: String, name: String, pointingTo rect: GdkRectangle, in widget: Widget) {
        anchor.move(to: widget)
        self.uri = uri
        busy = false
        gtk_editable_set_text(entry.cast(), name)
        showProblem(nil)
        gtk_widget_set_sensitive(entry, 1)
        gtk_widget_set_sensitive(renameButton, 1)
        anchor.popUp(pointingTo: rect)
        gtk_widget_grab_focus(entry)
        gtk_editable_select_region(entry.cast(), 0, Int32(PhotoName.stemLength(of: name)))
    }

    /// Says why the name was refused (nil: nothing to say), and lets the person try again.
    func showProblem(_ text: String?) {
        Texts.setText(label: problem, ShownText(text ?? ""))
        let wasShown = gtk_widget_get_visible(problem) != 0
        gtk_widget_set_visible(problem, text == nil ? 0 : 1)
        // GTK 4.8 keeps an open popover's size when its contents grow or shrink: lay it out again.
        if wasShown != (text != nil), isOpen { gtk_popover_present(anchor.popover.cast()) }
        guard text != nil else { return }
        busy = false
        gtk_widget_set_sensitive(entry, 1)
        gtk_widget_set_sensitive(renameButton, 1)
        gtk_widget_grab_focus(entry)
        let typed = String(cString: gtk_editable_get_text(entry.cast()))
        gtk_editable_select_region(entry.cast(), 0, Int32(PhotoName.stemLength(of: typed)))
    }

    func close() {
        gtk_popover_popdown(anchor.popover.cast())
    }

    /// Takes the popover off `widget` (it is about to go), or off any.
    func detach(from widget: Widget? = nil) {
        anchor.leave(widget)
    }

    private func submit() {
        guard let uri, !busy else { return }
        let name = String(cString: gtk_editable_get_text(entry.cast()))
        if let problem = PhotoName.problem(with: name) {
            showProblem(PhotoRename.message(for: problem))
            return
        }
        // While the rename runs on a worker, the field waits.
        busy = true
        gtk_widget_set_sensitive(entry, 0)
        gtk_widget_set_sensitive(renameButton, 0)
        onRename(uri, name)
    }
}
