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
        case .allPhotos, .favourites:
            // One folder's photos (a single folder opened) are handed as they are, not copied.
            if inserted.count <= 1 { return inserted.first?.value ?? [] }
            return inserted.values.flatMap { $0 }
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

    /// This change followed by `later`, as one change: an album given the sum (its removals,
    /// then its insertions) shows what it would show given this change and then `later`. The
    /// window gathers the changes of a long listing's slices with it and hands them to the
    /// albums shown at once, one splice instead of one per slice.
    public mutating func append(_ later: FolderTreeChange) {
        for (folder, ids) in later.removed {
            removed[folder, default: []].formUnion(ids)
            // A photo inserted by this change and removed by the later one is not inserted.
            if let photos = inserted[folder] {
                let kept = photos.filter { !ids.contains($0.id) }
                inserted[folder] = kept.isEmpty ? nil : kept
            }
        }
        for (folder, photos) in later.inserted { recordInsertion(photos, in: folder) }
        changedAlbums.formUnion(later.changedAlbums)
        switcherChanged = switcherChanged || later.switcherChanged
    }

    /// How many photos the change inserts, over every folder.
    public var insertedCount: Int { inserted.values.reduce(0) { $0 + $1.count } }

    mutating func recordRemoval(_ id: String, from folder: String) {
        removed[folder, default: []].insert(id)
    }

    /// Photos gained by `folder`: the first ones as they are, not copied into a new array.
    mutating func recordInsertion(_ photos: [Photo], in folder: String) {
        if inserted[folder] == nil {
            inserted[folder] = photos
        } else {
            inserted[folder]!.append(contentsOf: photos)
        }
    }
}
