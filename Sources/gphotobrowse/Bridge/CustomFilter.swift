import Bridge
import CGtk

/// A GtkCustomFilter that keeps the items for which `matches` is true; the closure is
/// released with the filter. Returns an owned reference.
@MainActor
func makeCustomFilter(_ matches: @escaping @MainActor (_ item: UnsafeMutableRawPointer) -> Bool) -> OpaquePointer {
    typealias Body = @MainActor (UnsafeMutableRawPointer) -> Bool
    return gtk_custom_filter_new({ item, data in
        guard let item, let data else { return 0 }
        let body = CallbackBox.value(data, as: Body.self)
        // The item crosses assumeIsolated as its address (pointers are not Sendable).
        let address = UInt(bitPattern: item)
        return MainActor.assumeIsolated { body(UnsafeMutableRawPointer(bitPattern: address)!) ? 1 : 0 }
    }, CallbackBox.retain(matches as Body), { CallbackBox.release($0) }).cast()
}
