import Bridge
import CGtk

/// Connecting Swift closures to GObject signals.
///
/// Each closure is boxed and retained by the signal connection; GLib calls the destroy
/// notify when the connection goes (the instance is finalized or the handler is
/// disconnected), which releases the box. Handlers run on the main thread, where GTK
/// emits its signals, hence `MainActor.assumeIsolated`.
///
/// Signals without arguments use `G_CONNECT_SWAPPED`, so that the box comes first and one
/// thunk serves them all. Signals with arguments need a thunk whose C signature matches
/// the signal's exactly; those below cover the shapes the app uses.

/// A handler as its connection holds it: counted as a live signal connection (`live
/// SignalConnection N`) until GLib lets the connection go.
private struct Connection<Handler> {
    let handler: Handler
    let live = LiveObjects.Token("SignalConnection")
}

private func connect<Handler>(
    _ instance: some GObjectPointer, _ signal: String, _ thunk: UnsafeRawPointer, _ handler: Handler, swapped: Bool
) -> UInt {
    let box = CallbackBox.retain(Connection(handler: handler))
    let release: GClosureNotify = { data, _ in CallbackBox.release(data) }
    return UInt(g_signal_connect_data(
        instance.raw, signal, cgtk_callback(UnsafeMutableRawPointer(mutating: thunk)), box, release,
        swapped ? G_CONNECT_SWAPPED : GConnectFlags(0)))
}

private func box<Handler>(_ data: UnsafeMutableRawPointer?) -> Handler {
    CallbackBox.value(data!, as: Connection<Handler>.self).handler
}

/// `void handler (Instance *)`: clicked, destroy, activate, realize, value-changed…
@MainActor @discardableResult
func onSignal(_ instance: some GObjectPointer, _ signal: String, _ handler: @escaping @MainActor () -> Void) -> UInt {
    typealias H = @MainActor () -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
        MainActor.assumeIsolated { (box(data) as H)() }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: true)
}

/// `void handler (Instance *)` the next time the signal comes only: the handler is
/// disconnected as it is called (a frame clock's next `after-paint`).
@MainActor
func onNextSignal(_ instance: some GObjectPointer, _ signal: String, _ handler: @escaping @MainActor () -> Void) {
    let connection = NextSignal()
    connection.id = onSignal(instance, signal) { [connection] in
        g_signal_handler_disconnect(instance.raw, gulong(connection.id))
        handler()
    }
}

/// A handler's id, for the handler to disconnect itself (`onNextSignal`).
private final class NextSignal {
    var id: UInt = 0
}

/// `void handler (Instance *, gpointer arg)`: list item factory setup/bind/unbind, action activate…
@MainActor @discardableResult
func onSignal(_ instance: some GObjectPointer, _ signal: String, pointer handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> UInt {
    typealias H = @MainActor (UnsafeMutableRawPointer?) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
        MainActor.assumeIsolated { (box(data) as H)(arg) }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (Instance *, guint / gint arg)`: GtkGridView::activate, GtkNativeDialog::response.
@MainActor @discardableResult
func onSignal(_ instance: some GObjectPointer, _ signal: String, integer handler: @escaping @MainActor (Int32) -> Void) -> UInt {
    typealias H = @MainActor (Int32) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
        MainActor.assumeIsolated { (box(data) as H)(arg) }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (Instance *, gpointer object, gint n)`: GtkPrintOperation::draw-page.
@MainActor @discardableResult
func onSignal(_ instance: some GObjectPointer, _ signal: String, pointerAndInteger handler: @escaping @MainActor (UnsafeMutableRawPointer?, Int32) -> Void) -> UInt {
    typealias H = @MainActor (UnsafeMutableRawPointer?, Int32) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, object, n, data in
        MainActor.assumeIsolated { (box(data) as H)(object, n) }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (Instance *, gpointer a, gint n, gpointer b)`: GtkPrintOperation::request-page-setup.
@MainActor @discardableResult
func onSignal(
    _ instance: some GObjectPointer, _ signal: String,
    pointerIntegerPointer handler: @escaping @MainActor (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void
) -> UInt {
    typealias H = @MainActor (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, a, n, b, data in
        MainActor.assumeIsolated { (box(data) as H)(a, n, b) }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (Instance *, const char *arg)`: AdwMessageDialog::response.
@MainActor @discardableResult
func onSignal(_ instance: some GObjectPointer, _ signal: String, string handler: @escaping @MainActor (String) -> Void) -> UInt {
    typealias H = @MainActor (String) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
        let text = arg.map { String(cString: $0) } ?? ""
        MainActor.assumeIsolated { (box(data) as H)(text) }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `gboolean handler (GtkEventControllerKey *, guint keyval, guint keycode, GdkModifierType state)`.
@MainActor @discardableResult
func onKeyPressed(_ controller: some GObjectPointer, _ handler: @escaping @MainActor (_ keyval: UInt32, _ state: GdkModifierType) -> Bool) -> UInt {
    typealias H = @MainActor (UInt32, GdkModifierType) -> Bool
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean = { _, keyval, _, state, data in
        MainActor.assumeIsolated { (box(data) as H)(keyval, state) ? 1 : 0 }
    }
    return connect(controller, "key-pressed", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (GtkGesture *, gint n_press, double x, double y)`: GtkGestureClick::pressed/released.
@MainActor @discardableResult
func onPressed(_ gesture: some GObjectPointer, _ signal: String = "pressed", _ handler: @escaping @MainActor (_ presses: Int32, _ x: Double, _ y: Double) -> Void) -> UInt {
    typealias H = @MainActor (Int32, Double, Double) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, n, x, y, data in
        MainActor.assumeIsolated { (box(data) as H)(n, x, y) }
    }
    return connect(gesture, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `gboolean handler (GtkDropTarget *, const GValue *value, double x, double y)`.
@MainActor @discardableResult
func onDrop(_ target: some GObjectPointer, _ handler: @escaping @MainActor (UnsafePointer<GValue>) -> Bool) -> UInt {
    typealias H = @MainActor (UnsafePointer<GValue>) -> Bool
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<GValue>?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, value, _, _, data in
        guard let value else { return 0 }
        return MainActor.assumeIsolated { (box(data) as H)(value) ? 1 : 0 }
    }
    return connect(target, "drop", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// GtkDropTarget::drop with where it was dropped, in the target widget's coordinates.
@discardableResult @MainActor
func onDropAt(_ target: some GObjectPointer, _ handler: @escaping @MainActor (UnsafePointer<GValue>, Double, Double) -> Bool) -> UInt {
    typealias H = @MainActor (UnsafePointer<GValue>, Double, Double) -> Bool
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<GValue>?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, value, x, y, data in
        guard let value else { return 0 }
        return MainActor.assumeIsolated { (box(data) as H)(value, x, y) ? 1 : 0 }
    }
    return connect(target, "drop", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (GApplication *, GFile **files, gint n_files, const char *hint)`.
@MainActor @discardableResult
func onOpen(_ application: some GObjectPointer, _ handler: @escaping @MainActor ([OpaquePointer]) -> Void) -> UInt {
    typealias H = @MainActor ([OpaquePointer]) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, files, count, _, data in
        let list = (0..<Int(count)).compactMap { files?[$0] }
        MainActor.assumeIsolated { (box(data) as H)(list) }
    }
    return connect(application, "open", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `gint handler (GApplication *, GApplicationCommandLine *)`: GApplication::command-line.
@MainActor @discardableResult
func onCommandLine(_ application: some GObjectPointer, _ handler: @escaping @MainActor (OpaquePointer) -> Int32) -> UInt {
    typealias H = @MainActor (OpaquePointer) -> Int32
    let thunk: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { _, commandLine, data in
        guard let commandLine else { return 1 }
        return MainActor.assumeIsolated { (box(data) as H)(commandLine) }
    }
    return connect(application, "command-line", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `gboolean handler (GtkWidget *, int x, int y, gboolean keyboard_mode, GtkTooltip *)`:
/// GtkWidget::query-tooltip (the widget's `has-tooltip` set); true shows `tooltip`.
@MainActor @discardableResult
func onQueryTooltip(_ widget: some GObjectPointer, _ handler: @escaping @MainActor (_ tooltip: OpaquePointer) -> Bool) -> UInt {
    typealias H = @MainActor (OpaquePointer) -> Bool
    let thunk: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, gboolean, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, _, _, tooltip, data in
        guard let tooltip else { return 0 }
        return MainActor.assumeIsolated { (box(data) as H)(tooltip) ? 1 : 0 }
    }
    return connect(widget, "query-tooltip", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `gboolean handler (GtkWindow *)`: GtkWindow::close-request; true keeps the window open.
@MainActor @discardableResult
func onCloseRequest(_ window: some GObjectPointer, _ handler: @escaping @MainActor () -> Bool) -> UInt {
    typealias H = @MainActor () -> Bool
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
        MainActor.assumeIsolated { (box(data) as H)() ? 1 : 0 }
    }
    return connect(window, "close-request", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (GtkEventControllerKey *, guint keyval, guint keycode, GdkModifierType state)`.
@MainActor @discardableResult
func onKeyReleased(_ controller: some GObjectPointer, _ handler: @escaping @MainActor (_ keyval: UInt32) -> Void) -> UInt {
    typealias H = @MainActor (UInt32) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, GdkModifierType, UnsafeMutableRawPointer?) -> Void = { _, keyval, _, _, data in
        MainActor.assumeIsolated { (box(data) as H)(keyval) }
    }
    return connect(controller, "key-released", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// A window action (`win.NAME`) that runs `handler`.
@MainActor
func addAction(_ map: some GObjectPointer, _ name: String, _ handler: @escaping @MainActor () -> Void) {
    let action = g_simple_action_new(name, nil)!
    LiveObjects.track(action)
    onSignal(action, "activate", pointer: { _ in handler() })
    g_action_map_add_action(map.cast(), action.cast())
    action.unref()
}

/// `void handler (GFileMonitor *, GFile *file, GFile *other_file, GFileMonitorEvent event)`.
@MainActor @discardableResult
func onFileChanged(
    _ monitor: some GObjectPointer,
    _ handler: @escaping @MainActor (_ file: OpaquePointer?, _ other: OpaquePointer?, _ event: GFileMonitorEvent) -> Void
) -> UInt {
    typealias H = @MainActor (OpaquePointer?, OpaquePointer?, GFileMonitorEvent) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, UnsafeMutableRawPointer?) -> Void = { _, file, other, event, data in
        MainActor.assumeIsolated { (box(data) as H)(file, other, event) }
    }
    return connect(monitor, "changed", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (Instance *, double a, double b)`: drag-begin/update/end, swipe, motion,
/// angle-changed.
@MainActor @discardableResult
func onSignal(_ instance: some GObjectPointer, _ signal: String, doubles handler: @escaping @MainActor (Double, Double) -> Void) -> UInt {
    typealias H = @MainActor (Double, Double) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, a, b, data in
        MainActor.assumeIsolated { (box(data) as H)(a, b) }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (Instance *, double value)`: GtkGestureZoom::scale-changed.
@MainActor @discardableResult
func onSignal(_ instance: some GObjectPointer, _ signal: String, double handler: @escaping @MainActor (Double) -> Void) -> UInt {
    typealias H = @MainActor (Double) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, Double, UnsafeMutableRawPointer?) -> Void = { _, value, data in
        MainActor.assumeIsolated { (box(data) as H)(value) }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `gboolean handler (GtkEventControllerScroll *, double dx, double dy)`.
@MainActor @discardableResult
func onScroll(_ controller: some GObjectPointer, _ handler: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Bool) -> UInt {
    typealias H = @MainActor (Double, Double) -> Bool
    let thunk: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, dx, dy, data in
        MainActor.assumeIsolated { (box(data) as H)(dx, dy) ? 1 : 0 }
    }
    return connect(controller, "scroll", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `void handler (GtkGesture *, GdkEventSequence *sequence)`: begin, end.
@MainActor @discardableResult
func onSequence(_ gesture: some GObjectPointer, _ signal: String, _ handler: @escaping @MainActor () -> Void) -> UInt {
    onSignal(gesture, signal, pointer: { _ in handler() })
}

/// `void handler (Instance *, int a, int b)`: GtkDrawingArea::resize.
@MainActor @discardableResult
func onSignal(_ instance: some GObjectPointer, _ signal: String, integers handler: @escaping @MainActor (Int32, Int32) -> Void) -> UInt {
    typealias H = @MainActor (Int32, Int32) -> Void
    let thunk: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, a, b, data in
        MainActor.assumeIsolated { (box(data) as H)(a, b) }
    }
    return connect(instance, signal, unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}

/// `GdkContentProvider * handler (GtkDragSource *, double x, double y)`: GtkDragSource::prepare.
/// The handler returns an owned provider, or nil for no drag.
@MainActor @discardableResult
func onDragPrepare(_ source: some GObjectPointer, _ handler: @escaping @MainActor (Double, Double) -> UnsafeMutablePointer<GdkContentProvider>?) -> UInt {
    typealias H = @MainActor (Double, Double) -> UnsafeMutablePointer<GdkContentProvider>?
    let thunk: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> UnsafeMutablePointer<GdkContentProvider>? = { _, x, y, data in
        // The pointer crosses assumeIsolated as its address (pointers are not Sendable).
        let address = MainActor.assumeIsolated { (box(data) as H)(x, y).map { UInt(bitPattern: $0) } }
        return address.flatMap { UnsafeMutablePointer<GdkContentProvider>(bitPattern: $0) }
    }
    return connect(source, "prepare", unsafeBitCast(thunk, to: UnsafeRawPointer.self), handler as H, swapped: false)
}
