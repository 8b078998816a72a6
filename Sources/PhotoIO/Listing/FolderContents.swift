import CGdkPixbuf
import PhotoCore

/// One folder's photos and subfolders, read again (a `FolderRecheck`), with the folder
/// reader the walk uses. Blocking I/O: on a worker.
public struct FolderContents: Sendable {
    /// The images in the folder, as a walk lists them.
    public var photos: [Photo] = []
    /// Its subfolders that are not hidden: each one's URI, the name it shows, and whether a
    /// walk would enter it now (not a link, nor a mount point or a folder on another drive).
    public var folders: [(uri: String, name: String, isWalked: Bool)] = []

    /// The folder at `uri` as it is now, or nil when it cannot be read (or `cancellation`
    /// stopped the reading).
    public static func read(_ uri: String, cancellation: CancellationFlag) -> FolderContents? {
        let folder = g_file_new_for_uri(uri)
        defer { unref(folder) }
        let cancellable = GIOCancellable(cancellation)
        let device = FileIdentity(of: folder, cancellable: cancellable.pointer)?.device
        var contents = FolderContents()
        let end = FolderListing.read(folder: folder, cancellable: cancellable.pointer, photo: { photo in
            contents.photos.append(photo)
        }, subfolder: { entry in
            guard !entry.name.hasPrefix(".") else { return }
            contents.folders.append((entry.uri, entry.displayName, entry.isEntered(from: device)))
        }, skip: { _ in })
        guard case .finished = end, !cancellation.isCancelled else { return nil }
        return contents
    }

    /// When the folder at `uri` was last modified (a name added, removed or renamed in it),
    /// in microseconds since 1970, or nil when it cannot be looked up.
    public static func modified(_ uri: String, cancellation: CancellationFlag) -> Int64? {
        let folder = g_file_new_for_uri(uri)
        defer { unref(folder) }
        let cancellable = GIOCancellable(cancellation)
        let attributes = "time::modified,time::modified-usec"
        guard let info = g_file_query_info(folder, attributes, G_FILE_QUERY_INFO_NONE, cancellable.pointer, nil) else { return nil }
        defer { unref(info) }
        guard g_file_info_has_attribute(info, "time::modified") != 0 else { return nil }
        return modifiedMicroseconds(in: info)
    }
}
