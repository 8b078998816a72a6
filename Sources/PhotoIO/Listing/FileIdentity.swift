import CGdkPixbuf

/// What tells a folder apart on disk whatever the path it is reached by: its device and
/// inode (GIO's `unix::device` and `unix::inode`). Two paths to one folder (a symbolic link,
/// a bind mount) have the same identity.
struct FileIdentity: Hashable {
    let device: UInt32
    let inode: UInt64

    init(device: UInt32, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity in a file info, or nil when the location does not report one (some
    /// GVfs backends).
    init?(_ info: OpaquePointer?) {
        guard g_file_info_has_attribute(info, "unix::device") != 0, g_file_info_has_attribute(info, "unix::inode") != 0 else {
            return nil
        }
        device = g_file_info_get_attribute_uint32(info, "unix::device")
        inode = UInt64(g_file_info_get_attribute_uint64(info, "unix::inode"))
    }

    /// The identity of the folder at `file` (symbolic links followed), or nil when it cannot
    /// be looked up or the location does not report one. Blocking I/O.
    init?(of file: OpaquePointer?, cancellable: UnsafeMutablePointer<GCancellable>?) {
        guard let info = g_file_query_info(file, "unix::device,unix::inode", G_FILE_QUERY_INFO_NONE, cancellable, nil) else {
            return nil
        }
        defer { unref(info) }
        self.init(info)
    }
}
