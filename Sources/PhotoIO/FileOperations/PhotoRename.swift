import CGdkPixbuf
import PhotoCore

/// Renaming a photo in its folder (F2), with GIO's `g_file_set_display_name`, as Files does:
/// local files and files on other machines (GVfs) alike. Nothing is ever replaced: a name
/// taken is the rename failing with `G_IO_ERROR_EXISTS`, whenever the name was taken.
/// Blocking: called on a worker.
public enum PhotoRename {
    /// Renames the file at `uri` to `name`; returns its new URI. A cancelled flag stops a
    /// rename that has not happened (GIO's call is cancelled with it).
    public static func rename(_ uri: String, to name: String, cancellation: CancellationFlag) -> Result<String, FileOperationFailure> {
        if let problem = PhotoName.problem(with: name) { return .failure(FileOperationFailure(.other, message(for: problem))) }
        if cancellation.isCancelled { return .failure(cancelled) }
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        let cancellable = GIOCancellable(cancellation)
        var error: UnsafeMutablePointer<GError>?
        if let renamed = g_file_set_display_name(file, name, cancellable.pointer, &error) {
            defer { unref(renamed) }
            return .success(PhotoIO.uri(of: renamed))
        }
        guard let error else { return .failure(FileOperationFailure(.other, tr("The photo could not be renamed."))) }
        defer { g_error_free(error) }
        func matches(_ code: GIOErrorEnum) -> Bool { g_error_matches(error, g_io_error_quark(), Int32(code.rawValue)) != 0 }
        if matches(G_IO_ERROR_CANCELLED) { return .failure(cancelled) }
        if matches(G_IO_ERROR_EXISTS) {
            return .failure(FileOperationFailure(.exists, tr("“%s” is already taken. Choose another name.", name)))
        }
        if matches(G_IO_ERROR_NOT_FOUND) {
            return .failure(FileOperationFailure(.vanished, tr("The photo is no longer there.")))
        }
        if matches(G_IO_ERROR_PERMISSION_DENIED) {
            return .failure(FileOperationFailure(.permissionDenied, tr("You do not have permission to rename files in this folder.")))
        }
        if matches(G_IO_ERROR_INVALID_FILENAME) || matches(G_IO_ERROR_FILENAME_TOO_LONG) {
            return .failure(FileOperationFailure(.other, tr("“%s” cannot be a file’s name here.", name)))
        }
        return .failure(FileOperationFailure(.other, tr("The photo could not be renamed: %s", String(cString: error.pointee.message))))
    }

    private static var cancelled: FileOperationFailure { FileOperationFailure(.cancelled, tr("The photo could not be renamed.")) }

    /// What the rename popover says of a name refused before the disk is asked.
    public static func message(for problem: PhotoName.Problem) -> String {
        switch problem {
        case .empty: tr("The name cannot be empty.")
        case .containsSlash: tr("The name cannot contain “/”.")
        case .reserved: tr("“.” and “..” cannot be names of photos.")
        case .tooLong: tr("The name is too long.")
        }
    }
}
