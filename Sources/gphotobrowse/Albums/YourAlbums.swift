import CGtk
import Dispatch
import Foundation
import PhotoCore
import PhotoIO

/// The person's own albums as the app shows them: one per process, shared by every window,
/// on the main thread. It reads and changes them through `CollectionStore` on a worker (one
/// serial queue, so changes land in the order asked), follows the albums folder with a
/// GFileMonitor (another window or process, an edit by hand), looks their photos up (which
/// exist, and what they are: the core's `AlbumPhotoLookups` keeps what is known and what to
/// look up) and publishes the switcher's summaries. Windows and the
/// albums' sources observe it.
@MainActor
final class YourAlbums {
    private let live = LiveObjects.Token("YourAlbums")
    static let shared = YourAlbums()
    /// The albums on the disk; thread-safe, blocking: only ever called off the main thread.
    nonisolated static let store = CollectionStore()

    /// The albums, in the switcher's order.
    private(set) var collections: [PhotoCollection] = []
    /// What the switcher lists for them (cover: the newest photo that exists).
    private(set) var summaries: [AlbumSummary] = []
    /// The photos looked up: found, and not found (moved or deleted outside the app); those
    /// being looked up, and those asked for again meanwhile.
    private var lookups = AlbumPhotoLookups()
    private var observers: [Int: @MainActor () -> Void] = [:]
    private var lastObserver = 0
    /// Changes and loads, in order.
    /// Not windows' jobs: the person's albums are the process's, shared by every window.
    private let queue = DispatchQueue(label: "gphotobrowse.your-albums")
    /// Looking photos up (a stat each), beside the changes.
    private let lookupQueue = DispatchQueue(label: "gphotobrowse.your-albums-lookup")
    private var monitor: OwnedObject<OpaquePointer>?
    private var reloadScheduled = false
    private var started = false

    private init() {}

    /// Reads the albums (once per process), purges albums deleted long ago, and starts
    /// following the folder.
    func start() {
        guard !started else { return }
        started = true
        let store = Self.store
        run({ () -> CollectionLoad in
            if case .failure(let problem) = store.prepareFolder() { printError(problem.message) }
            store.purgeDeleted()
            return store.loadAll()
        }, then: { [weak self] load in
            self?.apply(load)
            self?.follow(store.folderURI)
        })
    }

    /// Calls `handler` after every change, until the observation returned goes (held by the
    /// observer's owner in a stored property).
    func observe(_ handler: @escaping @MainActor () -> Void) -> Observation {
        lastObserver += 1
        let number = lastObserver
        observers[number] = handler
        return Observation { [weak self] in self?.observers[number] = nil }
    }

    func collection(_ id: String) -> PhotoCollection? { collections.first { $0.id == id } }
    func summary(_ id: String) -> AlbumSummary? { summaries.first { $0.id == .collection(id) } }
    /// The photo at `uri` as last looked up, when it was found.
    func photo(_ uri: String) -> Photo? { lookups.photo(uri) }
    /// Whether the photo at `uri` was not found when last looked up.
    func isMissing(_ uri: String) -> Bool { lookups.isMissing(uri) }
    /// Whether the photo at `uri` has been looked up.
    func isKnown(_ uri: String) -> Bool { lookups.isKnown(uri) }

    /// Looks these photos up (again) on the worker; observers hear when it is done.
    func lookUp(_ uris: [String]) {
        let requested = lookups.request(uris)
        guard !requested.isEmpty else { return }
        run(on: lookupQueue, { () -> [(uri: String, photo: Photo?)] in
            requested.map { (uri: $0, photo: FolderListing.photo(at: $0)) }
        }, then: { [weak self] results in
            guard let self else { return }
            let again = self.lookups.finished(results)
            self.publish()
            if !again.isEmpty { self.lookUp(again) }
        })
    }

    /// Reads the albums again (after a change made outside this model's operations).
    func reload() {
        let store = Self.store
        run({ store.loadAll() }, then: { [weak self] load in self?.apply(load) })
    }

    // MARK: Changes

    /// Makes an album titled `title` holding `uris`.
    func create(title: String, photos uris: [String], done: @escaping @MainActor (Result<PhotoCollection, CollectionProblem>) -> Void) {
        change({ $0.create(title: title, photos: uris) }, done: done)
    }

    /// Adds `uris` to the album; `done` gets the album as it is now.
    func add(_ uris: [String], to id: String, done: @escaping @MainActor (Result<PhotoCollection, CollectionProblem>) -> Void) {
        change({ $0.add(uris, to: id) }, done: done)
    }

    /// Removes `uris` from the album, with what `restore` needs for Undo.
    func remove(_ uris: [String], from id: String, done: @escaping @MainActor (Result<CollectionRemoval, CollectionProblem>) -> Void) {
        change({ $0.remove(uris, from: id).map(\.1) }, done: done)
    }

    /// Puts removed photos back (Undo).
    func restore(_ removals: [CollectionRemoval], done: @escaping @MainActor ([CollectionProblem]) -> Void = { _ in }) {
        change({ Result<[CollectionProblem], CollectionProblem>.success($0.restore(removals).problems) }) { result in
            done((try? result.get()) ?? [])
        }
    }

    func rename(_ id: String, to title: String, done: @escaping @MainActor (Result<PhotoCollection, CollectionProblem>) -> Void) {
        change({ $0.rename(id, to: title) }, done: done)
    }

    func delete(_ id: String, done: @escaping @MainActor (Result<DeletedCollection, CollectionProblem>) -> Void) {
        change({ $0.delete(id) }, done: done)
    }

    func undoDelete(_ deleted: DeletedCollection, done: @escaping @MainActor (Result<PhotoCollection, CollectionProblem>) -> Void) {
        change({ $0.undoDelete(deleted) }, done: done)
    }

    /// Runs a change on the worker, then reads the albums again there, and applies both on
    /// the main thread: observers see the change before `done` runs.
    private func change<Value: Sendable>(_ body: @escaping @Sendable (CollectionStore) -> Result<Value, CollectionProblem>,
                                         done: @escaping @MainActor (Result<Value, CollectionProblem>) -> Void) {
        let store = Self.store
        run({ () -> (Result<Value, CollectionProblem>, CollectionLoad) in
            (body(store), store.loadAll())
        }, then: { [weak self] outcome in
            self?.apply(outcome.1)
            done(outcome.0)
        })
    }

    // MARK: Loading

    /// Runs `work` on `queue` (the store's by default) and `then` with its result on the main
    /// thread. A serial queue and the main queue are both first in, first out: loads are
    /// applied in the order they were read.
    private func run<Value: Sendable>(on queue: DispatchQueue? = nil, _ work: @escaping @Sendable () -> Value,
                                      then: @escaping @MainActor (Value) -> Void) {
        (queue ?? self.queue).async {
            let value = work()
            onMain { then(value) }
        }
    }

    private func apply(_ load: CollectionLoad) {
        let old = collections
        collections = load.collections
        for document in load.unreadable { printError("the album “\(document.path)” cannot be read: \(document.problem.message)") }
        let fresh = lookups.albumsChanged(from: old, to: collections)
        publish()
        lookUp(fresh)
    }

    private func publish() {
        summaries = lookups.summaries(collections)
        // In the order they were added.
        for (_, handler) in observers.sorted(by: { $0.key < $1.key }) { handler() }
    }

    // MARK: Following the folder

    private func follow(_ folderURI: String) {
        let folder = g_file_new_for_uri(folderURI)
        defer { folder?.unref() }
        guard let watched = g_file_monitor_directory(folder, G_FILE_MONITOR_WATCH_MOVES, nil, nil) else { return }
        let monitor = OwnedObject(taking: watched.opaque)
        self.monitor = monitor
        onFileChanged(monitor.pointer) { [weak self] _, _, event in
            guard let self, event != G_FILE_MONITOR_EVENT_CHANGED, !self.reloadScheduled else { return }
            // A write is a temporary file, then a rename: read once they are done.
            self.reloadScheduled = true
            after(milliseconds: 200) { [weak self] in self?.reloadIfChanged() }
        }
    }

    private func reloadIfChanged() {
        reloadScheduled = false
        let store = Self.store
        run({ store.reloadIfChanged() }, then: { [weak self] load in
            if let load { self?.apply(load) }
        })
    }
}
