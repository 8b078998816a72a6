/// What a folder's monitor reports of a file in it (GIO's `GFileMonitorEvent`, without GIO),
/// and which files it asks to look up again.
public enum FolderEvent: Sendable, Equatable, CaseIterable {
    case created
    /// A file is being written: `changesDone` follows when it is done.
    case changed
    case changesDone
    case deleted
    case movedIn
    case movedOut
    /// Renamed within the folder: the old name and the new one.
    case renamed
    case attributeChanged
    case preUnmount
    case unmounted
    /// Anything else a monitor may say.
    case other

    /// The files (URIs) to look up again after this event about `file` (and `other`, a
    /// rename's new name): none while a file is still being written (`changed`) or for what
    /// says nothing of the folder's files.
    public func filesToLookUp(file: String?, other: String?) -> [String] {
        switch self {
        case .created, .changesDone, .deleted, .movedIn, .movedOut, .attributeChanged:
            return [file].compactMap { $0 }
        case .renamed:
            return [file, other].compactMap { $0 }
        case .changed, .preUnmount, .unmounted, .other:
            return []
        }
    }
}

/// What a folder's changed files turned out to be, looked up again: the folder tree's update.
public struct FolderUpdate: Sendable, Equatable {
    /// What one file is now.
    public enum Entry: Sendable, Equatable {
        /// An image this browser shows.
        case photo(Photo)
        /// A folder to search, with the name it shows.
        case folder(name: String)
        /// Gone, or nothing this browser shows or searches.
        case nothing
    }

    /// Photos that appeared or changed.
    public var updated: [Photo] = []
    /// What went away (photos or folders), by URI.
    public var removed = Set<String>()
    /// Subfolders that appeared, in the tree under the folder followed.
    public var folders: [TreeFolder] = []

    public init() {}

    /// The update from `entries` (each file's URI and what it is now), in `parent`.
    public init(parent: TreeFolder, entries: [(uri: String, entry: Entry)]) {
        for (uri, entry) in entries {
            switch entry {
            case .photo(let photo): updated.append(photo)
            case .folder(let name): folders.append(parent.child(uri: uri, name: name))
            case .nothing: removed.insert(uri)
            }
        }
    }
}
