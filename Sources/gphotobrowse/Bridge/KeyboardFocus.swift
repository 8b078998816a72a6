import CGtk

/// The keyboard focus of a widget's window, as the views ask about it.
@MainActor
enum KeyboardFocus {
    /// The widget that has the keyboard focus in `widget`'s window, if any.
    static func current(near widget: Widget) -> Widget? {
        gtk_widget_get_root(widget).flatMap { gtk_root_get_focus($0) }
    }

    /// Whether the keyboard focus is on `widget` or on a widget inside it.
    static func isWithin(_ widget: Widget) -> Bool {
        guard let focus = current(near: widget) else { return false }
        return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
    }
}
