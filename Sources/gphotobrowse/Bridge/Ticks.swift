import Bridge
import CGtk

/// Calls `work` with `owner` on each frame of `widget` until it returns false, or until
/// `owner` is gone (`gtk_widget_add_tick_callback`; the box is released with the callback).
@MainActor
func addTickCallback<Owner: AnyObject>(_ widget: Widget, owner: Owner, _ work: @escaping @MainActor (Owner) -> Bool) {
    typealias Body = @MainActor () -> Bool
    let body: Body = { [weak owner] in
        guard let owner else { return false }
        return work(owner)
    }
    gtk_widget_add_tick_callback(widget, { _, _, data in
        let body = CallbackBox.value(data!, as: Body.self)
        return MainActor.assumeIsolated { body() ? 1 : 0 }  // G_SOURCE_CONTINUE : G_SOURCE_REMOVE
    }, CallbackBox.retain(body), { CallbackBox.release($0) })
}

/// Paints `area` (a GtkDrawingArea) with `draw`, called with `owner` and the cairo context
/// while `owner` lives; the box is released when the area goes.
@MainActor
func setDrawFunction<Owner: AnyObject>(_ area: Widget, owner: Owner, _ draw: @escaping @MainActor (Owner, OpaquePointer) -> Void) {
    typealias Body = @MainActor (OpaquePointer) -> Void
    let body: Body = { [weak owner] cairo in
        if let owner { draw(owner, cairo) }
    }
    gtk_drawing_area_set_draw_func(area.cast(), { _, cairo, _, _, data in
        guard let data, let cairo else { return }
        let body = CallbackBox.value(data, as: Body.self)
        // The context crosses assumeIsolated as its address (pointers are not Sendable).
        let address = UInt(bitPattern: cairo)
        MainActor.assumeIsolated { body(OpaquePointer(bitPattern: address)!) }
    }, CallbackBox.retain(body), { CallbackBox.release($0) })
}
