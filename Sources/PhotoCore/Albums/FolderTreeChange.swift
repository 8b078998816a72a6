/// What one change of a `FolderTree` did: which photos each folder gained and lost, which
/// albums' summaries changed, and whether the switcher's list changed.
///
/// The window forwards it to the albums it shows, as `PhotoList` splices:
/// `list.remove(ids: change.removedIDs(from: album))`, then
/// `list.insert(change.insertedPhotos(in: album))`.
public struct FolderTreeChange: Sendable {
    /// Photos added to each folder (by folder URI), or replaced there by a new value (the
    /// file changed). A photo that moved from another folder is also in `removed` there.
    public internal(set) var inserted: [String: [Photo]] = [:]
    /// Ids of the photos that left each folder (by folder URI).
    public internal(set) var removed: [String: Set<String>] = [:]
    /// The albums whose summary (count, cover, newest) is not what it was, including
    /// albums that appeared (their first photo) or vanished (their last photo went).
    public internal(set) var changedAlbums: Set<AlbumID> = []
    /// Whether the switcher's list (`FolderTree.albums`) gained, lost or reordered albums,
    /// or appeared or went (`FolderTree.hasAlbums`).
    public internal(set) var switcherChanged = false

    public init() {}

    /// Whether nothing changed at all.
    public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && changedAlbums.isEmpty && !switcherChanged }

    /// The photos `album` gained (or that changed in it): for All Photos, every folder's.
    public func insertedPhotos(in album: AlbumID) -> [Photo] {
        switch album {
        case .allPhotos, .favourites: return inserted.values.flatMap { $0 }
        case .folder(let uri): return inserted[uri] ?? []
        case .collection: return []
        }
    }

    /// The ids of the photos that left `album`. For All Photos, a photo that only moved
    /// from one folder to another is not among them: it stays in the album.
    public func removedIDs(from album: AlbumID) -> Set<String> {
        switch album {
        case .allPhotos, .favourites:
            guard !removed.isEmpty else { return [] }
            var ids = Set<String>()
            for folderIDs in removed.values { ids.formUnion(folderIDs) }
            for photos in inserted.values { for photo in photos { ids.remove(photo.id) } }
            return ids
        case .folder(let uri): return removed[uri] ?? []
        case .collection: return []
        }
    }

    mutating func recordRemoval(_ id: String, from folder: String) {
        removed[folder, default: []].insert(id)
    }
}
