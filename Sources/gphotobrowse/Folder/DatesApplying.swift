import PhotoCore
import PhotoIO

/// Dates taken read, given to a folder's tree and albums in the order read. A large batch
/// (a folder opened again gets its 100,000 dates from the cache at once) is applied on a
/// worker of the window to copies of the tree and of the albums' lists, which the main thread
/// then takes (`FolderAlbums.take`): re-sorting them there held the window still for a tenth
/// of a second. A batch read meanwhile waits for it.
@MainActor
final class DatesApplying {
    /// From how many dates a batch is applied on a worker.
    static let awayFromMainFrom = 5_000

    private let albums: FolderAlbums
    private let jobs: WindowJobs
    /// Cancelled when the folder is left: the work under way is dropped.
    private let scope: CancellationFlag
    private var isWorking = false
    private var waiting: [[String: Int64?]] = []

    init(albums: FolderAlbums, jobs: WindowJobs, within scope: CancellationFlag) {
        self.albums = albums
        self.jobs = jobs
        self.scope = scope
    }

    func apply(_ dates: [String: Int64?]) {
        guard !isWorking else { return waiting.append(dates) }
        guard dates.count >= Self.awayFromMainFrom else { return albums.setDatesTaken(dates) }
        isWorking = true
        let work = albums.datesWork(dates)
        let owner = MainThreadOwner(self)
        jobs.run(within: scope) { flag in
            guard !flag.isCancelled else { return }
            var applied = work
            applied.apply()
            owner.onMain { applying in applying.worked(applied) }
        }
    }

    private func worked(_ work: DatesWork) {
        isWorking = false
        albums.take(work)
        let next = waiting
        waiting = []
        for dates in next { apply(dates) }
    }
}
