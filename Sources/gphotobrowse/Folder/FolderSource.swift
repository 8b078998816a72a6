import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The opened folder and the tree below it as the source of its albums: walks the tree on
/// a worker thread (`FolderTreeWalk`), follows every folder walked on disk, reads dates
/// taken when an album sorts by them, and hands what it finds to the core's `FolderAlbums`,
/// which keeps the tree and feeds the albums shown. This keeps the threads, the monitors
/// (which, the core's `FollowedTree`) and the merging a turn of the main loop at a time (in
/// what order, the core's `MergeQueue`).
@MainActor
final class FolderSource: AlbumSource {
    private let live = LiveObjects.Token("FolderSource")
    let uri: String
    /// Whether this is a web album (its list's albums are the tree's folders): nothing to
    /// follow on disk, and its dates taken come with the list.
    let isWeb: Bool
    /// The walk of the tree, once started.
    private var walk: TreeWalkRun?
    /// The tree and the albums fed from it.
    private let treeAlbums: FolderAlbums
    /// One monitor per folder walked.
    private var followed = FollowedTree<FolderMonitor>()
    /// Folders to follow once the window has drawn its first frame and the first walk has
    /// ended (nil from then on): watching a folder costs the kernel a pass over its entries
    /// (17 ms of the main thread for one of 100,000 files), which neither the first frame
    /// nor the listing waits for. What changed in them meanwhile is read again then
    /// (`FolderRechecks`).
    private var followedLater: [TreeFolder]? = []
    /// Whether the window has drawn its first frame (the folders are followed from then on,
    /// once the first walk has ended).
    private var isFirstFrameDrawn = false
    /// Walks of subfolders that appeared after the first walk.
    private var laterWalks: [TreeWalkRun] = []
    /// Folders a walk read, read again once followed if they changed meanwhile.
    private let rechecks: FolderRechecks
    /// Walks that ended before the folders were followed (the first walk among them): each
    /// one's folder and start, to read again then.
    private var rechecksWhenFollowed: [(uri: String, started: Int64)] = []
    /// Dates taken, read when an album sorts by them.
    private let dates: DatesTakenReading
    /// The dates read, into the tree and the albums (a large batch on a worker).
    private let datesApplying: DatesApplying
    /// Live Photos' identifiers, read in folders holding a movie.
    private let livePairs: LivePairReading
    /// What a web album's walk learnt besides photos (its title, whether it is offline),
    /// once it has ended.
    private(set) var webReport: WebAlbumWalk.Report?
    /// What walks delivered and is not merged yet, merged a slice per turn of the main loop.
    /// Whether a hand-over of the photos merged and waiting is due on a timer (`handOverWaiting`).
    private var isHandOverScheduled = false
    private var unmerged = MergeQueue<(run: TreeWalkRun, result: Result<FolderTreeWalk.Totals, FolderError>)>()

    /// Progress of reading dates taken, for the header bar; nil when no reading is under way.
    var onDateProgress: (DateTakenReader.Progress?) -> Void = { _ in }
    /// The albums, their counts or covers changed.
    var onAlbumsChanged: () -> Void {
        get { treeAlbums.onAlbumsChanged }
        set { treeAlbums.onAlbumsChanged = newValue }
    }
    /// The walk ended having left out folders the person may miss (unreadable ones, other
    /// drives; not hidden ones, nor links that lead back into the tree), with why.
    var onFoldersLeftOut: ([SkippedFolder]) -> Void = { _ in }
    /// Folders the walk left out that the person may miss.
    private var leftOut: [SkippedFolder] = []

    /// The window's jobs: the monitors' look-ups and the refreshes belong to them.
    private let jobs: WindowJobs
    /// Cancelled when the folder is left (or the window closes): the refreshes under way.
    private let stopped = CancellationFlag()

    init(uri: String, name: String, jobs: WindowJobs) {
        self.jobs = jobs
        dates = DatesTakenReading(jobs: jobs)
        livePairs = LivePairReading(jobs: jobs)
        rechecks = FolderRechecks(jobs: jobs, within: stopped)
        self.uri = uri
        isWeb = WebPhotoFiles.isWebAddress(uri)
        treeAlbums = FolderAlbums(rootURI: uri, rootName: name)
        treeAlbums.clock = Self.now
        datesApplying = DatesApplying(albums: treeAlbums, jobs: jobs, within: stopped)
        dates.onDates = { [weak self] read, progress in self?.receiveDates(read, progress) }
        dates.onFinished = { [weak self] in self?.datesRead() }
        livePairs.onIdentifiers = { [weak self] read in self?.receiveLiveIdentifiers(read) }
        livePairs.onFinished = { [weak self] in self?.readLiveIdentifiers() }
        rechecks.known = { [weak self] folder in self?.known(folder) }
        rechecks.onUpdate = { [weak self] update, folder in self?.apply(update, in: folder) }
    }

    /// The opened folder's tree, as found so far.
    var tree: FolderTree { treeAlbums.tree }

    /// Whether the first walk has ended.
    var isListed: Bool { treeAlbums.isListed }

    /// Feeds `album` from now on (what was found so far, at once).
    func attach(_ album: AlbumContents) {
        album.source = self
        treeAlbums.attach(album)
    }

    /// The folder's albums in the switcher's order; none for a folder without subfolders
    /// holding photos.
    var albums: [AlbumSummary] { tree.albums }

    /// The switcher's line for `album`.
    func summary(of album: AlbumID) -> AlbumSummary? { tree.summary(of: album) }

    /// How many albums the subfolders make (All Photos and the folder's own not counted).
    var subfolderAlbumCount: Int { treeAlbums.subfolderAlbumCount }

    /// Starts walking on a worker thread (or takes over the walk started at launch for this
    /// folder), and follows the folder's changes on disk. What the walk has already found is
    /// taken in two steps: its first delivery at once (the first album, the first screen),
    /// the rest, and then whatever it finds as it finds it, from when `later` calls back
    /// (the window passes its first frame: merging a long list should not hold it up). The
    /// folders are followed on disk once that has come and the walk has ended.
    func start(takingTheRest later: (@escaping @MainActor () -> Void) -> Void = { $0() }) {
        follow(TreeFolder(uri: uri, path: []))
        let run = isWeb ? TreeWalkRun.start(WebAlbumWalk(url: uri))
            : TreeWalkRun.claim(uri: uri) ?? TreeWalkRun.start(uri: uri, skippedFile: Self.traceSkippedFile)
        walk = run
        own(run)
        take(from: run, firstDeliveryOnly: true)
        later { [weak self] in
            guard let self else { return }
            isFirstFrameDrawn = true
            if isListed { followFoldersFound() }
            adopt(run)
        }
    }

    /// Follows the folders found before the first frame and the first walk's end, and every
    /// folder from now on at once; then reads again those of walks that ended meanwhile.
    private func followFoldersFound() {
        let waiting = followedLater ?? []
        followedLater = nil
        for folder in waiting { follow(folder) }
        for (uri, started) in rechecksWhenFollowed { recheck(atOrBelow: uri, walkStarted: started) }
        rechecksWhenFollowed = []
    }

    /// Reads again the folders a walk of `uri` read that changed since it started, once they
    /// are followed (`FolderRechecks`).
    private func recheck(atOrBelow uri: String, walkStarted: Int64) {
        guard !isWeb else { return }
        guard followedLater == nil else { return rechecksWhenFollowed.append((uri, walkStarted)) }
        rechecks.recheck(followed.folders(atOrBelow: uri), walkStarted: walkStarted)
    }

    /// Stops the walks, the date reading and the monitors (the window closed or another
    /// folder was opened).
    func cancel() {
        stopped.cancel()
        walk?.cancel()
        for later in laterWalks { later.cancel() }
        laterWalks.removeAll()
        dates.cancel()
        livePairs.cancel()
        for monitor in followed.removeAll() { monitor.cancel() }
    }

    private var isCancelled: Bool { walk?.isCancelled ?? false }

    /// Takes what `run` finds from now on, as it finds it.
    private func adopt(_ run: TreeWalkRun) {
        guard !run.isCancelled else { return }
        run.adopt { [weak self] in onMain { self?.take(from: run) } }
    }

    /// Takes what a walk found and the main thread has not taken yet: its first slice at
    /// once, the rest a slice per turn of the main loop, so that the window keeps painting
    /// and answering while a long list goes in.
    private func take(from run: TreeWalkRun, firstDeliveryOnly: Bool = false) {
        guard !run.isCancelled else { return }
        let found = run.take(firstDeliveryOnly: firstDeliveryOnly)
        for folder in found.folders { follow(folder) }
        for skipped in found.leftOut {
            if Trace.isEnabled { printError("skipped folder “\(skipped.folder.path.joined(separator: "/"))”: \(skipped.message)") }
            if skipped.reason.mayBeMissed { leftOut.append(skipped) }
        }
        // A web album's own photos are titled by its list, which its walk has read by now.
        if isWeb, !found.photos.isEmpty, let title = (run.walk as? WebAlbumWalk)?.report.title { treeAlbums.retitle(title) }
        if unmerged.add(found.photos, end: found.end.map { (run, $0) }) { mergeNext() }
    }

    /// Merges the next slice, and asks for the one after it once the main loop is idle.
    private func mergeNext() {
        guard !isCancelled else { return unmerged.removeAll() }
        guard let step = unmerged.next() else { return }
        merge(step)
        if unmerged.isMerging { whenIdle { [weak self] in self?.mergeNext() } }
    }

    private func merge(_ step: MergeQueue<(run: TreeWalkRun, result: Result<FolderTreeWalk.Totals, FolderError>)>.Step) {
        switch step {
        case .photos(let slice):
            if let due = treeAlbums.merge(slice, at: Self.now()) { handOverWaiting(at: due) }
            if Trace.tilesEnabled { Trace.milestone("merged", slice.reduce(0) { $0 + $1.photos.count }) }
        case .end(let end):
            if end.run === walk {
                finish(end.result)
            } else {
                laterWalks.removeAll { $0 === end.run }
                recheck(atOrBelow: end.run.uri, walkStarted: end.run.started)
            }
        }
    }

    /// Seconds on the monotonic clock, for when merged photos are due to the albums.
    nonisolated private static func now() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

    /// Hands the photos merged and still waiting to the albums at `due` (seconds on `now`'s
    /// clock), unless the walk's end or a later slice did it first: a walk that finds
    /// nothing more for a while still shows what it found.
    private func handOverWaiting(at due: Double) {
        guard !isHandOverScheduled else { return }
        isHandOverScheduled = true
        let milliseconds = UInt32(max(0, due - Self.now()) * 1000)
        after(milliseconds: milliseconds) { [weak self] in
            guard let self else { return }
            isHandOverScheduled = false
            guard !isCancelled else { return }
            treeAlbums.handOverWaiting()
        }
    }

    nonisolated static let traceSkippedFile: @Sendable (TreeFolder, SkippedEntry) -> Void = { _, skipped in
        if Trace.isEnabled { printError("skipped “\(skipped.name)”: \(skipped.reason)") }
    }

    private func finish(_ result: Result<FolderTreeWalk.Totals, FolderError>) {
        webReport = (walk?.walk as? WebAlbumWalk)?.report
        treeAlbums.finish(result.map(\.photos))
        if let walk { recheck(atOrBelow: uri, walkStarted: walk.started) }
        if isFirstFrameDrawn { followFoldersFound() }
        readLiveIdentifiers()
        if !leftOut.isEmpty { onFoldersLeftOut(leftOut) }
        releaseFreedMemory()
    }

    // MARK: Following the tree on disk

    /// Follows `folder` on disk (each folder walked has a monitor of its own).
    private func follow(_ folder: TreeFolder) {
        guard !isWeb, !isCancelled else { return }
        if followedLater != nil {
            followedLater?.append(folder)
            return
        }
        switch followed.admission(of: folder) {
        case .followed: return
        case .full:
            if Trace.isEnabled { printError("not following “\(folder.path.joined(separator: "/"))”: too many folders") }
            return
        case .follow: break
        }
        let monitor = FolderMonitor(folder: folder, jobs: jobs)
        monitor.onUpdate = { [weak self, weak monitor] update in
            guard let self, let monitor else { return }
            rechecks.monitorReported(update, in: monitor.folder)
            apply(update, in: monitor.folder)
        }
        followed.add(folder, monitor: monitor)
    }

    /// `folder` as the tree and the monitors hold it, to be read again; nil when it is no
    /// longer followed.
    private func known(_ folder: TreeFolder) -> FolderRecheck? {
        guard followed.isFollowed(folder.uri) else { return nil }
        return FolderRecheck(folder: folder, photos: tree.photos(in: .folder(folder.uri)), folders: followed.children(of: folder.uri))
    }

    /// What changed in `folder`, as its monitor or a reading again found it.
    private func apply(_ change: FolderUpdate, in folder: TreeFolder) {
        update(change.updated, removed: change.removed, in: folder)
        for folder in change.folders { walkLater(folder) }
    }

    /// Walks a subfolder that appeared (created, or moved in) after the first walk.
    private func walkLater(_ folder: TreeFolder) {
        guard !followed.isFollowed(folder.uri) else { return }
        follow(folder)
        let run = TreeWalkRun.start(uri: folder.uri, under: folder.path, skippedFile: Self.traceSkippedFile)
        laterWalks.append(run)
        own(run)
        adopt(run)
    }

    /// Makes `run` a job of the window: counted until its thread ends, stopped when the
    /// window closes (leaving the folder stops it through `cancel`).
    private func own(_ run: TreeWalkRun) {
        let job = jobs.begin(within: stopped)
        let stopping = job.flag.whenCancelled { run.cancel() }
        run.holdWhileRunning([job, stopping])
    }

    /// Changes seen by a folder's monitor or a refresh: photos new or changed in `folder`,
    /// and paths gone (photos, or folders with everything below them).
    private func update(_ updated: [Photo], removed: Set<String>, in folder: TreeFolder) {
        dates.forget(updated.map(\.id))
        livePairs.forget(updated.map(\.id))
        ShownMarks.shared.reread(updated.map(\.id))
        // Sidecars another program wrote, changed or removed (not photos: among `removed`).
        let sidecars = removed.filter { SidecarNames.isSidecar($0) }
        if !sidecars.isEmpty {
            ShownMarks.shared.rereadSidecars(of: SidecarNames.photos(reading: sidecars, among: tree.photos(in: .folder(folder.uri)).map(\.id)))
        }
        let gone = followed.remove(removed)
        for monitor in gone.monitors { monitor.cancel() }
        treeAlbums.update(updated, removed: removed, in: folder, removedFolders: gone.folders)
        for album in treeAlbums.sortedByDate { readDatesTaken(of: album) }
        readLiveIdentifiers()
    }

    /// A photo renamed by this app: shown under its new name at once, before the folder's
    /// monitor reports it (the core's `FolderAlbums.renamed`).
    func renamed(from old: String, to photo: Photo) {
        guard let folder = parentURI(of: photo.id).flatMap(followed.folder(at:)) else { return }
        dates.forget([photo.id])
        treeAlbums.renamed(from: old, to: photo, in: folder)
        for album in treeAlbums.sortedByDate { readDatesTaken(of: album) }
    }

    // MARK: AlbumSource

    func forget(_ ids: Set<String>) {
        treeAlbums.forget(ids)
    }

    /// Looks `uris` up again (photos put back from the trash), as a job of the window that
    /// leaving the folder cancels.
    func refresh(_ uris: [String]) {
        let owner = MainThreadOwner(self)
        jobs.lookUp(uri, within: stopped) { flag in
            var found: [Photo] = [], gone = Set<String>()
            for uri in uris {
                guard !flag.isCancelled else { return }
                if let photo = FolderListing.photo(at: uri, cancellation: flag) { found.append(photo) } else { gone.insert(uri) }
            }
            guard !flag.isCancelled else { return }
            owner.onMain { source in source.restored(found, gone: gone) }
        }
    }

    /// Photos back from the trash, each into the folder it is in (if that folder is followed).
    private func restored(_ photos: [Photo], gone: Set<String>) {
        treeAlbums.restored(photos, gone: gone) { [followed] in parentURI(of: $0.id).flatMap(followed.folder(at:)) }
    }

    func datesNeeded(by album: AlbumContents) {
        readDatesTaken(of: album)
    }

    // MARK: Live Photos

    /// Reads the identifiers of the stills and movies of folders holding a movie, not read
    /// yet: a Live Photo's two files pair by them, whatever their names.
    private func readLiveIdentifiers() {
        guard isListed, !isWeb, !isCancelled else { return }
        livePairs.read(tree.unidentifiedLiveFiles)
    }

    private func receiveLiveIdentifiers(_ read: [String: String?]) {
        treeAlbums.setLiveIdentifiers(read)
        if Trace.isEnabled { Trace.milestone("live-identifiers", read.values.count { $0 != nil }) }
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
        // Between batches of dates the reading tells its progress alone.
        if !read.isEmpty { datesApplying.apply(read) }
        onDateProgress(progress.isComplete ? nil : progress)
    }

    private func datesRead() {
        onDateProgress(nil)
        releaseFreedMemory()
        // Photos that arrived meanwhile, for every album that sorts by date.
        for album in treeAlbums.sortedByDate { readDatesTaken(of: album) }
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
    /// decoder processes, as pixels are, with the cameras the files name (kept for searches).
    static let shared = DateTakenReader(batchSource: { uris, cancellation in
        let read = IsolatedDecoder.shared.datesAndCameras(uris: uris, cancellation: cancellation)
        let facts = zip(uris, read).map { ($0, ExifFacts(read: $1)) }
        onMain { ShownMarks.shared.factsRead(facts) }
        return read.map(\.date)
    })
}

/// Writes `gphotobrowse: MESSAGE` to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("gphotobrowse: \(message)\n".utf8))
}
