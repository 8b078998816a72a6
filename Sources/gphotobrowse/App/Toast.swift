import CGtk

/// A short message at the bottom of the window with an optional action ("3 photos moved to
/// the trash — Undo"), hiding itself after a few seconds (GTK 4.8 has no toast of its own).
@MainActor
final class Toast {
    let root: Widget
    private let label: Widget
    private let button: Widget
    private var action: (() -> Void)?
    private var timer: UInt32 = 0

    init() {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "app-toast")
        label = gtk_label_new(nil)
        gtk_label_set_wrap(label.cast(), 1)
        button = gtk_button_new()
        gtk_widget_add_css_class(button, "flat")
        let close = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(close, "flat")
        gtk_widget_add_css_class(close, "circular")
        gtk_widget_set_tooltip_text(close, "Dismiss")
        for child in [label, button, close] { gtk_box_append(box.cast(), child) }

        root = gtk_revealer_new()
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_child(root.cast(), box)
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(root, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(root, 24)
        gtk_widget_set_can_target(root, 1)

        onSignal(button, "clicked") { [weak self] in
            let action = self?.action
            self?.dismiss()
            action?()
        }
        onSignal(close, "clicked") { [weak self] in self?.dismiss() }
    }

    /// Shows `text`, with a button labelled `actionLabel` running `action`, for `seconds`.
    func show(_ text: String, actionLabel: String? = nil, seconds: UInt32 = 6, action: (() -> Void)? = nil) {
        gtk_label_set_text(label.cast(), text)
        gtk_button_set_label(button.cast(), actionLabel ?? "")
        gtk_widget_set_visible(button, actionLabel == nil ? 0 : 1)
        self.action = action
        gtk_revealer_set_reveal_child(root.cast(), 1)
        if timer != 0 { g_source_remove(timer) }
        timer = after(milliseconds: seconds * 1000) { [weak self] in
            self?.timer = 0
            self?.dismiss()
        }
    }

    func dismiss() {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
        action = nil
        gtk_revealer_set_reveal_child(root.cast(), 0)
    }
}
