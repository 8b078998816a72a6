/// A folder of the opened tree looked at again once its monitor follows it: a walk reads a
/// folder before the folder's monitor starts (the monitors start with the window's first
/// frame, and the walk's thread reads on while the main thread takes what it found), so a
/// file created, deleted or renamed in between reaches no monitor. When the walk has ended,
/// each folder it read whose modification time is not older than the walk's start is read
/// again, and what differs from the tree goes to the albums as a monitor's update would.
///
/// A folder's modification time changes when names are added, removed or renamed in it; a
/// file rewritten in place under the same name changes only its own, and is not caught here.
public struct FolderRecheck: Sendable {
    /// How much older than the walk's start a folder's time may read and still be read again
    /// (microseconds): file systems keep times coarsely (the kernel's clock by the tick, FAT
    /// by 2 seconds, some remote locations by the second).
    public static let clockSlack: Int64 = 2_000_000

    /// Whether a folder modified at `folderModified` may have changed after a walk started at
    /// `walkStarted` read it (both microseconds since 1970).
    public static func isDue(folderModified: Int64, walkStarted: Int64) -> Bool {
        folderModified >= walkStarted - clockSlack
    }

    /// What a file was when the tree took it.
    private struct Known: Sendable {
        let modified: Int64
        let size: Int64
        let contentType: String
    }

    /// The folder read again.
    public let folder: TreeFolder
    private let photos: [Photo]
    private let folders: Set<String>

    /// The folder as the tree holds it, taken before it is read again (on the main thread: a
    /// copy of the list, no photo looked at): the photos it shows (each with the files shown
    /// with it, a RAW file or a Live Photo's movie: `companions`) and the subfolders followed
    /// in it, by URI.
    public init(folder: TreeFolder, photos: [Photo], folders: Set<String>) {
        self.folder = folder
        self.photos = photos
        self.folders = folders
    }

    /// What changed, from the folder as read now: its photos, and its subfolders (by URI, with
    /// the name each shows, and whether a walk would enter it: not a link, nor another drive).
    /// New or changed photos are `updated`, photos and followed subfolders no longer there
    /// `removed`, new subfolders a walk would enter `folders`. What
    /// appeared after the tree was taken and went away before the folder was read again is in
    /// neither, and is not missed: its monitor reported it. On a worker: a folder of 100,000
    /// photos is compared by a table of them made here.
    public func update(photos listed: [Photo], folders listedFolders: [(uri: String, name: String, isWalked: Bool)]) -> FolderUpdate {
        var update = FolderUpdate()
        var unseen: [String: Known] = [:]
        unseen.reserveCapacity(photos.count)
        for photo in photos {
            for file in [photo] + photo.companions {
                unseen[file.id] = Known(modified: file.modified, size: file.size, contentType: file.contentType)
            }
        }
        for photo in listed {
            guard let known = unseen.removeValue(forKey: photo.id) else {
                update.updated.append(photo)
                continue
            }
            if known.modified != photo.modified || known.size != photo.size || known.contentType != photo.contentType {
                update.updated.append(photo)
            }
        }
        update.removed = Set(unseen.keys)
        var gone = folders
        for entry in listedFolders where gone.remove(entry.uri) == nil && entry.isWalked {
            update.folders.append(folder.child(uri: entry.uri, name: entry.name))
        }
        update.removed.formUnion(gone)
        return update
    }
}

extension FolderUpdate {
    /// This update without what `reported` names (a monitor reported those files later than
    /// the update looked: its word is the newer one).
    public func excluding(_ reported: Set<String>) -> FolderUpdate {
        guard !reported.isEmpty else { return self }
        var update = FolderUpdate()
        update.updated = updated.filter { !reported.contains($0.id) }
        update.removed = removed.subtracting(reported)
        update.folders = folders.filter { !reported.contains($0.uri) }
        return update
    }

    /// Whether the update changes nothing.
    public var isEmpty: Bool { updated.isEmpty && removed.isEmpty && folders.isEmpty }
}
