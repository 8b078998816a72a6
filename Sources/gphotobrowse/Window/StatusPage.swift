import CGtk
import PhotoCore

/// A page that explains the window's state in place of content (AdwStatusPage): the welcome
/// page when there is no folder to show, an empty folder, or a folder that cannot be read.
@MainActor
final class StatusPage {
    let root: Widget
    private let button: Widget

    init() {
        root = adw_status_page_new()
        button = gtk_button_new_with_mnemonic(tr("_Open Folder…"))
        gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(button, "suggested-action")
        gtk_widget_add_css_class(button, "pill")
        gtk_actionable_set_action_name(button.cast(), "win.open")
        adw_status_page_set_child(root.cast(), button)
    }

    /// Shows a state: an icon name, a title, an explanation, and whether to offer "Open Folder…".
    func show(icon name: String, title text: String, details explanation: String, offerOpen: Bool) {
        adw_status_page_set_icon_name(root.cast(), name)
        adw_status_page_set_title(root.cast(), text)
        adw_status_page_set_description(root.cast(), explanation.isEmpty ? nil : explanation)
        gtk_widget_set_visible(button, offerOpen ? 1 : 0)
    }
}
