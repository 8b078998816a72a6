import CGtk

/// A page that explains the window's state in place of content: the welcome page when
/// there is no folder to show, an empty folder, or a folder that cannot be read.
@MainActor
final class StatusPage {
    let root: Widget
    private let icon: Widget
    private let title: Widget
    private let details: Widget
    private let button: Widget

    init() {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)
        gtk_widget_set_valign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(root, 36)
        gtk_widget_set_margin_end(root, 36)
        gtk_widget_add_css_class(root, "status-page")

        icon = gtk_image_new()
        gtk_image_set_pixel_size(icon.cast(), 128)
        gtk_widget_add_css_class(icon, "dim-label")
        title = gtk_label_new(nil)
        gtk_widget_add_css_class(title, "title-1")
        gtk_label_set_wrap(title.cast(), 1)
        gtk_label_set_justify(title.cast(), GTK_JUSTIFY_CENTER)
        details = gtk_label_new(nil)
        gtk_label_set_wrap(details.cast(), 1)
        gtk_label_set_justify(details.cast(), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(details.cast(), 60)
        button = gtk_button_new_with_mnemonic("_Open Folder…")
        gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(button, "suggested-action")
        gtk_widget_add_css_class(button, "pill")
        gtk_actionable_set_action_name(button.cast(), "win.open")

        for child in [icon, title, details, button] { gtk_box_append(root.cast(), child) }
    }

    /// Shows a state: an icon name, a title, an explanation, and whether to offer "Open Folder…".
    func show(icon name: String, title text: String, details explanation: String, offerOpen: Bool) {
        gtk_image_set_from_icon_name(icon.cast(), name)
        gtk_label_set_text(title.cast(), text)
        gtk_label_set_text(details.cast(), explanation)
        gtk_widget_set_visible(details, explanation.isEmpty ? 0 : 1)
        gtk_widget_set_visible(button, offerOpen ? 1 : 0)
    }
}
