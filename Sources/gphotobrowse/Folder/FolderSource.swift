import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The opened folder as the source of its albums: lists it on a worker thread, follows its
/// changes on disk, reads dates taken when an album sorts by them, and feeds what it finds
/// to the albums shown.
@MainActor
final class FolderSource: AlbumSource {
    private let live = LiveObjects.Token("FolderSource")
    let uri: String
    private let listing: FolderListing
    private var monitor: FolderMonitor?
    /// The albums fed, weakly: an album nobody shows any more goes.
    private var fedAlbums: [Weak<AlbumContents>] = []
    /// Set while dates are being read; cancelling it stops the reading.
    private var dateReading: CancellationFlag?
    /// Photos whose date taken is known (read, or known to have none).
    private var datesKnown = Set<String>()
    private var isListed = false
    private var listingResult: Result<Int, FolderError>?

    /// Progress of reading dates taken, for the header bar; nil when no reading is under way.
    var onDateProgress: (DateTakenReader.Progress?) -> Void = { _ in }

    init(uri: String) {
        self.uri = uri
        listing = FolderListing(uri: uri)
    }

    /// Feeds `album` from now on (what was found so far, at once).
    func attach(_ album: AlbumContents) {
        fedAlbums.removeAll { $0.object == nil }
        fedAlbums.append(Weak(album))
        album.source = self
        if let listingResult { album.listed(listingResult) }
    }

    private var fed: [AlbumContents] { fedAlbums.compactMap(\.object) }

    /// The folder's albums in the switcher's order; none for a folder without subfolders.
    var albums: [AlbumSummary] { [] }
    /// The albums, their counts or covers changed.
    var onAlbumsChanged: () -> Void = {}

    /// The switcher's line for `album`, when the source knows it.
    func summary(of album: AlbumID) -> AlbumSummary? { nil }

    /// Starts listing on a worker thread, and follows the folder's changes on disk.
    func start() {
        let monitor = FolderMonitor(folderURI: uri)
        monitor.onUpdate = { [weak self] updated, removed in self?.update(updated, removed: removed) }
        self.monitor = monitor
        let listing = self.listing
        Thread.detachNewThread { [weak self] in
            let result = listing.run(
                deliver: { batch in onMain { self?.receive(batch) } },
                skip: { skipped in
                    if Trace.isEnabled { printError("skipped “\(skipped.name)”: \(skipped.reason)") }
                }
            )
            onMain { self?.finish(result) }
        }
    }

    /// Stops the listing, the date reading and the monitor (the window closed or another
    /// folder was opened).
    func cancel() {
        listing.cancel()
        dateReading?.cancel()
        dateReading = nil
        monitor?.cancel()
        monitor = nil
    }

    private func receive(_ batch: [Photo]) {
        guard !listing.isCancelled else { return }
        for album in fed { album.insert(batch) }
    }

    private func finish(_ result: Result<Int, FolderError>) {
        guard !listing.isCancelled else { return }
        isListed = true
        listingResult = result
        for album in fed { album.listed(result) }
        releaseFreedMemory()
    }

    // MARK: AlbumSource

    func forget(_ ids: Set<String>) {
        for album in fed { album.remove(ids) }
    }

    func refresh(_ uris: [String]) {
        Thread.detachNewThread { [weak self] in
            var found: [Photo] = [], gone = Set<String>()
            for uri in uris {
                if let photo = FolderListing.photo(at: uri) { found.append(photo) } else { gone.insert(uri) }
            }
            onMain { [weak self] in self?.update(found, removed: gone) }
        }
    }

    func datesNeeded(by album: AlbumContents) {
        readDatesTaken(of: album)
    }

    // MARK: Dates taken

    /// Reads the dates taken `album` lacks, in the background; every album gets them (each
    /// re-sorts only if it sorts by them). Photos listed since the last reading are included.
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
            onMain { [weak self] in self?.datesRead(flag, for: album) }
        }
    }

    private func receiveDates(_ dates: [String: Int64?], _ progress: DateTakenReader.Progress, _ flag: CancellationFlag) {
        guard dateReading === flag else { return }
        if Trace.tilesEnabled { Trace.milestone("dates-read", dates.count) }
        datesKnown.formUnion(dates.keys)
        for album in fed { album.setDatesTaken(dates) }
        onDateProgress(progress.isComplete ? nil : progress)
    }

    private func datesRead(_ flag: CancellationFlag, for album: AlbumContents) {
        guard dateReading === flag else { return }
        dateReading = nil
        onDateProgress(nil)
        releaseFreedMemory()
        // Photos that arrived meanwhile, for every album that sorts by date.
        for album in fed where album.photos.order.key == .dateTaken { readDatesTaken(of: album) }
    }

    /// Changes seen by the folder monitor or a refresh: new or changed photos, and ids gone.
    private func update(_ updated: [Photo], removed: Set<String>) {
        datesKnown.subtract(updated.map(\.id))
        for album in fed {
            album.remove(removed)
            album.insert(updated.filter { album.photos.photo(id: $0.id) != $0 })
        }
        for album in fed where album.photos.order.key == .dateTaken { readDatesTaken(of: album) }
    }
}

/// A weak reference, for lists of objects that others own.
final class Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
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
