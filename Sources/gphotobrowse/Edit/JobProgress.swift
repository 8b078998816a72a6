import CGtk
import PhotoCore

/// A long job's progress under the grid: what it is doing, a bar, and Cancel.
@MainActor
final class JobProgress {
    let root: Widget
    private let label: Widget
    private let bar: Widget
    private var cancel: (() -> Void)?

    init() {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "toolbar")
        gtk_widget_add_css_class(box, "job-progress")
        label = gtk_label_new(nil)
        gtk_label_set_xalign(label.cast(), 0)
        bar = gtk_progress_bar_new()
        gtk_widget_set_hexpand(bar, 1)
        gtk_widget_set_valign(bar, GTK_ALIGN_CENTER)
        let cancelButton = gtk_button_new_with_label(tr("Cancel"))!
        for child in [label, bar, cancelButton] { gtk_box_append(box.cast(), child) }
        root = gtk_revealer_new()
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_child(root.cast(), box)
        onSignal(cancelButton, "clicked") { [weak self] in self?.cancel?() }
    }

    /// Shows a job; `cancel` runs when the person presses Cancel.
    func start(_ text: String, cancel: @escaping () -> Void) {
        self.cancel = cancel
        Texts.setText(label: label, ShownText(text))
        gtk_progress_bar_set_fraction(bar.cast(), 0)
        gtk_revealer_set_reveal_child(root.cast(), 1)
    }

    func update(_ text: String, fraction: Double) {
        Texts.setText(label: label, ShownText(text))
        gtk_progress_bar_set_fraction(bar.cast(), fraction)
    }

    func finish() {
        cancel = nil
        gtk_revealer_set_reveal_child(root.cast(), 0)
    }
}
