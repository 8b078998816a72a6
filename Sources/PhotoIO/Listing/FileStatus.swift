import CGdkPixbuf
import PhotoCore

/// What a tool needs to know about one file named on its command line: its URI as GIO
/// spells it (the thumbnail cache's key), whether it is a folder, and what identifies
/// this version of it.
public struct FileStatus: Sendable, Equatable {
    public let uri: String
    public let isDirectory: Bool
    /// Modification time in microseconds since the Unix epoch.
    public let modified: Int64
    /// Size in bytes.
    public let size: Int64

    /// The URI of a path or URI given on a command line (relative paths against the
    /// current folder), as `g_file_get_uri` spells it.
    public static func uri(forCommandLineArgument argument: String) -> String {
        let file = g_file_new_for_commandline_arg(argument)
        defer { unref(file) }
        guard let uri = g_file_get_uri(file) else { return argument }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// Looks the file up with GIO (following symbolic links). Blocking I/O.
    public static func query(uri: String) -> Result<FileStatus, DecodeFailure> {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        var error: UnsafeMutablePointer<GError>?
        guard let info = g_file_query_info(file, "standard::type,standard::size,time::modified,time::modified-usec",
                                           G_FILE_QUERY_INFO_NONE, nil, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? tr("unknown error")
            if let error { g_error_free(error) }
            return .failure(DecodeFailure(.unreadable, message))
        }
        defer { unref(info) }
        let type = g_file_info_get_file_type(info)
        return .success(FileStatus(
            uri: uri,
            isDirectory: type == G_FILE_TYPE_DIRECTORY || type == G_FILE_TYPE_MOUNTABLE,
            modified: modifiedMicroseconds(in: info),
            size: Int64(g_file_info_get_size(info))
        ))
    }
}
