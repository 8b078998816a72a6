import Foundation
import PhotoCore
import PhotoIO

/// The photos of the open folder: listed on a worker thread, kept in display order on the
/// main thread, and announced to the views as splices while the listing streams in.
@MainActor
final class FolderContents {
    let uri: String
    private(set) var photos: PhotoList
    private(set) var isListed = false
    private let listing: FolderListing
    private var monitor: FolderMonitor?

    private var changeObservers: [(PhotoList.Splice) -> Void] = []
    /// Called once when the listing has ended, with the count or the reason it failed.
    var onListed: (Result<Int, FolderError>) -> Void = { _ in }

    init(uri: String, order: PhotoOrder = .byName) {
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
        monitor?.cancel()
        monitor = nil
    }

    private func receive(_ batch: [Photo]) {
        guard !listing.isCancelled, let splice = photos.insert(batch) else { return }
        notify(splice)
    }

    /// Changes seen by the folder monitor: new or changed photos, and ids that are gone.
    private func update(_ updated: [Photo], removed: Set<String>) {
        if let splice = photos.remove(ids: removed) { notify(splice) }
        let changed = updated.filter { photos.photo(id: $0.id) != $0 }
        if let splice = photos.insert(changed) { notify(splice) }
    }

    private func notify(_ splice: PhotoList.Splice) {
        for observer in changeObservers { observer(splice) }
    }

    private func finish(_ result: Result<Int, FolderError>) {
        guard !listing.isCancelled else { return }
        isListed = true
        onListed(result.map { _ in photos.count })
    }
}

/// Writes `gphotobrowse: MESSAGE` to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("gphotobrowse: \(message)\n".utf8))
}
