/// Swift values handed to C as `void *` user data, and back.
///
/// GLib and GTK take callbacks as a C function and a `void *` for its data, with a destroy
/// notify called when the callback goes (a signal handler disconnected, a source removed,
/// an object finalized). A Swift closure or object crosses as a retained box: `retain` makes
/// the pointer, the C function reads the value with `value(_:as:)`, and the destroy notify
/// calls `release`. Callbacks that C calls exactly once and that have no destroy notify
/// (an async call's completion) read and release in one step with `take(_:as:)`.
///
/// This is the one place where Swift objects are turned into C pointers and back.
public enum CallbackBox {
    private final class Box<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Boxes `value`; the pointer owns one reference to the box, given up by `release` or `take`.
    public static func retain<Value>(_ value: Value) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(Box(value)).toOpaque()
    }

    /// The value boxed at `data`, which stays boxed.
    public static func value<Value>(_ data: UnsafeMutableRawPointer, as type: Value.Type = Value.self) -> Value {
        Unmanaged<Box<Value>>.fromOpaque(data).takeUnretainedValue().value
    }

    /// Gives up the box at `data` (nil is allowed, for destroy notifies called with no data).
    public static func release(_ data: UnsafeMutableRawPointer?) {
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    /// The value boxed at `data`, giving up the box: for one-shot callbacks.
    public static func take<Value>(_ data: UnsafeMutableRawPointer, as type: Value.Type = Value.self) -> Value {
        Unmanaged<Box<Value>>.fromOpaque(data).takeRetainedValue().value
    }
}
