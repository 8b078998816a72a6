import CGtk
import PhotoCore

/// The header bar's title (AdwWindowTitle): the folder or photo name, and below it a line
/// of state ("1,234 photos", "Reading dates… 40%"), with a spinner before it while the
/// window waits on a server or a listing. It also sets the window's own title, which window
/// managers and task switchers show.
@MainActor
final class WindowTitle {
    let root: Widget
    private let titles: Widget
    private let spinner: Widget
    private let window: UnsafeMutablePointer<GtkWindow>
    private(set) var isBusy = false
    /// The timer that shows the spinner, while a wait has not lasted long enough (0: none).
    private var spinnerDelay: UInt32 = 0

    init(window: UnsafeMutablePointer<GtkWindow>) {
        self.window = window
        root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        spinner = gtk_spinner_new()
        titles = adw_window_title_new("", "")
        gtk_widget_set_visible(spinner, 0)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        gtk_box_append(root.cast(), spinner)
        gtk_box_append(root.cast(), titles)
    }

    /// Shows the spinner (connecting, downloading a list, listing) once the wait has lasted
    /// half a second, or hides it: a folder listed sooner (most are) shows none, and its
    /// frames are not drawn beside the listing.
    func setBusy(_ busy: Bool) {
        guard busy != isBusy else { return }
        isBusy = busy
        if spinnerDelay != 0 { g_source_remove(spinnerDelay) }
        spinnerDelay = 0
        if busy {
            spinnerDelay = after(milliseconds: 500) { [weak self] in
                guard let self else { return }
                spinnerDelay = 0
                gtk_widget_set_visible(spinner, 1)
                gtk_spinner_start(spinner.cast())
            }
        } else {
            gtk_widget_set_visible(spinner, 0)
            gtk_spinner_stop(spinner.cast())
        }
        Trace.milestone("busy", busy ? 1 : 0)
    }

    /// A title that stays whatever is shown (`--pick --title`).
    var fixedTitle: String? {
        didSet { if let fixedTitle { set(title: fixedTitle) } }
    }

    func set(title text: String, subtitle detail: String? = nil) {
        let text = fixedTitle ?? text
        Texts.setTitle(window: window, ShownText(OutsideText(text)))
        Texts.setTitle(windowTitle: titles, ShownText(OutsideText(text)))
        setSubtitle(detail)
    }

    func setSubtitle(_ detail: String?) {
        Texts.setSubtitle(windowTitle: titles, ShownText(detail ?? ""))
    }
}
