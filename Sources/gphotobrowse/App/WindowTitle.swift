import CGtk

/// The header bar's title: the folder or photo name, and below it a line of state
/// ("1,234 photos", "Reading dates… 40%"). It also sets the window's own title, which
/// window managers and task switchers show.
@MainActor
final class WindowTitle {
    let root: Widget
    private let title: Widget
    private let subtitle: Widget
    private let window: UnsafeMutablePointer<GtkWindow>

    init(window: UnsafeMutablePointer<GtkWindow>) {
        self.window = window
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_set_valign(root, GTK_ALIGN_CENTER)
        title = gtk_label_new(nil)
        gtk_widget_add_css_class(title, "title")
        gtk_label_set_ellipsize(title.cast(), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_single_line_mode(title.cast(), 1)
        subtitle = gtk_label_new(nil)
        gtk_widget_add_css_class(subtitle, "subtitle")
        gtk_widget_add_css_class(subtitle, "dim-label")
        gtk_label_set_ellipsize(subtitle.cast(), PANGO_ELLIPSIZE_END)
        gtk_widget_set_visible(subtitle, 0)
        gtk_box_append(root.cast(), title)
        gtk_box_append(root.cast(), subtitle)
    }

    func set(title text: String, subtitle detail: String? = nil) {
        gtk_window_set_title(window, text)
        gtk_label_set_text(title.cast(), text)
        setSubtitle(detail)
    }

    func setSubtitle(_ detail: String?) {
        gtk_label_set_text(subtitle.cast(), detail ?? "")
        gtk_widget_set_visible(subtitle, detail?.isEmpty == false ? 1 : 0)
    }
}
