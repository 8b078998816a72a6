import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The photos of the open folder: listed on a worker thread, kept in display order on the
/// main thread, and announced to the views as splices while the listing streams in.
@MainActor
final class FolderContents {
    private let live = LiveObjects.Token("FolderContents")
    let uri: String
    private(set) var photos: PhotoList
    private(set) var isListed = false
    private let listing: FolderListing
    private var monitor: FolderMonitor?

    private var changeObservers: [(PhotoList.Splice) -> Void] = []
    /// Set while dates are being read; cancelling it stops the reading.
    private var dateReading: CancellationFlag?
    /// Photos whose date taken is known (read, or known to have none).
    private var datesKnown = Set<String>()

    /// Progress of reading dates taken, for the header bar; nil when no reading is under way.
    var onDateProgress: (DateTakenReader.Progress?) -> Void = { _ in }
    /// Called once when the listing has ended, with the count or the reason it failed.
    var onListed: (Result<Int, FolderError>) -> Void = { _ in }

    init(uri: String, order: PhotoOrder) {
        self.uri = uri
        photos = PhotoList(order: order)
        listing = FolderListing(uri: uri)
    }

    /// Calls `observer` with each change of the display order, after `photos` has changed.
    func observeChanges(_ observer: @escaping (PhotoList.Splice) -> Void) {
        changeObservers.append(observer)
    }

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

    /// Stops the listing (the window closed or another folder was opened).
    func cancel() {
        listing.cancel()
        dateReading?.cancel()
        dateReading = nil
        monitor?.cancel()
        monitor = nil
    }

    private func receive(_ batch: [Photo]) {
        guard !listing.isCancelled, let splice = photos.insert(batch) else { return }
        notify(splice)
    }

    /// Shows the photos in another order; reads dates taken first when that order needs them.
    func sort(by order: PhotoOrder) {
        if let splice = photos.sort(by: order) { notify(splice) }
        if order.key == .dateTaken { readDatesTaken() }
    }

    /// Reads the dates taken the current order needs, in the background, re-sorting as
    /// they arrive. Photos listed since the last reading are included.
    private func readDatesTaken() {
        guard photos.order.key == .dateTaken, isListed, dateReading == nil else { return }
        // The whole list when no date is known yet: shared with `photos`, not copied.
        let unknown = datesKnown.isEmpty ? photos.all : photos.all.filter { !datesKnown.contains($0.id) }
        guard !unknown.isEmpty else { return }
        let flag = CancellationFlag()
        dateReading = flag
        Thread.detachNewThread { [weak self] in
            let reader = DateTakenReader.shared
            // At most one batch a second: each re-sorts the folder and rebinds the grid once.
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
        if let splice = photos.setDatesTaken(dates) { notify(splice) }
        onDateProgress(progress.isComplete ? nil : progress)
    }

    private func datesRead(_ flag: CancellationFlag) {
        guard dateReading === flag else { return }
        dateReading = nil
        onDateProgress(nil)
        releaseFreedMemory()
        readDatesTaken()  // photos that arrived meanwhile
    }

    /// Takes photos out at once (moved to the trash or deleted by this app), before the
    /// folder monitor reports them gone.
    func forget(_ ids: Set<String>) {
        if let splice = photos.remove(ids: ids) { notify(splice) }
    }

    /// Looks files up again on a worker (restored from the trash) and shows them.
    func refresh(_ uris: [String]) {
        Thread.detachNewThread { [weak self] in
            var found: [Photo] = [], gone = Set<String>()
            for uri in uris {
                if let photo = FolderListing.photo(at: uri) { found.append(photo) } else { gone.insert(uri) }
            }
            onMain { [weak self] in self?.update(found, removed: gone) }
        }
    }

    /// Changes seen by the folder monitor: new or changed photos, and ids that are gone.
    private func update(_ updated: [Photo], removed: Set<String>) {
        if let splice = photos.remove(ids: removed) { notify(splice) }
        let changed = updated.filter { photos.photo(id: $0.id) != $0 }
        datesKnown.subtract(changed.map(\.id))
        if let splice = photos.insert(changed) { notify(splice) }
        readDatesTaken()
    }

    private func notify(_ splice: PhotoList.Splice) {
        for observer in changeObservers { observer(splice) }
    }

    private func finish(_ result: Result<Int, FolderError>) {
        guard !listing.isCancelled else { return }
        isListed = true
        onListed(result.map { _ in photos.count })
        releaseFreedMemory()
        readDatesTaken()
    }
}

/// Hands memory freed by a big job (the merges of a long listing, a folder's dates) back
/// to the system: glibc keeps it otherwise, and the window would stay at its peak size.
private func releaseFreedMemory() {
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
