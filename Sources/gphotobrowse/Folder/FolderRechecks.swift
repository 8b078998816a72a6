import Foundation
import PhotoCore
import PhotoIO

/// Reads folders of the opened tree again once a walk that read them has ended and their
/// monitors follow them (the core's `FolderRecheck`: what changed between the walk's read
/// and the monitor's start reaches no monitor). Those modified since the walk started are
/// listed again on the window's look-up workers, as jobs of the window that leaving the
/// folder cancels; what differs from the tree comes back as a monitor's update would.
@MainActor
final class FolderRechecks {
    /// The folder as the tree and the monitors hold it now, before it is read again (nil: it
    /// is no longer followed).
    var known: (TreeFolder) -> FolderRecheck? = { _ in nil }
    /// What changed in a folder read again.
    var onUpdate: (FolderUpdate, TreeFolder) -> Void = { _, _ in }

    private let jobs: WindowJobs
    private let stopped: CancellationFlag
    /// Folders being read again, each with the files its monitor reported meanwhile.
    private var reported: [String: Set<String>] = [:]

    init(jobs: WindowJobs, within stopped: CancellationFlag) {
        self.jobs = jobs
        self.stopped = stopped
    }

    /// Reads again those of `folders` modified since `walkStarted` (microseconds since 1970).
    func recheck(_ folders: [TreeFolder], walkStarted: Int64) {
        guard let first = folders.first else { return }
        let owner = MainThreadOwner(self)
        jobs.lookUp(first.uri, within: stopped) { flag in
            let due = folders.filter { folder in
                guard !flag.isCancelled, let modified = FolderContents.modified(folder.uri, cancellation: flag) else { return false }
                return FolderRecheck.isDue(folderModified: modified, walkStarted: walkStarted)
            }
            guard !due.isEmpty, !flag.isCancelled else { return }
            owner.onMain { rechecks in
                for folder in due { rechecks.read(folder) }
            }
        }
    }

    /// What a folder's monitor reported: newer than what a reading under way may find.
    func monitorReported(_ update: FolderUpdate, in folder: TreeFolder) {
        guard reported[folder.uri] != nil else { return }
        reported[folder.uri]!.formUnion(update.updated.map(\.id) + update.removed + update.folders.map(\.uri))
    }

    private func read(_ folder: TreeFolder) {
        guard reported[folder.uri] == nil, let recheck = known(folder) else { return }
        reported[folder.uri] = []
        let owner = MainThreadOwner(self)
        jobs.lookUp(folder.uri, within: stopped) { flag in
            let contents = FolderContents.read(folder.uri, cancellation: flag)
            let update = contents.map { recheck.update(photos: $0.photos, folders: $0.folders) }
            owner.onMain { rechecks in
                let reported = rechecks.reported.removeValue(forKey: folder.uri) ?? []
                guard let update = update?.excluding(reported) else { return }
                Trace.milestone("folder-reread", update.updated.count, update.removed.count, update.folders.count)
                if !update.isEmpty { rechecks.onUpdate(update, folder) }
            }
        }
    }
}
