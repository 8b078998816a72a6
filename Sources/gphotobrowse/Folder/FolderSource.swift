import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The opened folder and the tree below it as the source of its albums: walks the tree on
/// a worker thread (`FolderTreeWalk`), keeps which photos each folder holds (`FolderTree`),
/// follows every folder walked on disk, reads dates taken when an album sorts by them, and
/// feeds what it finds to the albums shown, each the photos it should hold.
@MainActor
final class FolderSource: AlbumSource {
    private let live = LiveObjects.Token("FolderSource")
    let uri: String
    private let walk: FolderTreeWalk
    private(set) var tree: FolderTree
    /// One monitor per folder walked, by URI.
    private var monitors: [String: FolderMonitor] = [:]
    /// Walks of subfolders that appeared after the first walk.
    private var laterWalks: [FolderTreeWalk] = []
    /// The albums fed, weakly: an album nobody shows any more goes.
    private var fedAlbums: [Weak<AlbumContents>] = []
    /// Set while dates are being read; cancelling it stops the reading.
    private var dateReading: CancellationFlag?
    /// Photos whose date taken is known (read, or known to have none).
    private var datesKnown = Set<String>()
    /// Whether the first walk has ended.
    private(set) var isListed = false
    private var listingResult: Result<Int, FolderError>?
    /// The subfolder album count last traced (`trace albums`).
    private var tracedAlbumCount: Int?
    /// How many folders are followed at most: each takes one of the user's inotify watches.
    static let maximumMonitors = 4096

    /// Progress of reading dates taken, for the header bar; nil when no reading is under way.
    var onDateProgress: (DateTakenReader.Progress?) -> Void = { _ in }
    /// The albums, their counts or covers changed.
    var onAlbumsChanged: () -> Void = {}
    /// The walk ended having left out folders the person may miss (unreadable ones, other
    /// drives; not hidden ones, nor links that lead back into the tree), with why.
    var onFoldersLeftOut: ([SkippedFolder]) -> Void = { _ in }
    /// Folders the walk left out that the person may miss.
    private var leftOut: [SkippedFolder] = []

    init(uri: String, name: String) {
        self.uri = uri
        walk = FolderTreeWalk(uri: uri)
        tree = FolderTree(rootURI: uri, rootName: name)
    }

    /// Feeds `album` from now on (what was found so far, at once).
    func attach(_ album: AlbumContents) {
        fedAlbums.removeAll { $0.object == nil }
        fedAlbums.append(Weak(album))
        album.source = self
        album.insert(tree.photos(in: album.id))
        if let listingResult { album.listed(listingResult.map { _ in album.photos.count }) }
    }

    private var fed: [AlbumContents] { fedAlbums.compactMap(\.object) }

    /// The folder's albums in the switcher's order; none for a folder without subfolders
    /// holding photos.
    var albums: [AlbumSummary] { tree.albums }

    /// The switcher's line for `album`.
    func summary(of album: AlbumID) -> AlbumSummary? { tree.summary(of: album) }

    /// How many albums the subfolders make (All Photos and the folder's own not counted).
    var subfolderAlbumCount: Int {
        tree.albums.count { if case .folder(let uri) = $0.id { uri != self.uri } else { false } }
    }

    /// Starts walking on a worker thread, and follows the folder's changes on disk.
    func start() {
        follow(TreeFolder(uri: uri, path: []))
        let walk = self.walk
        let deliveries = WalkDeliveries()
        Thread.detachNewThread { [weak self] in
            let result = walk.run(
                deliver: { batches in
                    if deliveries.post(batches) { onMain { self?.receive(deliveries, from: walk) } }
                },
                found: { folder in onMain { self?.follow(folder) } },
                skipFolder: { skipped in
                    if Trace.isEnabled { printError("skipped folder “\(skipped.folder.path.joined(separator: "/"))”: \(skipped.message)") }
                    guard ![.hidden, .alreadyWalked, .loop].contains(skipped.reason) else { return }
                    onMain { self?.leftOut.append(skipped) }
                },
                skip: { folder, skipped in
                    if Trace.isEnabled { printError("skipped “\(skipped.name)”: \(skipped.reason)") }
                }
            )
            onMain {
                self?.receive(deliveries, from: walk)
                self?.finish(result)
            }
        }
    }

    /// Stops the walks, the date reading and the monitors (the window closed or another
    /// folder was opened).
    func cancel() {
        walk.cancel()
        for later in laterWalks { later.cancel() }
        laterWalks.removeAll()
        dateReading?.cancel()
        dateReading = nil
        for monitor in monitors.values { monitor.cancel() }
        monitors.removeAll()
    }

    /// Takes what a walk delivered and the main thread has not taken yet, all at once.
    private func receive(_ deliveries: WalkDeliveries, from walk: FolderTreeWalk) {
        let batches = deliveries.take()
        guard !walk.isCancelled, !batches.isEmpty else { return }
        apply(tree.insert(batches))
    }

    private func finish(_ result: Result<FolderTreeWalk.Totals, FolderError>) {
        guard !walk.isCancelled else { return }
        isListed = true
        listingResult = result.map(\.photos)
        for album in fed { album.listed(result.map { _ in album.photos.count }) }
        traceAlbumCount()
        if !leftOut.isEmpty { onFoldersLeftOut(leftOut) }
        releaseFreedMemory()
    }

    /// Hands a change of the tree to the albums shown, as splices, and to the switcher.
    private func apply(_ change: FolderTreeChange) {
        guard !change.isEmpty else { return }
        for album in fed {
            album.remove(change.removedIDs(from: album.id))
            album.insert(change.insertedPhotos(in: album.id))
        }
        if !change.changedAlbums.isEmpty || change.switcherChanged { onAlbumsChanged() }
        if isListed { traceAlbumCount() }
    }

    /// `trace albums COUNT MS` once the walk has ended, and whenever the count changes.
    private func traceAlbumCount() {
        guard Trace.isEnabled else { return }
        let count = subfolderAlbumCount
        guard count != tracedAlbumCount else { return }
        tracedAlbumCount = count
        Trace.milestone("albums", count)
    }

    // MARK: Following the tree on disk

    /// Follows `folder` on disk (each folder walked has a monitor of its own).
    private func follow(_ folder: TreeFolder) {
        guard monitors[folder.uri] == nil, !walk.isCancelled else { return }
        guard monitors.count < Self.maximumMonitors else {
            if Trace.isEnabled { printError("not following “\(folder.path.joined(separator: "/"))”: too many folders") }
            return
        }
        let monitor = FolderMonitor(folder: folder)
        monitor.onUpdate = { [weak self, weak monitor] updated, removed, folders in
            guard let self, let monitor else { return }
            self.update(updated, removed: removed, in: monitor.folder)
            for folder in folders { self.walkLater(folder) }
        }
        monitors[folder.uri] = monitor
    }

    /// Walks a subfolder that appeared (created, or moved in) after the first walk.
    private func walkLater(_ folder: TreeFolder) {
        guard monitors[folder.uri] == nil else { return }
        let walk = FolderTreeWalk(uri: folder.uri)
        laterWalks.append(walk)
        follow(folder)
        let base = folder.path
        let place: @Sendable (TreeFolder) -> TreeFolder = { TreeFolder(uri: $0.uri, path: base + $0.path) }
        Thread.detachNewThread { [weak self] in
            let deliveries = WalkDeliveries()
            _ = walk.run(
                deliver: { batches in
                    let placed = batches.map { FolderPhotos(folder: place($0.folder), photos: $0.photos) }
                    if deliveries.post(placed) { onMain { self?.receive(deliveries, from: walk) } }
                },
                found: { found in onMain { self?.follow(place(found)) } }
            )
            onMain {
                self?.receive(deliveries, from: walk)
                self?.laterWalks.removeAll { $0 === walk }
            }
        }
    }

    /// Changes seen by a folder's monitor or a refresh: photos new or changed in `folder`,
    /// and paths gone (photos, or folders with everything below them).
    private func update(_ updated: [Photo], removed: Set<String>, in folder: TreeFolder) {
        datesKnown.subtract(updated.map(\.id))
        apply(tree.remove(ids: removed))
        apply(tree.insert(updated, in: folder))
        for uri in removed where monitors[uri] != nil {
            apply(tree.removeFolder(uri: uri))
            let prefix = uri + "/"
            for key in monitors.keys where key == uri || key.hasPrefix(prefix) {
                monitors.removeValue(forKey: key)?.cancel()
            }
        }
        for album in fed where album.photos.order.key == .dateTaken { readDatesTaken(of: album) }
    }

    // MARK: AlbumSource

    func forget(_ ids: Set<String>) {
        apply(tree.remove(ids: ids))
    }

    func refresh(_ uris: [String]) {
        Thread.detachNewThread { [weak self] in
            var found: [Photo] = [], gone = Set<String>()
            for uri in uris {
                if let photo = FolderListing.photo(at: uri) { found.append(photo) } else { gone.insert(uri) }
            }
            onMain { [weak self] in self?.restored(found, gone: gone) }
        }
    }

    /// Photos back from the trash, each into the folder it is in (if that folder is followed).
    private func restored(_ photos: [Photo], gone: Set<String>) {
        apply(tree.remove(ids: gone))
        let byFolder = Dictionary(grouping: photos) { photo in
            g_file_new_for_uri(photo.id).map { file -> String in
                defer { file.unref() }
                guard let parent = g_file_get_parent(file) else { return "" }
                defer { parent.unref() }
                return g_file_get_uri(parent).map { p in defer { g_free(p) }; return String(cString: p) } ?? ""
            } ?? ""
        }
        for (folderURI, photos) in byFolder {
            guard let folder = monitors[folderURI]?.folder else { continue }
            apply(tree.insert(photos, in: folder))
        }
    }

    func datesNeeded(by album: AlbumContents) {
        readDatesTaken(of: album)
    }

    // MARK: Dates taken

    /// Reads the dates taken `album` lacks, in the background; the tree (the switcher's
    /// order and covers) and every album get them (each re-sorts only if it sorts by them).
    /// Photos found since the last reading are included.
    private func readDatesTaken(of album: AlbumContents) {
        guard isListed, dateReading == nil else { return }
        // The whole list when no date is known yet: shared with the album's, not copied.
        let unknown = datesKnown.isEmpty ? album.photos.all : album.photos.all.filter { !datesKnown.contains($0.id) }
        guard !unknown.isEmpty else { return }
        let flag = CancellationFlag()
        dateReading = flag
        Thread.detachNewThread { [weak self] in
            let reader = DateTakenReader.shared
            // At most one batch a second: each re-sorts the album and rebinds the grid once.
            reader.run(unknown, cancellation: flag, batchSize: .max, interval: 1.0) { dates, progress in
                onMain { [weak self] in self?.receiveDates(dates, progress, flag) }
            }
            reader.save()
            onMain { [weak self] in self?.datesRead(flag) }
        }
    }

    private func receiveDates(_ dates: [String: Int64?], _ progress: DateTakenReader.Progress, _ flag: CancellationFlag) {
        guard dateReading === flag else { return }
        if Trace.tilesEnabled { Trace.milestone("dates-read", dates.count) }
        datesKnown.formUnion(dates.keys)
        let change = tree.setDatesTaken(dates)
        for album in fed { album.setDatesTaken(dates) }
        if !change.changedAlbums.isEmpty || change.switcherChanged { onAlbumsChanged() }
        onDateProgress(progress.isComplete ? nil : progress)
    }

    private func datesRead(_ flag: CancellationFlag) {
        guard dateReading === flag else { return }
        dateReading = nil
        onDateProgress(nil)
        releaseFreedMemory()
        // Photos that arrived meanwhile, for every album that sorts by date.
        for album in fed where album.photos.order.key == .dateTaken { readDatesTaken(of: album) }
    }
}
/// A weak reference, for lists of objects that others own.
final class Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object? = nil) { self.object = object }
}

/// Hands memory freed by a big job (the merges of a long listing, a folder's dates) back
/// to the system: glibc keeps it otherwise, and the window would stay at its peak size.
func releaseFreedMemory() {
    malloc_trim(0)
}

extension DateTakenReader {
    /// The process's reader: windows share its cache in memory. Dates are read in the
    /// decoder processes, as pixels are.
    static let shared = DateTakenReader(batchSource: { IsolatedDecoder.shared.datesTaken(uris: $0) })
}

/// Writes `gphotobrowse: MESSAGE` to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("gphotobrowse: \(message)\n".utf8))
}
