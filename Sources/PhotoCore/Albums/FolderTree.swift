/// The opened folder's tree as albums: which photos each folder directly holds, and the
/// albums the switcher lists.
///
/// Fed by the tree's walk (batches of photos per folder, as they are found) and then by
/// changes on disk (photos gone, folders deleted) and by dates taken as they are read. Every
/// change returns a `FolderTreeChange`, which the window forwards to the albums it shows as
/// `PhotoList` splices; the tree never rebuilds anything per batch: inserting k photos costs
/// O(k), plus O(f log f) for f folders when the switcher's order may have changed.
///
/// The switcher's albums, in order (`albums`):
/// 1. All Photos, the opened folder and everything below it;
/// 2. the opened folder's own photos, when it has any;
/// 3. one album per subfolder that directly holds photos, titled by its path below the
///    opened folder ("2024 / 2024-05 Kyoto"), newest first by its newest photo (the date
///    taken, else the modification time), ties in natural order of their titles.
///
/// With no subfolder album there is nothing to switch between: `albums` is empty and the
/// window shows the opened folder as a single grid (All Photos, which is then the same).
public struct FolderTree: Sendable {
    /// The opened folder's URI, as the walk reports it; its own photos are the album
    /// `.folder(rootURI)`.
    public let rootURI: String
    /// The opened folder's name: the title of its own photos' album.
    public let rootName: String

    private struct Folder: Sendable {
        /// Its number: where `slots` say its photos are.
        let number: Int32
        let folder: TreeFolder
        let title: String
        let titleKey: NaturalSortKey
        /// Its photos, in no particular order; each one's place is in the tree's `slots`.
        var photos: [Photo] = []
        /// Its RAW+JPEG pairs: which files it shows as photos.
        var pairs = FolderPairs()
        /// The newest photo (first in `PhotoOrder.newestFirst`).
        var cover: Photo?

        /// Keeps the cover the newest photo now that `photo` arrived or changed, in O(1);
        /// false when the cover itself became older and the folder must be searched for the
        /// newest again.
        mutating func takeAsCover(_ photo: Photo) -> Bool {
            guard let current = cover else {
                cover = photo
                return true
            }
            if current.id == photo.id {
                guard photo.dateTakenOrModified >= current.dateTakenOrModified else { return false }
                cover = photo
            } else if FolderTree.isNewer(photo, than: current) {
                cover = photo
            }
            return true
        }
    }

    private typealias Slot = FolderTreeSlots.Slot
    private typealias PhotoKey = FolderTreeSlots.Key

    /// Folders that hold photos, by URI (the opened folder under `rootURI`).
    private var folders: [String: Folder] = [:]
    /// Each folder's key in `folders`, by its number (numbers are never given twice).
    private var folderKeys: [String] = []
    /// Where each photo is, by id: the one table over every photo of the tree (a photo's
    /// value is kept once, in its folder's array), so 100,000 photos take one table of
    /// small entries, not a table per folder beside a second one from photo to folder.
    private var slots = FolderTreeSlots()
    /// Which folder each companion file (a RAW beside its JPEG, not a photo of its own) is in.
    private var folderOfCompanion: [String: String] = [:]
    /// The switcher's albums in order, kept up to date by every change.
    private var switcherOrder: [AlbumID] = []

    public init(rootURI: String, rootName: String) {
        self.rootURI = rootURI
        self.rootName = rootName
    }

    // MARK: - Questions

    /// How many photos the whole tree holds.
    public var photoCount: Int { slots.count }

    /// Whether there is anything to switch between: at least one subfolder holds photos.
    public var hasAlbums: Bool { !switcherOrder.isEmpty }

    /// The switcher's albums in order (see the type's description); empty when there is
    /// nothing to switch between.
    public var albums: [AlbumSummary] { switcherOrder.compactMap { summary(of: $0) } }

    /// An album's title, count and cover; nil for an album with no photos, or not of this tree.
    public func summary(of album: AlbumID) -> AlbumSummary? {
        switch album {
        case .allPhotos:
            guard !slots.isEmpty else { return nil }
            var cover: Photo?
            for folder in folders.values {
                guard let candidate = folder.cover else { continue }
                if cover.map({ Self.isNewer(candidate, than: $0) }) ?? true { cover = candidate }
            }
            return AlbumSummary(id: .allPhotos, title: tr("All Photos"), count: slots.count,
                                cover: cover, newest: cover?.dateTakenOrModified)
        case .folder(let uri):
            guard let folder = folders[uri], !folder.photos.isEmpty else { return nil }
            return AlbumSummary(id: album, title: folder.title, count: folder.photos.count,
                                cover: folder.cover, newest: folder.cover?.dateTakenOrModified)
        case .collection, .favourites:
            return nil
        }
    }

    /// The photos of an album, in no particular order (a `PhotoList` puts them in display
    /// order).
    public func photos(in album: AlbumID) -> [Photo] {
        switch album {
        case .allPhotos, .favourites:
            var all: [Photo] = []
            all.reserveCapacity(slots.count)
            for folder in folders.values { all.append(contentsOf: folder.photos) }
            return all
        case .folder(let uri):
            return folders[uri]?.photos ?? []
        case .collection:
            return []
        }
    }

    /// The folder a photo is directly in (for the opened folder, with `rootURI`), or nil
    /// when the tree does not hold it. Its album is `.folder(folder.uri)`.
    public func folder(of photoID: String) -> TreeFolder? {
        slots[PhotoKey(photoID)].flatMap { folders[folderKeys[Int($0.folder)]]?.folder }
    }

    /// The photo with this id, as last inserted (with its date taken once known).
    public func photo(id: String) -> Photo? {
        slots[PhotoKey(id)].flatMap { folders[folderKeys[Int($0.folder)]]?.photos[Int($0.index)] }
    }

    // MARK: - Changes

    /// Adds photos found directly in `folder` (a photo already there is replaced; one that was
    /// in another folder moves). A RAW file and a JPEG of the same name are one photo, the
    /// JPEG, with the RAW as its companion (`FolderPairs`), whichever of them comes first. A replacement without a date taken keeps the date known for
    /// the same file (same modification time and size), as `PhotoList.insert` does.
    @discardableResult
    public mutating func insert(_ photos: [Photo], in folder: TreeFolder) -> FolderTreeChange {
        insert([FolderPhotos(folder: folder, photos: photos)])
    }

    /// Adds several folders' batches as one change (one delivery of the walk).
    @discardableResult
    public mutating func insert(_ batches: [FolderPhotos]) -> FolderTreeChange {
        var edit = Edit(allPhotosBefore: summary(of: .allPhotos))
        for batch in batches where !batch.photos.isEmpty {
            insert(batch.photos, into: batch.folder, edit: &edit)
        }
        return finish(edit)
    }

    /// Removes photos by id (ids the tree does not hold are ignored). A companion file's id
    /// takes it from its photo, which changes; a JPEG's leaves its RAW files as photos.
    @discardableResult
    public mutating func remove(ids: Set<String>) -> FolderTreeChange {
        var edit = Edit(allPhotosBefore: summary(of: .allPhotos))
        var byFolder: [String: Set<String>] = [:]
        for id in ids {
            guard let key = slots[PhotoKey(id)].map({ folderKeys[Int($0.folder)] }) ?? folderOfCompanion[id] else { continue }
            byFolder[key, default: []].insert(id)
        }
        for (key, ids) in byFolder {
            guard folders[key] != nil else { continue }
            touch(key, &edit)
            var entry = folders.removeValue(forKey: key)!
            for id in ids { folderOfCompanion[id] = nil }
            let effect = entry.pairs.leave(ids)
            apply(effect, to: &entry, key: key, edit: &edit)
            folders[key] = entry
        }
        return finish(edit)
    }

    /// Removes a folder and everything below it (deleted or moved away on disk). The
    /// opened folder's URI removes everything.
    @discardableResult
    public mutating func removeFolder(uri: String) -> FolderTreeChange {
        var edit = Edit(allPhotosBefore: summary(of: .allPhotos))
        let prefix = uri.hasSuffix("/") ? uri : uri + "/"
        let everything = uri == rootURI
        let keys = folders.keys.filter { everything || $0 == uri || $0.hasPrefix(prefix) }
        for key in keys {
            touch(key, &edit)
            guard let removed = folders.removeValue(forKey: key), !removed.photos.isEmpty else { continue }
            for photo in removed.photos {
                slots[PhotoKey(photo)] = nil
                for companion in photo.companions { folderOfCompanion[companion.id] = nil }
            }
            edit.change.removed[key, default: []].formUnion(removed.photos.lazy.map(\.id))
        }
        return finish(edit)
    }

    /// Records when photos were taken (nil: the file records none), as `PhotoList.setDatesTaken`
    /// takes them; ids the tree does not hold are ignored. The newest photo of each folder
    /// decides its album's cover and place, so the change may reorder the switcher. The
    /// photos' new dates are not in the change: the window hands the same dates to its lists.
    @discardableResult
    public mutating func setDatesTaken(_ dates: [String: Int64?]) -> FolderTreeChange {
        var edit = Edit(allPhotosBefore: summary(of: .allPhotos))
        // By folder: each folder is taken out once and its photos changed in place, its key
        // hashed once, not three times a photo (a folder opened again gets 100,000 at once).
        var byFolder: [Int32: [(index: Int32, date: Int64?)]] = [:]
        for (id, date) in dates {
            guard let slot = slots[PhotoKey(id)] else { continue }
            byFolder[slot.folder, default: []].append((slot.index, date))
        }
        for (number, changes) in byFolder {
            let key = folderKeys[Int(number)]
            guard let photos = folders[key]?.photos, changes.contains(where: { photos[Int($0.index)].dateTaken != $0.date }) else { continue }
            touch(key, &edit)
            var entry = folders.removeValue(forKey: key)!
            for (index, date) in changes where entry.photos[Int(index)].dateTaken != date {
                entry.photos[Int(index)].dateTaken = date
                if !entry.takeAsCover(entry.photos[Int(index)]) { edit.staleCovers.insert(key) }
            }
            folders[key] = entry
        }
        return finish(edit)
    }

    /// Records the Live Photo identifiers read of stills and movies (nil: the file has
    /// none); ids the tree does not hold are ignored. A movie may go with another still than
    /// the one of its name, or with none (`FolderPairs`).
    @discardableResult
    public mutating func setLiveIdentifiers(_ read: [String: String?]) -> FolderTreeChange {
        var edit = Edit(allPhotosBefore: summary(of: .allPhotos))
        var byFolder: [String: [String: String?]] = [:]
        for (id, identifier) in read {
            guard let key = slots[PhotoKey(id)].map({ folderKeys[Int($0.folder)] }) ?? folderOfCompanion[id] else { continue }
            byFolder[key, default: [:]][id] = identifier
        }
        for (key, identifiers) in byFolder {
            guard folders[key] != nil else { continue }
            touch(key, &edit)
            var entry = folders.removeValue(forKey: key)!
            let effect = entry.pairs.identify(identifiers)
            apply(effect, to: &entry, key: key, edit: &edit)
            folders[key] = entry
        }
        return finish(edit)
    }

    /// The stills and movies whose Live Photo identifiers are to be read: those of folders
    /// holding a movie, not read yet.
    public var unidentifiedLiveFiles: [String] {
        folders.values.flatMap { $0.pairs.unidentified }
    }

    // MARK: - Bookkeeping

    /// One change in progress: what it did so far, and the summaries of the folders it
    /// touched as they were before it.
    private struct Edit {
        var change = FolderTreeChange()
        var before: [String: AlbumSummary?] = [:]
        var staleCovers: Set<String> = []
        let allPhotosBefore: AlbumSummary?

        init(allPhotosBefore: AlbumSummary?) { self.allPhotosBefore = allPhotosBefore }
    }

    /// Whether `a` comes before `b` newest first (ties by name, then id).
    fileprivate static func isNewer(_ a: Photo, than b: Photo) -> Bool {
        PhotoOrder.newestFirst.areInIncreasingOrder(a, b)
    }

    private func key(of folder: TreeFolder) -> String { folder.isRoot ? rootURI : folder.uri }

    private func touch(_ key: String, _ edit: inout Edit) {
        if edit.before.index(forKey: key) == nil { edit.before[key] = .some(summary(of: .folder(key))) }
    }

    private mutating func insert(_ photos: [Photo], into folder: TreeFolder, edit: inout Edit) {
        let key = key(of: folder)
        touch(key, &edit)
        // Taken out while the batch goes in, so its photos are changed in place and its key
        // is not hashed again for every photo.
        var entry = folders.removeValue(forKey: key) ?? {
            let title = folder.isRoot ? rootName : folder.path.joined(separator: " / ")
            folderKeys.append(key)
            return Folder(number: Int32(folderKeys.count - 1), folder: folder.isRoot ? TreeFolder(uri: rootURI, path: []) : folder,
                          title: title, titleKey: NaturalSortKey(title))
        }()
        slots.reserveCapacity(slots.count + photos.count)
        // At least doubled when it grows: an array reserved to the exact count is copied
        // whole for every batch of a large folder.
        let needed = entry.photos.count + photos.count
        if entry.photos.capacity < needed { entry.photos.reserveCapacity(max(needed, 2 * entry.photos.capacity)) }
        let effect = entry.pairs.arrive(photos, shown: entry.photos)
        apply(effect, to: &entry, key: key, edit: &edit)
        folders[key] = entry
    }

    /// Shows in a folder (taken out of `folders` meanwhile) what its pairs say: photos shown
    /// or changed, and photos no longer shown.
    private mutating func apply(_ effect: FolderPairs.Effect, to entry: inout Folder, key: String, edit: inout Edit) {
        for id in effect.hidden {
            let photoKey = PhotoKey(id)
            guard let slot = slots[photoKey], slot.folder == entry.number else { continue }
            slots[photoKey] = nil
            removePhoto(at: Int(slot.index), from: &entry)
            if entry.cover?.id == id { edit.staleCovers.insert(key) }
            edit.change.recordRemoval(id, from: key)
        }
        var inserted: [Photo] = []
        inserted.reserveCapacity(effect.shown.count)
        for var photo in effect.shown {
            // Most folders hold no RAW file: their photos look nothing up here.
            if !folderOfCompanion.isEmpty { folderOfCompanion[photo.id] = nil }
            for companion in photo.companions { folderOfCompanion[companion.id] = key }
            let photoKey = PhotoKey(photo)
            let slot = slots[photoKey]
            var previous: Photo?
            if let slot, slot.folder == entry.number {
                previous = entry.photos[Int(slot.index)]
            } else if let slot {
                let previousKey = folderKeys[Int(slot.folder)]
                touch(previousKey, &edit)
                if var other = folders.removeValue(forKey: previousKey) {
                    previous = removePhoto(at: Int(slot.index), from: &other)
                    if other.cover?.id == photo.id { edit.staleCovers.insert(previousKey) }
                    folders[previousKey] = other
                }
                slots[photoKey] = nil
                edit.change.recordRemoval(photo.id, from: previousKey)
            }
            if let previous, photo.dateTaken == nil, previous.modified == photo.modified, previous.size == photo.size {
                photo.dateTaken = previous.dateTaken
            }
            if let slot, slot.folder == entry.number {
                if previous == photo { continue }
                entry.photos[Int(slot.index)] = photo
            } else {
                slots[photoKey] = Slot(folder: entry.number, index: Int32(entry.photos.count))
                entry.photos.append(photo)
            }
            inserted.append(photo)
            if !entry.takeAsCover(photo) { edit.staleCovers.insert(key) }
        }
        if !inserted.isEmpty { edit.change.recordInsertion(inserted, in: key) }
    }

    /// Takes the photo at `index` out of a folder's photos (the last one takes its place,
    /// its slot moved with it); returns it.
    @discardableResult
    private mutating func removePhoto(at index: Int, from folder: inout Folder) -> Photo {
        let removed = folder.photos[index]
        let last = folder.photos.count - 1
        if index != last {
            folder.photos.swapAt(index, last)
            slots[PhotoKey(folder.photos[index])] = Slot(folder: folder.number, index: Int32(index))
        }
        folder.photos.removeLast()
        return removed
    }

    /// Keeps a folder's cover its newest photo after `photo` changed (a new date taken).
    private mutating func updateCover(with photo: Photo, in key: String, edit: inout Edit) {
        if folders[key]?.takeAsCover(photo) == false { edit.staleCovers.insert(key) }
    }

    /// Finishes a change: covers rescanned where needed, empty folders dropped, and what
    /// changed for the albums and the switcher worked out.
    private mutating func finish(_ edit: Edit) -> FolderTreeChange {
        var change = edit.change
        for key in edit.staleCovers {
            guard let photos = folders[key]?.photos else { continue }
            folders[key]?.cover = photos.min(by: Self.isNewer)
        }
        var orderMayChange = false
        for (key, old) in edit.before {
            if folders[key]?.photos.isEmpty == true { folders[key] = nil }
            let new = summary(of: .folder(key))
            guard old != new else { continue }
            change.changedAlbums.insert(.folder(key))
            if old?.newest != new?.newest { orderMayChange = true }
        }
        if summary(of: .allPhotos) != edit.allPhotosBefore { change.changedAlbums.insert(.allPhotos) }
        if orderMayChange {
            let order = switcherOrderNow()
            if order != switcherOrder {
                switcherOrder = order
                change.switcherChanged = true
            }
        }
        return change
    }

    /// The switcher's albums in order, worked out from the folders: O(f log f).
    private func switcherOrderNow() -> [AlbumID] {
        var subfolders: [(key: String, newest: Int64, titleKey: NaturalSortKey)] = []
        for (key, folder) in folders where key != rootURI {
            guard let cover = folder.cover, !folder.photos.isEmpty else { continue }
            subfolders.append((key, cover.dateTakenOrModified, folder.titleKey))
        }
        guard !subfolders.isEmpty else { return [] }
        subfolders.sort { a, b in
            if a.newest != b.newest { return a.newest > b.newest }
            if a.titleKey != b.titleKey { return a.titleKey < b.titleKey }
            return a.key < b.key
        }
        var order: [AlbumID] = [.allPhotos]
        if folders[rootURI]?.photos.isEmpty == false { order.append(.folder(rootURI)) }
        order.append(contentsOf: subfolders.map { .folder($0.key) })
        return order
    }
}
