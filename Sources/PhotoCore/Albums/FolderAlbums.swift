import Foundation

/// The opened folder's tree and the albums shown from it: what its walks found goes into the
/// `FolderTree`, and every album fed from the tree (All Photos, the folder's own, a
/// subfolder's) gets each change as it happens, as splices. `FolderSource` keeps one on the
/// main thread and feeds it from its walks, its folders' monitors and its date reading.
///
/// Albums are held weakly: a page nobody shows any more goes, and is fed no more.
@MainActor
public final class FolderAlbums {
    public private(set) var tree: FolderTree {
        didSet { treeVersion &+= 1 }
    }
    /// Changes with every change of the tree: dates applied away from the main thread to a
    /// copy of it are taken only if it is still the tree they were applied to (`take`).
    private var treeVersion = 0
    private var fedAlbums: [WeakAlbum] = []
    /// How the first walk ended (the count of photos it found), once it has.
    public private(set) var listing: Result<Int, FolderError>?
    /// The subfolder album count last traced (`trace albums`).
    private var tracedAlbumCount: Int?
    /// What the slices merged into the tree changed and the albums fed have not been given
    /// yet (`MergeSlices.isHandOverDue`), and since when (on `merge`'s clock).
    private var unapplied = FolderTreeChange()
    private var waitingSince: Double = 0
    /// How long the last hand-over of merged slices took, in seconds on `clock`.
    private var lastHandOver: Double = 0
    /// The clock `merge` is given times on, which times hand-overs (seconds).
    public var clock: () -> Double = { 0 }
    /// The albums, their counts or covers changed (the switcher shows them again).
    public var onAlbumsChanged: () -> Void = {}

    private struct WeakAlbum {
        weak var album: AlbumContents?
    }

    public init(rootURI: String, rootName: String) {
        tree = FolderTree(rootURI: rootURI, rootName: rootName)
    }

    /// Whether the first walk has ended.
    public var isListed: Bool { listing != nil }

    /// The albums fed, those still shown.
    public var fed: [AlbumContents] { fedAlbums.compactMap(\.album) }

    /// The albums fed that sort by date taken (which need the dates of photos found).
    public var sortedByDate: [AlbumContents] { fed.filter { $0.photos.order.key == .dateTaken } }

    /// How many albums the subfolders make (All Photos and the folder's own not counted).
    public var subfolderAlbumCount: Int {
        tree.albums.count { if case .folder(let uri) = $0.id { uri != tree.rootURI } else { false } }
    }

    /// Feeds `album` from now on: what was found so far at once, and that it is listed if the
    /// walk has ended.
    public func attach(_ album: AlbumContents) {
        fedAlbums.removeAll { $0.album == nil || $0.album === album }
        fedAlbums.append(WeakAlbum(album: album))
        handOverUnapplied()
        album.insert(tree.photos(in: album.id))
        if let listing { album.listed(listing.map { _ in album.photos.count }) }
    }

    /// Names the opened folder `title` (a web album's, read from its list) while nothing has
    /// been found in it yet; returns whether it did.
    @discardableResult
    public func retitle(_ title: String) -> Bool {
        guard tree.photoCount == 0, !title.isEmpty, title != tree.rootName else { return false }
        tree = FolderTree(rootURI: tree.rootURI, rootName: title)
        return true
    }

    /// A slice of what a walk found, into the tree, at `now` (seconds, on `clock`). The albums
    /// fed get what it changed, with the slices before it, when they show no photo yet (the
    /// first screen), or when the first of those slices was merged a second ago, or ten times
    /// as long as the last hand-over took (`MergeSlices.handOverSpacing`): giving them photos
    /// costs a pass over the whole album, so a long listing reaches them once at its end
    /// (`finish`), or every second or so while it goes on. Returns when the photos waiting are due (nil: none wait), for
    /// `handOverWaiting` then, in case no other slice comes by. Without a time the albums get
    /// it at once.
    @discardableResult
    public func merge(_ slice: [FolderPhotos], at now: Double? = nil) -> Double? {
        let wasWaiting = !unapplied.isEmpty
        unapplied.append(tree.insert(slice))
        guard let now else {
            handOverUnapplied()
            return nil
        }
        if !wasWaiting { waitingSince = now }
        if MergeSlices.isHandOverDue(pending: unapplied.insertedCount, largestAlbum: fed.map(\.photos.count).max() ?? 0,
                                     waited: now - waitingSince, lastHandOver: lastHandOver) {
            handOverUnapplied()
        }
        return unapplied.isEmpty ? nil : waitingSince + MergeSlices.handOverSpacing(lastHandOver: lastHandOver)
    }

    /// Hands the albums fed what merged slices changed and they were not given yet (the
    /// time `merge` said has come, or the caller cannot wait).
    public func handOverWaiting() {
        handOverUnapplied()
    }

    /// The first walk ended, having found `result` photos (or failed): every album is told
    /// it is listed, with its own count (after `trace albums`: the switcher has every album
    /// by then, whatever being listed starts).
    public func finish(_ result: Result<Int, FolderError>) {
        handOverUnapplied()
        listing = result
        traceAlbumCount()
        for album in fed { album.listed(result.map { _ in album.photos.count }) }
    }

    /// Photos new or changed in `folder`, and paths gone (photos, or folders with everything
    /// below them: `removedFolders`, those of them that were folders of the tree).
    public func update(_ updated: [Photo], removed: Set<String>, in folder: TreeFolder, removedFolders: [String] = []) {
        apply(tree.remove(ids: removed))
        apply(tree.insert(updated, in: folder))
        for uri in removedFolders { apply(tree.removeFolder(uri: uri)) }
    }

    /// A photo renamed by this app, in `folder`: the new name is added before the old one
    /// goes, so that the viewer and the grid, seeing the old one go, find the photo it became.
    public func renamed(from old: String, to photo: Photo, in folder: TreeFolder) {
        apply(tree.insert([photo], in: folder))
        apply(tree.remove(ids: [old]))
    }

    /// Photos taken out of every album at once (moved to the trash or deleted by this app).
    public func forget(_ ids: Set<String>) {
        apply(tree.remove(ids: ids))
    }

    /// Photos looked up again (back from the trash): those found go into the folder they are
    /// in, when `folder` knows it (a folder followed); those not found, out.
    public func restored(_ photos: [Photo], gone: Set<String>, folder: (Photo) -> TreeFolder?) {
        apply(tree.remove(ids: gone))
        var byFolder: [TreeFolder: [Photo]] = [:]
        var order: [TreeFolder] = []
        for photo in photos {
            guard let folder = folder(photo) else { continue }
            if byFolder[folder] == nil { order.append(folder) }
            byFolder[folder, default: []].append(photo)
        }
        for folder in order { apply(tree.insert(byFolder[folder] ?? [], in: folder)) }
    }

    /// Dates taken read: the tree (the switcher's order and covers) and every album get them
    /// (each re-sorts only if it sorts by them).
    public func setDatesTaken(_ dates: [String: Int64?]) {
        handOverUnapplied()
        let change = tree.setDatesTaken(dates)
        for album in fed { album.setDatesTaken(dates) }
        if !change.changedAlbums.isEmpty || change.switcherChanged { onAlbumsChanged() }
    }

    /// What `setDatesTaken(dates)` would do, to apply away from the main thread: the tree
    /// and the lists of the albums fed as they are now (copies that share their storage until
    /// changed), with what merged slices left for the albums handed to them first. A folder
    /// opened again gets its 100,000 dates from the cache at once: re-sorting every album
    /// and the tree took the main thread a tenth of a second.
    public func datesWork(_ dates: [String: Int64?]) -> DatesWork {
        handOverUnapplied()
        return DatesWork(dates: dates, treeVersion: treeVersion, tree: tree, lists: fed.map(\.listsForDates))
    }

    /// Takes what `work` worked out: the tree and each album's lists, when they are still
    /// what it was given (else the album, or everything if the tree changed, gets the
    /// dates here, as `setDatesTaken` gives them).
    public func take(_ work: DatesWork) {
        guard work.isApplied, work.treeVersion == treeVersion else { return setDatesTaken(work.dates) }
        tree = work.tree
        for album in fed {
            let taken = work.lists.first { $0.generation == album.generation }.map { album.take($0) } ?? false
            if !taken { album.setDatesTaken(work.dates) }
        }
        if !work.change.changedAlbums.isEmpty || work.change.switcherChanged { onAlbumsChanged() }
    }

    /// Live Photo identifiers read: a movie may join another still, or leave one.
    public func setLiveIdentifiers(_ read: [String: String?]) {
        apply(tree.setLiveIdentifiers(read))
    }

    /// Hands the changes of merged slices the albums fed have not been given yet.
    private func handOverUnapplied() {
        guard !unapplied.isEmpty else { return }
        let start = clock()
        apply(FolderTreeChange())
        lastHandOver = clock() - start
    }

    /// Hands a change of the tree to the albums fed, as splices, and to the switcher (after
    /// what merged slices changed before it).
    private func apply(_ change: FolderTreeChange) {
        var change = change
        if !unapplied.isEmpty {
            var earlier = unapplied
            earlier.append(change)
            change = earlier
            unapplied = FolderTreeChange()
        }
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
}

/// Dates taken to apply to a copy of a folder's tree and of its albums' lists on any thread
/// (`FolderAlbums.datesWork`), and to hand back to the main thread (`FolderAlbums.take`).
public struct DatesWork: Sendable {
    fileprivate let dates: [String: Int64?]
    fileprivate let treeVersion: Int
    fileprivate var tree: FolderTree
    fileprivate var change = FolderTreeChange()
    fileprivate var lists: [AlbumContents.DatedLists]
    fileprivate var isApplied = false

    fileprivate init(dates: [String: Int64?], treeVersion: Int, tree: FolderTree, lists: [AlbumContents.DatedLists]) {
        self.dates = dates
        self.treeVersion = treeVersion
        self.tree = tree
        self.lists = lists
    }

    /// Applies the dates to the copies: the tree's folders, each album's order.
    public mutating func apply() {
        change = tree.setDatesTaken(dates)
        for index in lists.indices { lists[index].apply(dates) }
        isApplied = true
    }
}
