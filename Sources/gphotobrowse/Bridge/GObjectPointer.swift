import CGtk

/// A pointer to a GObject instance, however Swift imported its type.
///
/// GTK's headers declare some types as full structs (Swift sees `UnsafeMutablePointer<GtkWidget>`)
/// and final ones as opaque (Swift sees `OpaquePointer`). These casts say once what C does
/// with a macro (`GTK_WIDGET (x)`), instead of a conversion at every call.
protocol GObjectPointer {
    var raw: UnsafeMutableRawPointer { get }
    init(raw: UnsafeMutableRawPointer)
}

extension UnsafeMutablePointer: GObjectPointer {
    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
    init(raw: UnsafeMutableRawPointer) { self = raw.assumingMemoryBound(to: Pointee.self) }
}

extension OpaquePointer: GObjectPointer {
    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
    init(raw: UnsafeMutableRawPointer) { self.init(raw) }
}

extension UnsafeMutableRawPointer: GObjectPointer {
    var raw: UnsafeMutableRawPointer { self }
    init(raw: UnsafeMutableRawPointer) { self = raw }
}

extension GObjectPointer {
    /// The same instance as the pointer type a C function expects (inferred at the call).
    func cast<T: GObjectPointer>(to type: T.Type = T.self) -> T { T(raw: raw) }
    var opaque: OpaquePointer { OpaquePointer(raw) }
    var widget: UnsafeMutablePointer<GtkWidget> { cast() }
    var window: UnsafeMutablePointer<GtkWindow> { cast() }
    var object: UnsafeMutablePointer<GObject> { cast() }
    var eventController: OpaquePointer { opaque }

    /// Adds a reference (for a transfer-none result we keep).
    @discardableResult
    func ref() -> Self {
        g_object_ref(raw)
        return self
    }

    func unref() { g_object_unref(raw) }

    /// Takes ownership of a possibly floating reference (`g_object_ref_sink`).
    func refSink() { g_object_ref_sink(raw) }
}

/// Widgets by role, for readability at call sites.
typealias Widget = UnsafeMutablePointer<GtkWidget>
