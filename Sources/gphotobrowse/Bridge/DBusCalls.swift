import Bridge
import CGtk

/// A D-Bus method's answer: its reply (a GVariant tuple, which the handler does not keep),
/// or the error's D-Bus name ("org.freedesktop.DBus.Error.ServiceUnknown") and message.
enum DBusAnswer {
    case reply(OpaquePointer)
    case failure(name: String?, message: String)
}

/// Calls `method` asynchronously on the main loop; `completion` runs once, on the main
/// thread. `parameters` is a floating GVariant tuple, which the call consumes. A
/// `fileDescriptor` goes with the message (the parameters name it as handle 0); the call
/// takes it over and closes it.
@MainActor
func callDBus(_ bus: OpaquePointer, destination: String, path: String, interface: String, method: String,
              parameters: OpaquePointer?, fileDescriptor: Int32? = nil, timeoutMilliseconds: Int32 = -1,
              completion: @escaping @MainActor (DBusAnswer) -> Void) {
    typealias H = @MainActor (DBusAnswer) -> Void
    var descriptors: UnsafeMutablePointer<GUnixFDList>?
    if var fd = fileDescriptor { descriptors = g_unix_fd_list_new_from_array(&fd, 1) }
    defer { descriptors?.unref() }
    g_dbus_connection_call_with_unix_fd_list(bus, destination, path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NONE,
                                             timeoutMilliseconds, descriptors, nil, { source, result, data in
        let completion = CallbackBox.take(data!, as: H.self)
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_with_unix_fd_list_finish(source.map { OpaquePointer($0) }, nil, result, &error)
        // The reply crosses assumeIsolated as its address (pointers are not Sendable).
        let address = reply.map { UInt(bitPattern: $0) }
        var name: String?
        var message = ""
        if let error {
            if let remote = g_dbus_error_get_remote_error(error) {
                name = String(cString: remote)
                g_free(remote)
            }
            message = String(cString: error.pointee.message)
            g_error_free(error)
        }
        MainActor.assumeIsolated {
            if let address, let reply = OpaquePointer(bitPattern: address) {
                completion(.reply(reply))
                g_variant_unref(reply)
            } else {
                completion(.failure(name: name, message: message))
            }
        }
    }, CallbackBox.retain(completion as H))
}

/// Calls `handler` with each `member` signal of `interface` from `sender` on the object
/// `path`, with the signal's parameters (a GVariant tuple it does not keep), until
/// `g_dbus_connection_signal_unsubscribe` with the id returned.
@MainActor
func subscribeDBus(_ bus: OpaquePointer, sender: String?, interface: String, member: String, path: String,
                   _ handler: @escaping @MainActor (OpaquePointer?) -> Void) -> UInt32 {
    typealias H = @MainActor (OpaquePointer?) -> Void
    return g_dbus_connection_signal_subscribe(bus, sender, interface, member, path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
                                              { _, _, _, _, _, parameters, data in
        let handler = CallbackBox.value(data!, as: H.self)
        let address = parameters.map { UInt(bitPattern: $0) }
        MainActor.assumeIsolated { handler(address.flatMap { OpaquePointer(bitPattern: $0) }) }
    }, CallbackBox.retain(handler as H), { CallbackBox.release($0) })
}
