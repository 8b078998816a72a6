import CGdkPixbuf
import Glibc
import PhotoCore
import Synchronization

/// The albums of the person's own found in the albums folder: those that parse, in the
/// switcher's order, and the documents that do not, with why (left on the disk untouched).
public struct CollectionLoad: Sendable, Equatable {
    public let collections: [PhotoCollection]
    public let unreadable: [UnreadableCollection]

    public init(collections: [PhotoCollection], unreadable: [UnreadableCollection]) {
        self.collections = collections
        self.unreadable = unreadable
    }
}

/// A document in the albums folder that is no album the app can read.
public struct UnreadableCollection: Sendable, Equatable {
    /// Its name in the folder (`ID.json`).
    public let fileName: String
    public let path: String
    public let problem: CollectionProblem
}

/// An album just deleted, for Undo: its document is kept in `deleted/` (and the album in
/// memory here) until `discard` or `purgeDeleted`.
public struct DeletedCollection: Sendable, Equatable {
    public let id: String
    /// Its title, when its document could be read.
    public var title: String? { collection?.title }
    /// The album as it was, rewritten by `undoDelete` if the kept document is gone.
    let collection: PhotoCollection?
    /// The kept document's modification time (microseconds): which deletion this is.
    let kept: Int64?
}

/// The albums of the person's own on the disk: one `CollectionDocument` per album in
/// `$XDG_DATA_HOME/gphotobrowse/albums/` (`~/.local/share/…` without it), made when first
/// written to, only its owner may enter it.
///
/// Every call is synchronous file I/O: call it on a worker thread, never the main one. Any
/// thread may use the store, and any number of stores (windows, processes) may share the
/// folder:
/// - Every change takes the folder's lock (`FolderLock`), reads the album as it is on the
///   disk, applies the change (`PhotoCollection`'s operations) and writes it. So changes
///   from two windows at once both land (photos added in one and removed in the other),
///   and nothing is written over a document newer than what was read. Of two renames the
///   later wins; a change to an album another window deleted fails with `.notFound`.
/// - A document is written atomically: a temporary file (`.ID.json.RANDOM.tmp`) in the
///   folder, flushed to the disk, renamed over the old one. A crash leaves the old document
///   and at worst a stray temporary file, which loading ignores and `purgeDeleted` removes.
/// - A deleted album's document moves to `deleted/` (and its album is kept in the
///   `DeletedCollection`): `undoDelete` moves it back, `discard` or `purgeDeleted` removes it.
/// - The app watches `folderURI` (GFileMonitor) and calls `reloadIfChanged`, which compares
///   the documents' names, inodes, sizes and times with what it last loaded and reads them
///   only when they differ (its own changes do not count as differences).
public final class CollectionStore: Sendable {
    /// `$XDG_DATA_HOME`, or `~/.local/share`, as GLib reads it (once per process).
    public static var defaultDataHome: String { String(cString: g_get_user_data_dir()) }
    /// How long `purgeDeleted` keeps a deleted album's document by default: 7 days.
    public static let deletedRetention: Int64 = 7 * 86_400 * 1_000_000

    /// The albums folder: `DATA_HOME/gphotobrowse/albums`.
    public let folderPath: String
    /// Where deleted albums' documents are kept until purged.
    public var deletedFolderPath: String { folderPath + "/deleted" }
    private let clock: @Sendable () -> Int64
    /// The documents as this store last read them (or wrote them on top of that).
    private let lastSeen = Mutex<FolderSignature?>(nil)

    /// A store in `dataHome` (tests give a temporary folder); `clock` gives the times
    /// written in documents (microseconds since the epoch).
    public init(dataHome: String = CollectionStore.defaultDataHome, clock: @escaping @Sendable () -> Int64 = { CollectionStore.currentTime() }) {
        folderPath = (dataHome.hasSuffix("/") ? String(dataHome.dropLast()) : dataHome) + "/gphotobrowse/albums"
        self.clock = clock
    }

    /// The time now, in microseconds since the epoch (the default clock).
    public static func currentTime() -> Int64 { CollectionFiles.now() }

    /// The albums folder's URI, for a GFileMonitor (`prepareFolder` makes it exist).
    public var folderURI: String {
        guard let uri = g_filename_to_uri(folderPath, nil, nil) else { return "file://" + folderPath }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// Makes the albums folder if it is not there (so that it can be watched).
    public func prepareFolder() -> Result<Void, CollectionProblem> {
        if let code = CollectionFiles.makeFolder(folderPath) { return .failure(.folder(CollectionFiles.reason(code))) }
        return .success(())
    }

    // MARK: - Reading

    /// Every album in the folder; none when the folder is not there yet.
    public func loadAll() -> CollectionLoad {
        let signature = CollectionFiles.signature(of: folderPath)
        let load = readAll()
        lastSeen.withLock { $0 = signature }
        return load
    }

    /// Every album, when the folder's documents changed since this store last read or
    /// wrote them (another window or process, an edit by hand); nil when they did not.
    public func reloadIfChanged() -> CollectionLoad? {
        let signature = CollectionFiles.signature(of: folderPath)
        if lastSeen.withLock({ $0 == signature }) { return nil }
        let load = readAll()
        lastSeen.withLock { $0 = signature }
        return load
    }

    /// One album as its document says now.
    public func load(_ id: String) -> Result<PhotoCollection, CollectionProblem> {
        do throws(CollectionProblem) {
            return .success(try document(id))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Changing

    /// A new album titled `title` with `photos`, or why not (see `PhotoCollection.make`:
    /// no two albums made here share a title).
    public func create(title: String, photos: [String] = []) -> Result<PhotoCollection, CollectionProblem> {
        changing { () throws(CollectionProblem) in
            let taken = readAll().collections.map(\.title)
            var id = PhotoCollection.newID()
            while CollectionFiles.modified(path(id)) != nil { id = PhotoCollection.newID() }
            let collection = try PhotoCollection.make(title: title, photos: photos, among: taken, now: clock(), id: id)
            try save(collection)
            return collection
        }
    }

    /// Adds `uris` at the end of the album (those it holds already are left out).
    public func add(_ uris: [String], to id: String) -> Result<PhotoCollection, CollectionProblem> {
        changing { () throws(CollectionProblem) in
            let collection = try document(id)
            let changed = try collection.adding(uris, now: clock())
            if changed != collection { try save(changed) }
            return changed
        }
    }

    /// Removes `uris` from the album ("Remove from Album"), with what `restore` needs to
    /// put them back (Undo).
    public func remove(_ uris: [String], from id: String) -> Result<(PhotoCollection, CollectionRemoval), CollectionProblem> {
        changing { () throws(CollectionProblem) in
            let collection = try document(id)
            let (changed, removal) = collection.removing(uris, now: clock())
            if changed != collection { try save(changed) }
            return (changed, removal)
        }
    }

    /// Renames the album (see `CollectionTitle`: not to another album's title).
    public func rename(_ id: String, to title: String) -> Result<PhotoCollection, CollectionProblem> {
        changing { () throws(CollectionProblem) in
            let collection = try document(id)
            let taken = readAll().collections.filter { $0.id != id }.map(\.title)
            let changed = try collection.renamed(to: title, among: taken, now: clock())
            if changed != collection { try save(changed) }
            return changed
        }
    }

    /// Removes `uris` from every album that holds them: the app moved those photos to the
    /// trash. Returns what `restore` needs to put them back (Undo), one removal per album
    /// changed, and the albums that could not be changed (their documents are as they were).
    public func removeEverywhere(_ uris: [String]) -> (removals: [CollectionRemoval], problems: [CollectionProblem]) {
        let result = changing { () throws(CollectionProblem) in
            var removals: [CollectionRemoval] = []
            var problems: [CollectionProblem] = []
            let now = clock()
            for collection in readAll().collections {
                let (changed, removal) = collection.removing(uris, now: now)
                guard !removal.isEmpty else { continue }
                do throws(CollectionProblem) {
                    try save(changed)
                    removals.append(removal)
                } catch {
                    problems.append(error)
                }
            }
            return (removals, problems)
        }
        switch result {
        case .success(let outcome): return outcome
        case .failure(let problem): return ([], [problem])
        }
    }

    /// Gives photos the app renamed their new URIs (`renamed[old] = new`) in every album that
    /// holds them, at the same places. Returns the albums changed, and those that could not be
    /// (their documents are as they were).
    public func renameEverywhere(_ renamed: [String: String]) -> (changed: [PhotoCollection], problems: [CollectionProblem]) {
        let result = changing { () throws(CollectionProblem) in
            var changed: [PhotoCollection] = []
            var problems: [CollectionProblem] = []
            let now = clock()
            for collection in readAll().collections {
                let renamedCollection = collection.renaming(renamed, now: now)
                guard renamedCollection != collection else { continue }
                do throws(CollectionProblem) {
                    try save(renamedCollection)
                    changed.append(renamedCollection)
                } catch {
                    problems.append(error)
                }
            }
            return (changed, problems)
        }
        switch result {
        case .success(let outcome): return outcome
        case .failure(let problem): return ([], [problem])
        }
    }

    /// Puts removed photos back at their places in their albums (Undo of `remove` and
    /// `removeEverywhere`). A photo restored from the trash under another name is given as
    /// `renamed[old URI] = new URI`. Returns the albums as they are now, and why others
    /// could not be restored (an album deleted since: `.notFound`).
    public func restore(_ removals: [CollectionRemoval], renamed: [String: String] = [:]) -> (restored: [PhotoCollection], problems: [CollectionProblem]) {
        let result = changing { () throws(CollectionProblem) in
            var restored: [PhotoCollection] = []
            var problems: [CollectionProblem] = []
            let now = clock()
            for removal in removals where !removal.isEmpty {
                do throws(CollectionProblem) {
                    let collection = try document(removal.collectionID)
                    let changed = try collection.restoring(removal, renamed: renamed, now: now)
                    if changed != collection { try save(changed) }
                    restored.append(changed)
                } catch {
                    problems.append(error)
                }
            }
            return (restored, problems)
        }
        switch result {
        case .success(let outcome): return outcome
        case .failure(let problem): return ([], [problem])
        }
    }

    // MARK: - Deleting, with Undo

    /// Deletes the album: its document moves to `deleted/`, whence `undoDelete` brings it
    /// back. The album may be unreadable (a broken document is deleted the same way).
    public func delete(_ id: String) -> Result<DeletedCollection, CollectionProblem> {
        changing { () throws(CollectionProblem) in
            guard PhotoCollection.isValidID(id) else { throw .notFound }
            var collection: PhotoCollection?
            do throws(CollectionProblem) {
                collection = try document(id)
            } catch where error.kind == .notFound {
                throw error
            } catch {
                collection = nil
            }
            if let code = CollectionFiles.makeFolder(deletedFolderPath) { throw .deleting(CollectionFiles.reason(code)) }
            let kept = keptPath(id)
            guard Glibc.rename(path(id), kept) == 0 else {
                throw errno == ENOENT ? .notFound : .deleting(CollectionFiles.reason(errno))
            }
            CollectionFiles.touch(kept)
            CollectionFiles.flushFolder(deletedFolderPath)
            CollectionFiles.flushFolder(folderPath)
            return DeletedCollection(id: id, collection: collection, kept: CollectionFiles.modified(kept))
        }
    }

    /// Brings a deleted album back as it was: its kept document, or, when that is gone, the
    /// album as it was read when deleted. When the album is back already (Undo in another
    /// window), returns it.
    public func undoDelete(_ deleted: DeletedCollection) -> Result<PhotoCollection, CollectionProblem> {
        changing { () throws(CollectionProblem) in
            if CollectionFiles.modified(path(deleted.id)) != nil { return try document(deleted.id) }
            if Glibc.rename(keptPath(deleted.id), path(deleted.id)) == 0 {
                CollectionFiles.flushFolder(folderPath)
                return try document(deleted.id)
            }
            guard errno == ENOENT else { throw .restoring(CollectionFiles.reason(errno)) }
            guard let collection = deleted.collection else { throw .notFound }
            try save(collection)
            return collection
        }
    }

    /// Removes the kept document of a deleted album for good (the time to undo is over),
    /// unless it is that of a later deletion of the same album.
    public func discard(_ deleted: DeletedCollection) {
        let kept = keptPath(deleted.id)
        guard let modified = CollectionFiles.modified(kept), modified == deleted.kept else { return }
        unlink(kept)
    }

    /// Removes the documents of albums deleted more than `age` microseconds ago, and
    /// temporary files more than an hour old (left by a crash while writing). Returns how
    /// many files it removed. Call it now and then (at start-up).
    @discardableResult
    public func purgeDeleted(olderThan age: Int64 = CollectionStore.deletedRetention) -> Int {
        let now = CollectionFiles.now()
        var removed = 0
        for name in CollectionFiles.names(in: deletedFolderPath) where CollectionFiles.isDocumentName(name) {
            let kept = deletedFolderPath + "/" + name
            if let modified = CollectionFiles.modified(kept), modified < now - age, unlink(kept) == 0 { removed += 1 }
        }
        for name in CollectionFiles.names(in: folderPath) where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let temporary = folderPath + "/" + name
            if let modified = CollectionFiles.modified(temporary), modified < now - 3_600_000_000, unlink(temporary) == 0 { removed += 1 }
        }
        return removed
    }

    // MARK: - Documents

    private func path(_ id: String) -> String { folderPath + "/" + id + ".json" }
    private func keptPath(_ id: String) -> String { deletedFolderPath + "/" + id + ".json" }

    /// The album `id` as its document says now.
    private func document(_ id: String) throws(CollectionProblem) -> PhotoCollection {
        guard PhotoCollection.isValidID(id) else { throw .notFound }
        return try CollectionFiles.read(path(id)).flatMap { CollectionDocument.parse($0, id: id) }.get()
    }

    private func save(_ collection: PhotoCollection) throws(CollectionProblem) {
        if let code = CollectionFiles.writeAtomically(CollectionDocument.encode(collection), to: collection.id + ".json", in: folderPath) {
            throw .saving(CollectionFiles.reason(code))
        }
    }

    private func readAll() -> CollectionLoad {
        var collections: [PhotoCollection] = []
        var unreadable: [UnreadableCollection] = []
        for name in CollectionFiles.names(in: folderPath).filter(CollectionFiles.isDocumentName).sorted() {
            let id = String(name.dropLast(".json".count))
            let problem: CollectionProblem
            if PhotoCollection.isValidID(id) {
                switch CollectionFiles.read(path(id)).flatMap({ CollectionDocument.parse($0, id: id) }) {
                case .success(let collection):
                    collections.append(collection)
                    continue
                case .failure(let failure) where failure.kind == .notFound:
                    continue  // deleted since it was listed
                case .failure(let failure):
                    problem = failure
                }
            } else {
                problem = .documentName
            }
            unreadable.append(UnreadableCollection(fileName: name, path: folderPath + "/" + name, problem: problem))
        }
        return CollectionLoad(collections: collections.sorted(by: PhotoCollection.switcherOrder), unreadable: unreadable)
    }

    /// Runs `body` holding the folder's lock (the folder made first). When the documents
    /// were as this store last saw them before, they are so after too: its own changes do
    /// not make `reloadIfChanged` read them again.
    private func changing<Value>(_ body: () throws(CollectionProblem) -> Value) -> Result<Value, CollectionProblem> {
        if let code = CollectionFiles.makeFolder(folderPath) { return .failure(.folder(CollectionFiles.reason(code))) }
        let lock: FolderLock
        switch FolderLock.take(in: folderPath) {
        case .success(let taken): lock = taken
        case .failure(let problem): return .failure(problem)
        }
        defer { withExtendedLifetime(lock) {} }
        let before = CollectionFiles.signature(of: folderPath)
        let result: Result<Value, CollectionProblem>
        do throws(CollectionProblem) {
            result = .success(try body())
        } catch {
            result = .failure(error)
        }
        let after = CollectionFiles.signature(of: folderPath)
        lastSeen.withLock { if $0 == before { $0 = after } }
        return result
    }
}
