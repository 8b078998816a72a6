import CGdkPixbuf
import Foundation
import PhotoCore

/// A file in the home trash, with what it takes to put it back.
///
/// Everything is a URI, so names of any bytes survive (and the item survives a trip
/// through JSON, as `gphotobrowse-bench trash` prints it).
public struct TrashedItem: Sendable, Hashable, Codable {
    /// Where the file was.
    public let originalURI: String
    /// The file now: `$XDG_DATA_HOME/Trash/files/NAME`.
    public let trashedURI: String
    /// Its record: `$XDG_DATA_HOME/Trash/info/NAME.trashinfo`.
    public let infoURI: String
    /// When it was trashed, as the record says it (local time, `2024-05-01T09:30:00`).
    public let deletionDate: String

    public init(originalURI: String, trashedURI: String, infoURI: String, deletionDate: String) {
        self.originalURI = originalURI
        self.trashedURI = trashedURI
        self.infoURI = infoURI
        self.deletionDate = deletionDate
    }
}

/// What became of one file sent to the trash.
public struct TrashResult: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// In the home trash; `Trash.restore` puts it back (undo).
        case trashed(TrashedItem)
        /// In a trash this app cannot restore from (that of another disk); the reason says so.
        case trashedWithoutUndo(String)
        /// Still where it was.
        case failed(FileOperationFailure)
    }

    public let uri: String
    public let outcome: Outcome

    /// Whether the file left its folder.
    public var isTrashed: Bool {
        if case .failed = outcome { return false }
        return true
    }

    public var item: TrashedItem? {
        if case .trashed(let item) = outcome { return item }
        return nil
    }

    public var failure: FileOperationFailure? {
        if case .failed(let failure) = outcome { return failure }
        return nil
    }
}

/// The freedesktop.org trash, with undo: GIO trashes, and this finds the trashed item again
/// in the home trash so that it can be restored.
///
/// `g_file_trash` puts a file of the home's disk in the home trash (`$XDG_DATA_HOME/Trash`,
/// usually `~/.local/share/Trash`), and a file of another disk in that disk's trash
/// (`.Trash/UID` or `.Trash-UID` at its top). Trashing records the item in `info/NAME.trashinfo`
/// (the original path, URI-escaped, and the deletion date) beside the file in `files/NAME`,
/// where NAME is made unique by GIO. Items are found by reading those records directly
/// rather than through GIO's `trash:///`, which needs the gvfs daemon (often absent:
/// in tests, CI, minimal desktops) and answers the same question.
///
/// Only the home trash is searched: a file trashed on another disk is reported as
/// trashed without undo. GLib reads `XDG_DATA_HOME` once per process, so the trash a
/// process uses is fixed at its first use.
///
/// Blocking I/O: call it on a worker thread.
public enum Trash {
    /// Moves files to the trash, one result per URI, in order.
    ///
    /// A file that cannot be trashed because its disk has no trash fails with
    /// `.notSupported`: ask the person, then `deletePermanently`.
    public static func move(_ uris: [String]) -> [TrashResult] {
        let home = HomeTrash()
        // The records GIO writes are the ones that appear during the batch; reading the
        // folder before and after keeps two items of the same path apart (a file trashed,
        // replaced and trashed again), whatever their deletion dates.
        let before = recordNames(in: home.info)
        var trashed: [(uri: String, path: [UInt8])] = []
        var results: [TrashResult?] = []
        for uri in uris {
            let file = g_file_new_for_uri(uri)
            defer { unref(file) }
            var error: UnsafeMutablePointer<GError>?
            if g_file_trash(file, nil, &error) == 0 {
                results.append(TrashResult(uri: uri, outcome: .failed(explain(error, file: file))))
                continue
            }
            results.append(nil)  // filled in below, once the records are read
            trashed.append((uri, localPath(file).map { $0.dropLast().map { UInt8(bitPattern: $0) } } ?? []))
        }

        var found: [[UInt8]: TrashedItem] = [:]
        if !trashed.isEmpty {
            let wanted = Set(trashed.map(\.path))
            for name in recordNames(in: home.info) where !before.contains(name) {
                guard let record = readRecord(name, in: home), wanted.contains(record.path) else { continue }
                if let known = found[record.path], known.deletionDate > record.item.deletionDate { continue }
                found[record.path] = record.item
            }
        }
        var next = trashed.makeIterator()
        return zip(uris, results).map { uri, result in
            if let result { return result }
            let entry = next.next()!
            if let item = found.removeValue(forKey: entry.path) { return TrashResult(uri: uri, outcome: .trashed(item)) }
            return TrashResult(uri: uri, outcome: .trashedWithoutUndo(
                "“\(displayName(uri: uri))” was moved to the trash of its own disk; it cannot be restored from here."
            ))
        }
    }

    /// Puts a trashed item back where it was, or beside it as "NAME (2).EXT" (and so on)
    /// when the name has been taken since; recreates the folder if it is gone. Deletes the
    /// item's record. Returns the URI the file is back at.
    public static func restore(_ item: TrashedItem) -> Result<String, FileOperationFailure> {
        let trashed = g_file_new_for_uri(item.trashedURI)
        let original = g_file_new_for_uri(item.originalURI)
        defer {
            unref(trashed)
            unref(original)
        }
        guard g_file_query_file_type(trashed, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, nil) != G_FILE_TYPE_UNKNOWN else {
            return .failure(FileOperationFailure(.vanished, "“\(parseName(original))” is no longer in the trash."))
        }
        guard let folder = g_file_get_parent(original), let name = fileNameBytes(original) else {
            return .failure(FileOperationFailure(.other, "“\(parseName(original))” has no folder to go back to."))
        }
        defer { unref(folder) }

        var error: UnsafeMutablePointer<GError>?
        if g_file_make_directory_with_parents(folder, nil, &error) == 0, let error {
            defer { g_error_free(error) }
            if g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_EXISTS.rawValue)) == 0 {
                let reason = String(cString: error.pointee.message)
                return .failure(FileOperationFailure(.other, tr("The folder “%1$s” could not be made again: %2$s", parseName(folder), reason)))
            }
        }
        switch moveWithoutReplacing(trashed, into: folder, trying: SaveDestination.numberedNames(name)) {
        case .success(let restored):
            let info = g_file_new_for_uri(item.infoURI)
            g_file_delete(info, nil, nil)
            unref(info)
            return .success(restored)
        case .failure(let failure):
            return .failure(FileOperationFailure(failure.kind, "“\(parseName(original))” could not be restored: \(failure.message)"))
        }
    }

    /// Whether `uri` can go to a trash (GIO's `access::can-trash`): false where its disk has
    /// no trash, or it cannot be deleted at all. When false, ask before `deletePermanently`.
    public static func isSupported(for uri: String) -> Bool {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        guard let info = g_file_query_info(file, "access::can-trash", G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, nil, nil) else {
            return false
        }
        defer { unref(info) }
        return g_file_info_get_attribute_boolean(info, "access::can-trash") != 0
    }

    /// Deletes files for good (not folders with contents). One result per URI, in order:
    /// the URI deleted, or why not.
    public static func deletePermanently(_ uris: [String]) -> [Result<String, FileOperationFailure>] {
        uris.map { uri in
            let file = g_file_new_for_uri(uri)
            defer { unref(file) }
            var error: UnsafeMutablePointer<GError>?
            if g_file_delete(file, nil, &error) != 0 { return .success(uri) }
            return .failure(explain(error, file: file, deleting: true))
        }
    }

    /// The home trash's folders, as GLib (and so `g_file_trash`) sees them in this process.
    public static var homeTrashURI: String {
        let trash = g_file_new_for_path(homeTrashPath)
        defer { unref(trash) }
        return uri(of: trash)
    }

    // MARK: - Records

    private static var homeTrashPath: String {
        String(cString: g_get_user_data_dir()) + "/Trash"
    }

    /// The home trash's two folders (which need not exist yet).
    private final class HomeTrash {
        let files: OpaquePointer?
        let info: OpaquePointer?

        init() {
            let root = g_file_new_for_path(Trash.homeTrashPath)
            files = g_file_get_child(root, "files")
            info = g_file_get_child(root, "info")
            unref(root)
        }

        deinit {
            unref(files)
            unref(info)
        }
    }

    /// The names of the records (`*.trashinfo`) in the info folder, as bytes.
    private static func recordNames(in info: OpaquePointer?) -> Set<[UInt8]> {
        guard let enumerator = g_file_enumerate_children(info, "standard::name", G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, nil, nil) else {
            return []
        }
        defer {
            g_file_enumerator_close(enumerator, nil, nil)
            unref(enumerator)
        }
        let suffix = Array(".trashinfo".utf8)
        var names = Set<[UInt8]>()
        while let child = g_file_enumerator_next_file(enumerator, nil, nil) {
            defer { unref(child) }
            guard let name = g_file_info_get_name(child) else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: name, count: strlen(name)))
            if bytes.count > suffix.count, bytes.suffix(suffix.count).elementsEqual(suffix) { names.insert(bytes) }
        }
        return names
    }

    /// Reads one record: the original path (unescaped, as bytes) and the item.
    private static func readRecord(_ name: [UInt8], in trash: HomeTrash) -> (path: [UInt8], item: TrashedItem)? {
        let infoFile = g_file_get_child(trash.info, cString(name))
        defer { unref(infoFile) }
        guard let infoPath = localPath(infoFile) else { return nil }
        let keys = g_key_file_new()
        defer { g_key_file_free(keys) }
        guard g_key_file_load_from_file(keys, infoPath, G_KEY_FILE_NONE, nil) != 0,
              let escaped = g_key_file_get_value(keys, "Trash Info", "Path", nil) else { return nil }
        defer { g_free(escaped) }
        // A home trash records absolute paths; a relative one belongs to a disk's trash.
        guard escaped.pointee == CChar(UInt8(ascii: "/")), let unescaped = g_uri_unescape_string(escaped, nil) else { return nil }
        defer { g_free(unescaped) }
        let path = Array(UnsafeRawBufferPointer(start: unescaped, count: strlen(unescaped)))
        let date = g_key_file_get_value(keys, "Trash Info", "DeletionDate", nil)
        defer { g_free(date) }

        let fileName = Array(name.dropLast(".trashinfo".count))
        let trashedFile = g_file_get_child(trash.files, cString(fileName))
        defer { unref(trashedFile) }
        let original = g_file_new_for_path(cString(path))
        defer { unref(original) }
        return (path, TrashedItem(
            originalURI: uri(of: original),
            trashedURI: uri(of: trashedFile),
            infoURI: uri(of: infoFile),
            deletionDate: date.map { String(cString: $0) } ?? ""
        ))
    }

    // MARK: - Failures in words

    /// A GError from trashing or deleting, in words. Frees the error.
    private static func explain(_ error: UnsafeMutablePointer<GError>?, file: OpaquePointer?, deleting: Bool = false) -> FileOperationFailure {
        let name = parseName(file)
        let verb = deleting ? "deleted" : "moved to the trash"
        guard let error else { return FileOperationFailure(.other, "“\(name)” could not be \(verb).") }
        defer { g_error_free(error) }
        let message = String(cString: error.pointee.message)
        guard error.pointee.domain == g_io_error_quark() else {
            return FileOperationFailure(.other, "“\(name)” could not be \(verb): \(message)")
        }
        switch GIOErrorEnum(UInt32(error.pointee.code)) {
        case G_IO_ERROR_NOT_SUPPORTED:
            return FileOperationFailure(.notSupported, "“\(name)” cannot be moved to the trash: its disk has no trash.")
        case G_IO_ERROR_NOT_FOUND where g_file_query_exists(file, nil) == 0:
            return FileOperationFailure(.vanished, "“\(name)” no longer exists.")
        case G_IO_ERROR_PERMISSION_DENIED, G_IO_ERROR_READ_ONLY:
            return FileOperationFailure(.permissionDenied, tr("You do not have permission to remove “%s” from its folder.", name))
        default:
            return FileOperationFailure(.other, "“\(name)” could not be \(verb): \(message)")
        }
    }

    private static func displayName(uri: String) -> String {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        return parseName(file)
    }
}
