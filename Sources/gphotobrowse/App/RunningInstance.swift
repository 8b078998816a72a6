import CGtk

/// Whether another gphotobrowse already runs in this session: it owns the application's name
/// on the session bus. Asked at launch, before anything starts: an invocation that only hands
/// its command line to the running instance (GApplication's single instance) starts no
/// decoder process and walks no folder.
enum RunningInstance {
    /// One round trip to the bus (the same connection GApplication takes up afterwards);
    /// false when there is no session bus or it does not answer within half a second, which
    /// leaves the start-up as it would be for the first instance.
    static func exists(id: String) -> Bool {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { bus.unref() }
        var name: OpaquePointer? = g_variant_new_string(id)
        let parameters = g_variant_new_tuple(&name, 1)
        let replyType = g_variant_type_new("(b)")
        defer { g_variant_type_free(replyType) }
        guard let reply = g_dbus_connection_call_sync(
            bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            parameters, replyType, G_DBUS_CALL_FLAGS_NONE, 500, nil, nil)
        else { return false }
        defer { g_variant_unref(reply) }
        guard let owned = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }
}
