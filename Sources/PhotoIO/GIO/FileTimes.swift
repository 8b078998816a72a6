import CGdkPixbuf

/// A file's modification time in a GIO file info (`time::modified` and
/// `time::modified-usec`, which the query asked for), in microseconds since 1970.
func modifiedMicroseconds(in info: OpaquePointer?) -> Int64 {
    Int64(g_file_info_get_attribute_uint64(info, "time::modified")) * 1_000_000
        + Int64(g_file_info_get_attribute_uint32(info, "time::modified-usec"))
}
