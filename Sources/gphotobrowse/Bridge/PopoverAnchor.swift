import CGtk

/// A popover made once per window and the widget it is parented to, as it moves between
/// widgets (a grid's view, the header's title). A widget must not be finalized with a
/// popover still attached, so the popover leaves a widget that is destroyed; the one
/// `destroy` handler this takes on a widget goes when the popover leaves it, so moving back
/// and forth connects nothing more.
@MainActor
final class PopoverAnchor {
    private let owned: OwnedObject<Widget>
    private(set) var widget: Widget?
    private var destroyHandler: UInt = 0
    /// Closes the popover before it leaves a widget (nil: it is popped down).
    var close: (@MainActor () -> Void)?

    /// The popover, named `name` (tests find it by that name).
    var popover: Widget { owned.pointer }

    init(named name: String) {
        let popover = gtk_popover_new()!
        gtk_widget_set_name(popover, name)
        popover.refSink()
        owned = OwnedObject(taking: popover)
        LiveObjects.track(popover)
    }

    /// Whether the popover is on `widget` (on any widget, when nil).
    func isOn(_ widget: Widget?) -> Bool {
        guard let current = self.widget else { return false }
        return widget == nil || current == widget
    }

    /// Parents the popover to `widget`, closing it on the widget it was on first.
    func move(to widget: Widget) {
        guard !isOn(widget) else { return }
        leave()
        gtk_widget_set_parent(popover, widget)
        self.widget = widget
        destroyHandler = onSignal(widget, "destroy") { [weak self] in self?.leave(widget) }
    }

    /// Pops the popover up over `rect`, in the coordinates of the widget it is on.
    func popUp(pointingTo rect: GdkRectangle) {
        var rect = rect
        gtk_popover_set_pointing_to(popover.cast(), &rect)
        gtk_popover_popup(popover.cast())
    }

    /// Closes the popover and takes it off `widget` (it is about to go), or off any.
    func leave(_ widget: Widget? = nil) {
        guard isOn(widget), let current = self.widget else { return }
        if let close { close() } else { gtk_popover_popdown(popover.cast()) }
        g_signal_handler_disconnect(current, gulong(destroyHandler))
        gtk_widget_unparent(popover)
        self.widget = nil
    }
}
