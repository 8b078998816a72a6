import CGdkPixbuf
import PhotoCore

/// What a path or URI given to the browser (on the command line, dropped, or chosen) is.
public enum Location: Sendable, Equatable {
    /// A folder to show as a grid.
    case folder(uri: String, name: String)
    /// A file to show in the viewer, within its folder.
    case file(uri: String, folder: String, folderName: String)
    /// A location on a server (sftp, smb, WebDAV…) that must be mounted first: GIO reaches
    /// it once the person has connected (`g_file_mount_enclosing_volume`).
    case needsMount(uri: String)
    /// An address on the web (http, https): a photo, or a list of photos (a web album),
    /// which only downloading tells apart (`WebAlbumWalk`).
    case web(url: String)
    /// A file that is not a photo the browser shows (a text, an archive, a FIFO…): its name
    /// as shown, and what GIO calls its type ("plain text document").
    case notAPhoto(uri: String, name: String, kind: String)
    /// Nothing that can be shown, and why.
    case unavailable(String)

    /// Looks the location up with GIO, until `cancellation` (GIO's call gets a GCancellable
    /// cancelled with it). Blocking I/O: call it on a worker thread.
    public static func resolve(uri: String, cancellation: CancellationFlag) -> Location {
        if WebPhotoFiles.isWebAddress(uri) { return .web(url: uri) }
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        var error: UnsafeMutablePointer<GError>?
        let cancellable = GIOCancellable(cancellation)
        let info = g_file_query_info(file, "standard::type,standard::display-name,standard::content-type", G_FILE_QUERY_INFO_NONE,
                                     cancellable.pointer, &error)
        guard let info else {
            let name = parseName(file)
            defer { if let error { g_error_free(error) } }
            if let error, g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_NOT_FOUND.rawValue)) != 0 {
                return .unavailable(tr("“%s” does not exist.", name))
            }
            if let error, g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_NOT_MOUNTED.rawValue)) != 0 {
                return .needsMount(uri: uri)
            }
            let reason = error.map { String(cString: $0.pointee.message) } ?? tr("unknown error")
            return .unavailable(tr("“%1$s” cannot be opened: %2$s", name, reason))
        }
        defer { unref(info) }
        let name = g_file_info_get_display_name(info).map { String(cString: $0) } ?? parseName(file)
        switch g_file_info_get_file_type(info) {
        case G_FILE_TYPE_DIRECTORY, G_FILE_TYPE_MOUNTABLE:
            return .folder(uri: uri, name: name)
        default:
            // GIO's type: from the name, or from the first bytes of a local file whose name
            // says nothing (never read from a file that is not a regular one).
            let contentType = g_file_info_get_content_type(info).map { String(cString: $0) }
            if ImageTypes.classify(contentType) == .other {
                let kind = contentType.flatMap { type in
                    g_content_type_get_description(type).map { p -> String in defer { g_free(p) }; return String(cString: p) }
                } ?? ""
                return .notAPhoto(uri: uri, name: name, kind: kind)
            }
            guard let parent = g_file_get_parent(file) else { return .unavailable(tr("“%s” has no folder.", name)) }
            defer { unref(parent) }
            let parentURI = g_file_get_uri(parent).map { p -> String in defer { g_free(p) }; return String(cString: p) } ?? uri
            let parentName = displayName(of: parent)
            return .file(uri: uri, folder: parentURI, folderName: parentName)
        }
    }

    /// The name of a folder for a window title (valid UTF-8 whatever the bytes).
    private static func displayName(of file: OpaquePointer?) -> String {
        guard let path = g_file_get_path(file) else {
            return g_file_get_basename(file).map { p -> String in defer { g_free(p) }; return String(cString: p) } ?? "?"
        }
        defer { g_free(path) }
        guard let name = g_filename_display_basename(path) else { return "?" }
        defer { g_free(name) }
        return String(cString: name)
    }

    private static func parseName(_ file: OpaquePointer?) -> String {
        g_file_get_parse_name(file).map { p -> String in defer { g_free(p) }; return String(cString: p) } ?? "?"
    }
}
