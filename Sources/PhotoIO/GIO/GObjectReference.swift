import CGdkPixbuf

/// Drops one reference to a GObject. GLib's C API takes `gpointer`; GIO and gdk-pixbuf hand
/// out typed or opaque pointers, so these overloads save a cast at every call.
func unref(_ object: OpaquePointer?) {
    if let object { g_object_unref(UnsafeMutableRawPointer(object)) }
}

func unref<T>(_ object: UnsafeMutablePointer<T>?) {
    if let object { g_object_unref(UnsafeMutableRawPointer(object)) }
}
