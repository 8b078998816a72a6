import CGtk
import PhotoCore

/// The popover that edits the tags of the photos acted on (Ctrl+T, Tags… in a photo's menu):
/// a field holding the tags they share, separated by commas, and under it the tags already
/// used that complete the word being typed (a click, or Tab for the first, takes one).
/// Enter or Apply writes them; Escape closes.
///
/// One popover per window, parented to the widget it last popped up on, and taken off a
/// widget that goes (`detach`), as `RenamePopover`.
@MainActor
final class TagsPopover {
    private let entry: Widget
    private let applyButton: Widget
    private let suggestionsBox: Widget
    private let anchor: PopoverAnchor
    private var editing: TagEditing?
    /// How often each tag is used by the photos whose marks are known.
    private var used: [String: Int] = [:]
    private var suggested: [String] = []

    /// Apply was asked for: the change to write (nil: nothing changed).
    var onApply: (MarksChange?) -> Void = { _ in }
    /// The popover closed (the focus goes back where it was).
    var onClosed: () -> Void = {}

    var isOpen: Bool { editing != nil }

    init() {
        anchor = PopoverAnchor(named: "tags")
        let popover = anchor.popover

        let title = Texts.label(ShownText(tr("Edit Tags")))
        gtk_widget_add_css_class(title, "heading")
        gtk_label_set_xalign(title.cast(), 0)
        entry = gtk_entry_new()
        gtk_widget_set_hexpand(entry, 1)
        gtk_entry_set_placeholder_text(entry.cast(), tr("Tags, separated by commas"))
        Accessible.name(entry, tooltip: tr("Tags, separated by commas"))
        applyButton = gtk_button_new_with_mnemonic(tr("_Apply"))
        Accessible.name(applyButton, mnemonic: tr("_Apply"))
        gtk_widget_add_css_class(applyButton, "suggested-action")
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_box_append(row.cast(), entry)
        gtk_box_append(row.cast(), applyButton)
        suggestionsBox = gtk_flow_box_new()
        gtk_flow_box_set_selection_mode(suggestionsBox.cast(), GTK_SELECTION_NONE)
        gtk_flow_box_set_max_children_per_line(suggestionsBox.cast(), 3)
        gtk_widget_set_visible(suggestionsBox, 0)

        PopoverContent.setColumn(of: popover, [title, row, suggestionsBox], width: 360)

        onSignal(entry, "activate") { [weak self] in self?.submit() }
        onSignal(applyButton, "clicked") { [weak self] in self?.submit() }
        onSignal(entry, "changed") { [weak self] in self?.showSuggestions() }
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] keyval, _ in
            guard let self, keyval == UInt32(GDK_KEY_Tab), let first = self.suggested.first else { return false }
            self.complete(with: first)
            return true
        }
        gtk_widget_add_controller(entry, keys)
        onSignal(popover, "closed") { [weak self] in
            guard let self else { return }
            self.editing = nil
            self.onClosed()
        }
    }

    /// Pops up over `rect` in `widget` for photos having `photosTags`, completing from the
    /// tags `used` (with how many photos have each).
    func show(photosTags: [[String]], used: [String: Int], pointingTo rect: GdkRectangle, in widget: Widget) {
        anchor.move(to: widget)
        let editing = TagEditing(photosTags: photosTags)
        self.editing = editing
        self.used = used
        // A field ending in a comma is ready for the next tag.
        gtk_editable_set_text(entry.cast(), editing.shared.isEmpty ? "" : editing.text + ", ")
        showSuggestions()
        anchor.popUp(pointingTo: rect)
        gtk_widget_grab_focus(entry)
        gtk_editable_set_position(entry.cast(), -1)
    }

    func close() {
        gtk_popover_popdown(anchor.popover.cast())
    }

    /// Takes the popover off `widget` (it is about to go), or off any.
    func detach(from widget: Widget? = nil) {
        anchor.leave(widget)
    }

    private var typed: String { String(cString: gtk_editable_get_text(entry.cast())) }

    private func showSuggestions() {
        let tags = TagEditing.suggestions(for: typed, from: used)
        guard tags != suggested else { return }
        suggested = tags
        while let child = gtk_widget_get_first_child(suggestionsBox) { gtk_flow_box_remove(suggestionsBox.cast(), child) }
        for tag in tags {
            let button = gtk_button_new()!
            Texts.setLabel(button: button, ShownText(OutsideText(tag)))
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_set_focus_on_click(button, 0)
            onSignal(button, "clicked") { [weak self] in self?.complete(with: tag) }
            gtk_flow_box_append(suggestionsBox.cast(), button)
        }
        let wasShown = gtk_widget_get_visible(suggestionsBox) != 0
        gtk_widget_set_visible(suggestionsBox, tags.isEmpty ? 0 : 1)
        // GTK 4.8 keeps an open popover's size when its contents grow or shrink: lay it out again.
        if wasShown != !tags.isEmpty, isOpen { gtk_popover_present(anchor.popover.cast()) }
    }

    private func complete(with tag: String) {
        gtk_editable_set_text(entry.cast(), TagEditing.completing(typed, with: tag))
        gtk_widget_grab_focus(entry)
        gtk_editable_set_position(entry.cast(), -1)
    }

    private func submit() {
        guard let editing else { return }
        let change = editing.change(typed: typed)
        close()
        onApply(change)
    }
}
