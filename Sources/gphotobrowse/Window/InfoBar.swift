import CGtk
import PhotoCore

/// A bar under the header bar with a message and Retry: the window shows copies saved on this
/// computer (a web album whose server could not be reached), or no decoder process starts
/// (`DecodingBanner`). libadwaita 1.2 has no AdwBanner: this one looks like it (the accent
/// colours, a label and a button).
@MainActor
final class InfoBar {
    let root: Widget
    private let label: Widget
    private let button: Widget
    private var retry: (() -> Void)?

    init() {
        root = gtk_revealer_new()
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(bar, "offline-banner")
        label = gtk_label_new(nil)
        gtk_label_set_wrap(label.cast(), 1)
        gtk_label_set_xalign(label.cast(), 0)
        gtk_widget_set_hexpand(label, 1)
        button = gtk_button_new_with_mnemonic(tr("_Retry"))!
        Accessible.name(button, mnemonic: tr("_Retry"))
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_box_append(bar.cast(), label)
        gtk_box_append(bar.cast(), button)
        gtk_revealer_set_child(root.cast(), bar)
        onSignal(button, "clicked") { [weak self] in self?.retry?() }
    }

    /// Shows `message`, Retry doing `retry` (no Retry when nil).
    func show(_ message: ShownText, retry: (() -> Void)?) {
        Texts.setText(label: label, message)
        self.retry = retry
        gtk_widget_set_visible(button, retry == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(root.cast(), 1)
    }

    func hide() {
        retry = nil
        gtk_revealer_set_reveal_child(root.cast(), 0)
    }
}
