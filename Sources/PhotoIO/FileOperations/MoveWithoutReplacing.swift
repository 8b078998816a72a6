import PhotoCore
import CGdkPixbuf
import Glibc

/// Moves `file` into `folder` under the first of `names` that is free, never replacing a
/// file: returns the new URI, or `.exists` when every name was taken.
///
/// Local files move by `link` then `unlink`, which fails with EEXIST rather than replace,
/// however late the name appears. Where hard links are not supported (FAT, some network
/// and FUSE file systems, folders) and for files that are not local, `g_file_move` without
/// `G_FILE_COPY_OVERWRITE` is used: it refuses an existing name, though it checks just
/// before it renames.
func moveWithoutReplacing(
    _ file: OpaquePointer?, into folder: OpaquePointer?, trying names: some Sequence<[UInt8]>
) -> Result<String, FileOperationFailure> {
    for name in names {
        let destination = g_file_get_child(folder, cString(name))
        defer { unref(destination) }
        switch moveWithoutReplacing(file, to: destination) {
        case .success:
            return .success(uri(of: destination))
        case .failure(let failure) where failure.kind == .exists:
            continue
        case .failure(let failure):
            return .failure(failure)
        }
    }
    return .failure(FileOperationFailure(.exists, tr("Every name was taken.")))
}

/// One attempt of `moveWithoutReplacing`: `.exists` when `destination` is taken.
private func moveWithoutReplacing(_ file: OpaquePointer?, to destination: OpaquePointer?) -> Result<Void, FileOperationFailure> {
    if let from = localPath(file), let to = localPath(destination) {
        if link(from, to) == 0 {
            if unlink(from) != 0 { g_file_delete(file, nil, nil) }
            return .success(())
        }
        let code = errno
        switch code {
        case EEXIST:
            return .failure(FileOperationFailure(.exists, "“\(parseName(destination))” already exists."))
        case EPERM, ENOTSUP, ENOSYS, EXDEV, EMLINK, EINVAL:
            break  // no hard links here: let GIO move it
        case EACCES:
            return .failure(FileOperationFailure(.permissionDenied, tr("You do not have permission to save files in “%s”.", folderName(of: destination))))
        case ENOSPC, EDQUOT:
            return .failure(FileOperationFailure(.noSpace, tr("There is not enough space left in “%s”.", folderName(of: destination))))
        case EROFS:
            return .failure(FileOperationFailure(.readOnly, "“\(folderName(of: destination))” is on a disk that is read-only."))
        case ENOENT:
            return .failure(FileOperationFailure(.vanished, "“\(parseName(file))” or its folder no longer exists."))
        default:
            return .failure(FileOperationFailure(.other, "“\(parseName(destination))” could not be created: \(String(cString: strerror(code)))"))
        }
    }
    var error: UnsafeMutablePointer<GError>?
    let flags = GFileCopyFlags(rawValue: G_FILE_COPY_NOFOLLOW_SYMLINKS.rawValue | G_FILE_COPY_ALL_METADATA.rawValue)
    if g_file_move(file, destination, flags, nil, nil, nil, &error) != 0 { return .success(()) }
    guard let error else { return .failure(FileOperationFailure(.other, "“\(parseName(file))” could not be moved.")) }
    defer { g_error_free(error) }
    if g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_EXISTS.rawValue)) != 0 {
        return .failure(FileOperationFailure(.exists, "“\(parseName(destination))” already exists."))
    }
    return .failure(FileOperationFailure(.other, "“\(parseName(file))” could not be moved: \(String(cString: error.pointee.message))"))
}

/// The parse name of the folder holding `file`.
private func folderName(of file: OpaquePointer?) -> String {
    guard let parent = g_file_get_parent(file) else { return "?" }
    defer { unref(parent) }
    return parseName(parent)
}
