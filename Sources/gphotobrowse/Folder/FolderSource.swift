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
    /// Whether this is a web album (its list's albums are the tree's folders): nothing to
    /// follow on disk, and its dates taken come with the list.
    let isWeb: Bool
    /// The walk of the tree, once started.
    private var walk: TreeWalkRun?
    private(set) var tree: FolderTree
    /// One monitor per folder walked, by URI.
    private var monitors: [String: FolderMonitor] = [:]
    /// Walks of subfolders that appeared after the first walk.
    private var laterWalks: [TreeWalkRun] = []
    /// The albums fed, weakly: an album nobody shows any more goes.
    private var fedAlbums: [Weak<AlbumContents>] = []
    /// Dates taken, read when an album sorts by them.
    private let dates: DatesTakenReading
    /// What a web album's walk learnt besides photos (its title, whether it is offline),
    /// once it has ended.
    private(set) var webReport: WebAlbumWalk.Report?
    /// Whether the first walk has ended.
    private(set) var isListed = false
    private var listingResult: Result<Int, FolderError>?
    /// The subfolder album count last traced (`trace albums`).
    private var tracedAlbumCount: Int?
    /// What walks delivered and is not merged yet, merged a slice per turn of the main loop.
    private var unmerged: [Unmerged] = []
    private var isMerging = false
    private enum Unmerged {
        case photos([FolderPhotos])
        case end(TreeWalkRun, Result<FolderTreeWalk.Totals, FolderError>)
    }
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

    init(uri: String, name: String, jobs: WindowJobs) {
        dates = DatesTakenReading(jobs: jobs)
        self.uri = uri
        isWeb = WebPhotoFiles.isWebAddress(uri)
        tree = FolderTree(rootURI: uri, rootName: name)
        dates.onDates = { [weak self] read, progress in self?.receiveDates(read, progress) }
        dates.onFinished = { [weak self] in self?.datesRead() }
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

    /// Starts walking on a worker thread (or takes over the walk started at launch for this
    /// folder), and follows the folder's changes on disk. What the walk has already found is
    /// taken in two steps: its first delivery at once (the first album, the first screen),
    /// the rest, and then whatever it finds as it finds it, from when `later` calls back
    /// (the window passes its first frame: merging a long list should not hold it up).
    func start(takingTheRest later: (@escaping @MainActor () -> Void) -> Void = { $0() }) {
        follow(TreeFolder(uri: uri, path: []))
        let run = isWeb ? TreeWalkRun.start(WebAlbumWalk(url: uri))
            : TreeWalkRun.claim(uri: uri) ?? TreeWalkRun.start(uri: uri, skippedFile: Self.traceSkippedFile)
        walk = run
        take(from: run, firstDeliveryOnly: true)
        later { [weak self] in self?.adopt(run) }
    }

    /// Stops the walks, the date reading and the monitors (the window closed or another
    /// folder was opened).
    func cancel() {
        walk?.cancel()
        for later in laterWalks { later.cancel() }
        laterWalks.removeAll()
        dates.cancel()
        for monitor in monitors.values { monitor.cancel() }
        monitors.removeAll()
    }

    private var isCancelled: Bool { walk?.isCancelled ?? false }

    /// Takes what `run` finds from now on, as it finds it.
    private func adopt(_ run: TreeWalkRun) {
        guard !run.isCancelled else { return }
        run.adopt { [weak self] in onMain { self?.take(from: run) } }
    }

    /// Takes what a walk found and the main thread has not taken yet: its first slice at
    /// once, the rest a slice per turn of the main loop (`MergeSlices`), so that the window
    /// keeps painting and answering while a long list goes in.
    private func take(from run: TreeWalkRun, firstDeliveryOnly: Bool = false) {
        guard !run.isCancelled else { return }
        let found = run.take(firstDeliveryOnly: firstDeliveryOnly)
        for folder in found.folders { follow(folder) }
        for skipped in found.leftOut {
            if Trace.isEnabled { printError("skipped folder “\(skipped.folder.path.joined(separator: "/"))”: \(skipped.message)") }
            if ![.hidden, .alreadyWalked, .loop].contains(skipped.reason) { leftOut.append(skipped) }
        }
        if !found.photos.isEmpty {
            // A web album's own photos are titled by its list, which its walk has read by now.
            if isWeb, tree.photoCount == 0, let title = (run.walk as? WebAlbumWalk)?.report.title, !title.isEmpty {
                tree = FolderTree(rootURI: uri, rootName: title)
            }
            unmerged += MergeSlices.slices(of: found.photos).map(Unmerged.photos)
        }
        if let end = found.end { unmerged.append(.end(run, end)) }
        if !isMerging { mergeNext() }
    }

    /// Merges the next slice, and asks for the one after it once the main loop is idle.
    private func mergeNext() {
        guard !isCancelled, !unmerged.isEmpty else {
            unmerged.removeAll()
            isMerging = false
            return
        }
        isMerging = true
        switch unmerged.removeFirst() {
        case .photos(let slice):
            apply(tree.insert(slice))
            if Trace.tilesEnabled { Trace.milestone("merged", slice.reduce(0) { $0 + $1.photos.count }) }
        case .end(let run, let end):
            if run === walk {
                finish(end)
            } else {
                laterWalks.removeAll { $0 === run }
            }
        }
        if unmerged.isEmpty {
            isMerging = false
        } else {
            whenIdle { [weak self] in self?.mergeNext() }
        }
    }

    nonisolated static let traceSkippedFile: @Sendable (TreeFolder, SkippedEntry) -> Void = { _, skipped in
        if Trace.isEnabled { printError("skipped “\(skipped.name)”: \(skipped.reason)") }
    }

    private func finish(_ result: Result<FolderTreeWalk.Totals, FolderError>) {
        isListed = true
        webReport = (walk?.walk as? WebAlbumWalk)?.report
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
        guard !isWeb, monitors[folder.uri] == nil, !isCancelled else { return }
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
        follow(folder)
        let run = TreeWalkRun.start(uri: folder.uri, under: folder.path, skippedFile: Self.traceSkippedFile)
        laterWalks.append(run)
        adopt(run)
    }

    /// Changes seen by a folder's monitor or a refresh: photos new or changed in `folder`,
    /// and paths gone (photos, or folders with everything below them).
    private func update(_ updated: [Photo], removed: Set<String>, in folder: TreeFolder) {
        dates.forget(updated.map(\.id))
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

    /// A photo renamed by this app: shown under its new name at once, before the folder's
    /// monitor reports it. The new name is added before the old one goes, so that the
    /// viewer and the grid, seeing the old one go, find the photo it became.
    func renamed(from old: String, to photo: Photo) {
        guard let folder = parentURI(of: photo.id).flatMap({ monitors[$0]?.folder }) else { return }
        dates.forget([photo.id])
        apply(tree.insert([photo], in: folder))
        apply(tree.remove(ids: [old]))
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
        let byFolder = Dictionary(grouping: photos) { parentURI(of: $0.id) ?? "" }
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
        guard isListed, !isWeb else { return }
        dates.read(album.photos.all)
    }

    private func receiveDates(_ read: [String: Int64?], _ progress: DateTakenReader.Progress) {
        let change = tree.setDatesTaken(read)
        for album in fed { album.setDatesTaken(read) }
        if !change.changedAlbums.isEmpty || change.switcherChanged { onAlbumsChanged() }
        onDateProgress(progress.isComplete ? nil : progress)
    }

    private func datesRead() {
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
