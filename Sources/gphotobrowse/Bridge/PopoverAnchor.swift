import CGtk

/// The widget a popover made once is parented to, as it moves between widgets (a grid's view,
/// the header's title). A widget must not be finalized with a popover still attached, so the
/// popover leaves a widget that is destroyed; the one `destroy` handler this takes on a
/// widget goes when the popover leaves it, so moving back and forth connects nothing more.
@MainActor
final class PopoverAnchor {
    private let popover: Widget
    private(set) var widget: Widget?
    private var destroyHandler: UInt = 0

    init(popover: Widget) {
        self.popover = popover
    }

    /// Whether the popover is on `widget` (on any widget, when nil).
    func isOn(_ widget: Widget?) -> Bool {
        guard let current = self.widget else { return false }
        return widget == nil || current == widget
    }

    /// Parents the popover to `widget`; `destroyed` runs if the widget is destroyed while
    /// the popover is on it (it must call `leave`).
    func attach(to widget: Widget, destroyed: @escaping @MainActor () -> Void) {
        precondition(self.widget == nil, "leave the widget first")
        gtk_widget_set_parent(popover, widget)
        self.widget = widget
        destroyHandler = onSignal(widget, "destroy", destroyed)
    }

    /// Takes the popover off the widget it is on.
    func leave() {
        guard let widget else { return }
        g_signal_handler_disconnect(widget, gulong(destroyHandler))
        gtk_widget_unparent(popover)
        self.widget = nil
    }
}
