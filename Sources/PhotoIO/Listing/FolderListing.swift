import CGdkPixbuf
import Foundation
import PhotoCore

/// A file in the folder that is not shown, and why.
public struct SkippedEntry: Sendable {
    public let name: String
    public let reason: String
}

/// Lists the images of one folder with GIO, streaming them in batches.
///
/// Types come from the file names (`standard::fast-content-type`), which keeps listing fast
/// on big and remote folders; only files whose name says nothing are sniffed. Runs
/// blocking GIO calls: call `run` on a worker thread, never on the main thread.
///
/// `@unchecked Sendable`: its only mutable state is a GCancellable, which GIO documents as
/// safe to cancel from any thread.
public final class FolderListing: @unchecked Sendable {
    public let uri: String
    private let cancellable: UnsafeMutablePointer<GCancellable>

    public init(uri: String) {
        self.uri = uri
        cancellable = g_cancellable_new()
    }

    deinit { g_object_unref(cancellable) }

    /// Stops a listing in progress; `run` returns soon after.
    public func cancel() { g_cancellable_cancel(cancellable) }

    public var isCancelled: Bool { g_cancellable_is_cancelled(cancellable) != 0 }

    /// Lists the folder, handing photos to `deliver` in batches and files left out to `skip`.
    ///
    /// The first batch goes out at once, so the first screenful shows while a big folder is
    /// still being listed. The wait between later batches starts at `interval` and doubles
    /// up to `maximumInterval`: each batch costs the main thread a merge proportional to
    /// the folder, so a 100,000-file folder arrives in about a dozen batches, not hundreds.
    /// Returns the number of photos found.
    public func run(
        interval: Double = 0.1,
        maximumInterval: Double = 1.0,
        deliver: ([Photo]) -> Void,
        skip: (SkippedEntry) -> Void = { _ in }
    ) -> Result<Int, FolderError> {
        let folder = g_file_new_for_uri(uri)
        defer { unref(folder) }

        var total = 0
        var batch: [Photo] = []
        var pacing = DeliveryPacing(interval: interval, maximumInterval: maximumInterval)
        let end = Self.read(folder: folder, cancellable: cancellable, photo: { photo in
            batch.append(photo)
            guard batch.count >= 64 else { return }
            let now = Date.timeIntervalSinceReferenceDate
            if pacing.isDue(now: now) {
                total += batch.count
                deliver(batch)
                batch.removeAll(keepingCapacity: true)
                pacing.delivered(now: now)
            }
        }, subfolder: { _ in }, skip: skip)
        switch end {
        case .finished, .cancelled:
            break
        case .unopened(let error):
            return .failure(error)
        case .brokenOff(let message):
            return .failure(FolderError(message: tr("Could not list the folder: %s", message)))
        }
        if !batch.isEmpty && !isCancelled {
            total += batch.count
            deliver(batch)
        }
        return .success(total)
    }

    /// How reading a folder's entries ended.
    enum ReadEnd {
        case finished
        case cancelled
        /// The folder could not be opened: why, in words for a person.
        case unopened(FolderError)
        /// Reading stopped partway (an I/O error): GIO's message.
        case brokenOff(String)
    }

    /// A folder met among a folder's entries, and what tells it apart on disk.
    struct SubfolderEntry {
        let uri: String
        /// The name on disk (`.` starts a hidden one).
        let name: String
        let displayName: String
        /// A symbolic link to a folder (the link is followed: `identity` is its target's).
        let isSymlink: Bool
        /// Something to mount (a GVfs mountable), not a folder yet.
        let isMountable: Bool
        /// Device and inode, when the location reports them (local files do).
        let identity: FileIdentity?

        /// Whether a walk of the tree goes into this subfolder of a folder on `device` (nil:
        /// a location that reports none) when it appears there later (a folder read again, or
        /// reported by a monitor): not a hidden one, a symbolic link (a link to a folder is
        /// followed by a tree's first walk alone, which tells loops apart: `FolderTreeWalk`),
        /// something to mount, nor a folder on another drive (as `find -xdev`).
        func isEntered(from device: UInt32?) -> Bool {
            !name.hasPrefix(".") && !isSymlink && !isMountable && identity?.device == device
        }
    }

    /// A folder's entry for a directory or a mountable GIO describes.
    static func subfolderEntry(_ info: OpaquePointer?, file: OpaquePointer?) -> SubfolderEntry {
        SubfolderEntry(
            uri: PhotoIO.uri(of: file),
            name: g_file_info_get_name(info).map { String(cString: $0) } ?? "",
            displayName: g_file_info_get_display_name(info).map { String(cString: $0) } ?? "?",
            isSymlink: g_file_info_get_is_symlink(info) != 0,
            isMountable: g_file_info_get_file_type(info) == G_FILE_TYPE_MOUNTABLE,
            identity: FileIdentity(info)
        )
    }

    static let attributes = [
        "standard::name", "standard::display-name", "standard::type", "standard::fast-content-type",
        "standard::size", "standard::is-symlink", "time::modified", "time::modified-usec",
        "unix::device", "unix::inode",
    ].joined(separator: ",")

    /// Reads one folder's entries (a local folder with `LocalFolderReader`, any other
    /// location with GIO): each image as a `Photo` to `photo` (types from
    /// names, content sniffed only when the name says nothing, special files skipped without
    /// being opened), each folder to `subfolder`, each file left out to `skip`. The one
    /// per-folder reader of the folder's listing and the tree's walk. Blocking I/O.
    static func read(
        folder: OpaquePointer?,
        cancellable: UnsafeMutablePointer<GCancellable>?,
        photo: (Photo) -> Void,
        subfolder: (SubfolderEntry) -> Void,
        skip: (SkippedEntry) -> Void
    ) -> ReadEnd {
        if let path = localPath(folder),
           let end = LocalFolderReader.read(path: path, cancellable: cancellable, photo: photo, subfolder: subfolder, skip: skip) {
            return end
        }
        return readWithGIO(folder: folder, cancellable: cancellable, photo: photo, subfolder: subfolder, skip: skip)
    }

    /// Reads one folder's entries with GIO's enumeration (any location).
    static func readWithGIO(
        folder: OpaquePointer?,
        cancellable: UnsafeMutablePointer<GCancellable>?,
        photo: (Photo) -> Void,
        subfolder: (SubfolderEntry) -> Void,
        skip: (SkippedEntry) -> Void
    ) -> ReadEnd {
        var error: UnsafeMutablePointer<GError>?
        guard let enumerator = g_file_enumerate_children(folder, attributes, G_FILE_QUERY_INFO_NONE, cancellable, &error) else {
            return .unopened(FolderError(message: explain(error, folder: folder)))
        }
        defer {
            g_file_enumerator_close(enumerator, nil, nil)
            unref(enumerator)
        }
        while true {
            var nextError: UnsafeMutablePointer<GError>?
            guard let info = g_file_enumerator_next_file(enumerator, cancellable, &nextError) else {
                guard let nextError else { return .finished }
                let cancelled = g_error_matches(nextError, g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)) != 0
                let message = String(cString: nextError.pointee.message)
                g_error_free(nextError)
                return cancelled ? .cancelled : .brokenOff(message)
            }
            defer { unref(info) }
            let type = g_file_info_get_file_type(info)
            guard let child = g_file_enumerator_get_child(enumerator, info) else { continue }
            defer { unref(child) }
            if type == G_FILE_TYPE_DIRECTORY || type == G_FILE_TYPE_MOUNTABLE {
                subfolder(subfolderEntry(info, file: child))
            } else if let found = describe(info: info, file: child, cancellable: cancellable, skip: skip) {
                photo(found)
            }
        }
    }

    /// The photo at `uri` as a listing would describe it, or nil when it is gone or is not
    /// an image that can be shown. Blocking I/O: for the folder monitor's updates, on a worker.
    /// `cancellation`: GIO's call is cancelled with it (nil: it runs to the end).
    public static func photo(at uri: String, cancellation: CancellationFlag? = nil) -> Photo? {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        let cancellable = cancellation.map(GIOCancellable.init)
        guard let info = g_file_query_info(file, attributes, G_FILE_QUERY_INFO_NONE, cancellable?.pointer, nil) else { return nil }
        defer { unref(info) }
        return describe(info: info, file: file, cancellable: cancellable?.pointer, skip: { _ in })
    }

    /// What a path a folder monitor reported is now.
    /// An image this browser shows (`.photo`), a folder to search (`.folder`: not hidden,
    /// not a symbolic link, not a mount point), or gone, or nothing this browser shows or
    /// searches (`.nothing`).
    public typealias ChangedEntry = FolderUpdate.Entry

    /// Looks up a path a folder monitor reported, as the tree's walk would see it: a folder
    /// is searched when a walk would go into it (`SubfolderEntry.isEntered`: a link to a
    /// folder that appears later is not followed, it might lead back into the tree; a mount
    /// point or another drive's folder is not searched). Blocking I/O: on a worker, until
    /// `cancellation` (GIO's call is cancelled with it).
    public static func changedEntry(at uri: String, cancellation: CancellationFlag) -> ChangedEntry {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        let cancellable = GIOCancellable(cancellation)
        guard let info = g_file_query_info(file, attributes, G_FILE_QUERY_INFO_NONE, cancellable.pointer, nil) else { return .nothing }
        defer { unref(info) }
        let type = g_file_info_get_file_type(info)
        if type == G_FILE_TYPE_DIRECTORY || type == G_FILE_TYPE_MOUNTABLE {
            let entry = subfolderEntry(info, file: file)
            let parent = g_file_get_parent(file)
            defer { unref(parent) }
            let device = FileIdentity(of: parent, cancellable: cancellable.pointer)?.device
            return entry.isEntered(from: device) ? .folder(name: entry.displayName) : .nothing
        }
        return describe(info: info, file: file, cancellable: cancellable.pointer, skip: { _ in }).map { .photo($0) } ?? .nothing
    }

    private static func describe(
        info: OpaquePointer?, file child: OpaquePointer?, cancellable: UnsafeMutablePointer<GCancellable>?,
        skip: (SkippedEntry) -> Void
    ) -> Photo? {
        let displayName = g_file_info_get_display_name(info).map { String(cString: $0) } ?? "?"
        let type = g_file_info_get_file_type(info)
        switch type {
        case G_FILE_TYPE_REGULAR:
            break
        case G_FILE_TYPE_DIRECTORY, G_FILE_TYPE_MOUNTABLE:
            return nil
        case G_FILE_TYPE_SYMBOLIC_LINK:
            skip(SkippedEntry(name: displayName, reason: brokenLinkReason))
            return nil
        default:
            skip(SkippedEntry(name: displayName, reason: specialFileReason))
            return nil
        }
        guard let name = g_file_info_get_name(info) else { return nil }
        return photo(
            name: name, displayName: displayName,
            fastContentType: g_file_info_get_attribute_string(info, "standard::fast-content-type").map { String(cString: $0) },
            modified: modifiedMicroseconds(in: info), size: Int64(g_file_info_get_size(info)),
            uri: { PhotoIO.uri(of: child) },
            sniff: { sniffContentType(child, cancellable: cancellable) }
        )
    }

    static let brokenLinkReason = "a symbolic link that leads nowhere (broken or looping)"
    static let specialFileReason = "not a regular file (a pipe, socket or device)"

    /// A regular file as a `Photo`, or nil when it is not an image this browser shows: its
    /// type from its name (`fastContentType`, as GIO guesses it), from its first bytes only
    /// when the name says nothing. Both folder readers describe files with it.
    static func photo(
        name: UnsafePointer<CChar>, displayName: String, fastContentType: String?, modified: Int64, size: Int64,
        uri: () -> String, sniff: () -> String?
    ) -> Photo? {
        guard let contentType = imageType(name: name, fastContentType: fastContentType, size: size, sniff: sniff) else {
            return nil
        }
        let id = uri()
        guard !id.isEmpty else { return nil }
        return Photo(id: id, displayName: displayName, modified: modified, size: size, contentType: contentType)
    }

    /// The content type of a regular file that is an image this browser shows, or nil: its
    /// type from its name (`fastContentType`, as GIO guesses it; `kind`: what
    /// `ImageTypes.classify` makes of it, when the caller knows), from its first bytes only
    /// when the name says nothing.
    static func imageType(
        name: UnsafePointer<CChar>, fastContentType: String?, kind fastKind: ImageKind? = nil, size: Int64,
        sniff: () -> String?
    ) -> String? {
        var contentType = fastContentType
        var kind = fastKind ?? ImageTypes.classify(contentType)
        if size == 0 {
            // GIO types empty files as text or x-zerosize; an empty "x.jpg" is still a photo to
            // the person, shown as a broken tile ("the file is empty"), not silently left out.
            let guessed = g_content_type_guess(name, nil, 0, nil)
            contentType = guessed.map { p -> String in defer { g_free(p) }; return String(cString: p) }
            kind = ImageTypes.classify(contentType) == .image ? .image : .other
        }
        if kind == .unknown {
            contentType = sniff()
            kind = ImageTypes.classify(contentType)
        }
        guard kind == .image else { return nil }
        return contentType ?? "application/octet-stream"
    }

    /// The content type from the file's first bytes (GIO reads them). Only for regular files.
    static func sniffContentType(_ file: OpaquePointer?, cancellable: UnsafeMutablePointer<GCancellable>?) -> String? {
        guard let info = g_file_query_info(file, "standard::content-type", G_FILE_QUERY_INFO_NONE, cancellable, nil) else {
            return nil
        }
        defer { unref(info) }
        return g_file_info_get_content_type(info).map { String(cString: $0) }
    }

    static func explain(_ error: UnsafeMutablePointer<GError>?, folder: OpaquePointer?) -> String {
        guard let error else { return tr("The folder could not be opened.") }
        defer { g_error_free(error) }
        let name = g_file_get_parse_name(folder).map { p -> String in defer { g_free(p) }; return String(cString: p) } ?? "?"
        let quark = g_io_error_quark()
        if g_error_matches(error, quark, Int32(G_IO_ERROR_NOT_FOUND.rawValue)) != 0 {
            return tr("The folder “%s” does not exist.", name)
        }
        if g_error_matches(error, quark, Int32(G_IO_ERROR_NOT_DIRECTORY.rawValue)) != 0 {
            return tr("“%s” is not a folder.", name)
        }
        if g_error_matches(error, quark, Int32(G_IO_ERROR_PERMISSION_DENIED.rawValue)) != 0 {
            return tr("You do not have permission to read the folder “%s”.", name)
        }
        return tr("The folder “%1$s” could not be read: %2$s", name, String(cString: error.pointee.message))
    }
}
