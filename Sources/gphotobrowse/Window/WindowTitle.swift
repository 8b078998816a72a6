import CGtk

/// The header bar's title (AdwWindowTitle): the folder or photo name, and below it a line
/// of state ("1,234 photos", "Reading dates… 40%"). It also sets the window's own title,
/// which window managers and task switchers show.
@MainActor
final class WindowTitle {
    let root: Widget
    private let window: UnsafeMutablePointer<GtkWindow>

    init(window: UnsafeMutablePointer<GtkWindow>) {
        self.window = window
        root = adw_window_title_new("", "")
    }

    /// A title that stays whatever is shown (`--pick --title`).
    var fixedTitle: String? {
        didSet { if let fixedTitle { set(title: fixedTitle) } }
    }

    func set(title text: String, subtitle detail: String? = nil) {
        let text = fixedTitle ?? text
        gtk_window_set_title(window, text)
        adw_window_title_set_title(root.cast(), text)
        setSubtitle(detail)
    }

    func setSubtitle(_ detail: String?) {
        adw_window_title_set_subtitle(root.cast(), detail ?? "")
    }
}
