/// Which album a grid shows: every photo below the opened folder, the photos directly in
/// one folder, or an album of the person's own (a collection of photos from anywhere).
///
/// The grid, the viewer, edit mode and the neighbour window serve every kind alike: each
/// album is a `PhotoList` in display order, fed by its source (a folder tree's walk, a
/// collection's document).
public enum AlbumID: Hashable, Sendable {
    /// The opened folder and everything below it, as one grid.
    case allPhotos
    /// The photos directly in one folder (its URI): the opened folder's own, or a subfolder's.
    case folder(String)
    /// An album of the person's own: its collection's id.
    case collection(String)
    /// Every favourite below the opened folder (`FavouritesAlbum`).
    case favourites
}

/// An album as the switcher lists it: its title, how many photos it holds, and its cover.
public struct AlbumSummary: Sendable, Equatable {
    public let id: AlbumID
    /// What the switcher and the window title say: "2024 / 2024-05 Kyoto" for a subfolder
    /// (its path below the opened folder), the folder's name for its own photos.
    public let title: String
    public let count: Int
    /// The photo that stands for the album: its newest.
    public let cover: Photo?
    /// When its newest photo was taken (else modified), microseconds since the epoch; the
    /// switcher lists folder albums newest first.
    public let newest: Int64?

    public init(id: AlbumID, title: String, count: Int, cover: Photo?, newest: Int64?) {
        self.id = id
        self.title = title
        self.count = count
        self.cover = cover
        self.newest = newest
    }
}

extension AlbumID {
    /// A string that names the album, for list models that hold strings: `all`,
    /// `folder:URI`, `collection:ID`.
    public var key: String {
        switch self {
        case .allPhotos: "all"
        case .folder(let uri): "folder:" + uri
        case .collection(let id): "collection:" + id
        case .favourites: "favourites"
        }
    }

    /// The album a `key` names, or nil.
    public init?(key: String) {
        if key == "all" {
            self = .allPhotos
        } else if key == "favourites" {
            self = .favourites
        } else if key.hasPrefix("folder:") {
            self = .folder(String(key.dropFirst("folder:".count)))
        } else if key.hasPrefix("collection:") {
            self = .collection(String(key.dropFirst("collection:".count)))
        } else {
            return nil
        }
    }
}
