import CGtk
import PhotoCore

/// A page that explains the window's state in place of content (AdwStatusPage): the welcome
/// page when there is no folder to show (with the folders opened before), an empty folder,
/// or a folder that cannot be read, with Retry when trying again may work (a server that
/// could not be reached).
@MainActor
final class StatusPage {
    let root: Widget
    private let openButton: Widget
    private let retryButton: Widget
    private var retry: (() -> Void)?
    /// The folders opened before, on the welcome page.
    let recent = RecentFoldersList()
    /// Counts the states shown, so that a list that comes late is shown only on its page.
    private(set) var shown = 0

    init() {
        root = adw_status_page_new()
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        retryButton = gtk_button_new_with_mnemonic(tr("_Retry"))
        Accessible.name(retryButton, mnemonic: tr("_Retry"))
        gtk_widget_add_css_class(retryButton, "pill")
        openButton = gtk_button_new_with_mnemonic(tr("_Open Folder…"))
        Accessible.name(openButton, mnemonic: tr("_Open Folder…"))
        gtk_widget_add_css_class(openButton, "suggested-action")
        gtk_widget_add_css_class(openButton, "pill")
        gtk_actionable_set_action_name(openButton.cast(), "win.open")
        gtk_widget_set_visible(retryButton, 0)
        // Blank until a state is shown: a window just opened shows this page while what it
        // opens is looked up, and a lone "Open Folder…" there read as the welcome page.
        gtk_widget_set_visible(openButton, 0)
        gtk_box_append(buttons.cast(), retryButton)
        gtk_box_append(buttons.cast(), openButton)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(content.cast(), buttons)
        gtk_box_append(content.cast(), recent.root)
        adw_status_page_set_child(root.cast(), content)
        onSignal(retryButton, "clicked") { [weak self] in self?.retry?() }
    }

    /// Shows a state: an icon name, a title, an explanation, whether to offer "Open Folder…",
    /// and what Retry does, if it is offered.
    func show(icon name: String, title text: String, details explanation: String, offerOpen: Bool, retry: (() -> Void)? = nil) {
        shown += 1
        recent.show([])
        adw_status_page_set_icon_name(root.cast(), name)
        Texts.setTitle(statusPage: root, ShownText(text))
        Texts.setDescription(statusPage: root, ShownText(explanation))
        gtk_widget_set_visible(openButton, offerOpen ? 1 : 0)
        self.retry = retry
        gtk_widget_set_visible(retryButton, retry == nil ? 0 : 1)
        // Retry is what the page is about then: the suggested action.
        if retry != nil {
            gtk_widget_add_css_class(retryButton, "suggested-action")
            gtk_widget_remove_css_class(openButton, "suggested-action")
        } else {
            gtk_widget_add_css_class(openButton, "suggested-action")
        }
    }
}
