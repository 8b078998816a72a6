/// A folder in the tree below an opened folder (or the opened folder itself): where it is,
/// and the names of the folders leading to it, which title its album.
public struct TreeFolder: Sendable, Hashable {
    /// The folder's URI (`file:///…`, or any GIO location). For the opened folder, the URI
    /// it was opened with.
    public let uri: String
    /// The display names of the folders from the opened folder down to this one: empty for
    /// the opened folder, `["2024", "2024-05 Kyoto"]` two levels below it.
    public let path: [String]

    public init(uri: String, path: [String]) {
        self.uri = uri
        self.path = path
    }

    /// Whether this is the opened folder itself.
    public var isRoot: Bool { path.isEmpty }

    /// The folder one level down, named `name`, at `uri`.
    public func child(uri: String, name: String) -> TreeFolder {
        TreeFolder(uri: uri, path: path + [name])
    }
}

/// Photos found directly in one folder of a tree: one batch of a tree's walk.
public struct FolderPhotos: Sendable {
    public let folder: TreeFolder
    public let photos: [Photo]

    public init(folder: TreeFolder, photos: [Photo]) {
        self.folder = folder
        self.photos = photos
    }
}
