import Foundation
import PhotoCore
import PhotoIO

/// Reading the dates taken an album lacks, in the background, for an album's source: one
/// reading at a time, photos whose date is known not read again, at most one batch a
/// second (each re-sorts the album and rebinds its grid once), cancelled with the source,
/// and a job of the window (`WindowJobs`): cancelled when it closes.
@MainActor
final class DatesTakenReading {
    private let jobs: WindowJobs

    init(jobs: WindowJobs) {
        self.jobs = jobs
    }

    /// Set while dates are being read; cancelling it stops the reading.
    private var reading: CancellationFlag?
    /// Photos whose date taken is known (read, or known to have none): every photo of a
    /// folder once its dates are in, as hashes (`URIHashes`: 2 MB for 100,000 photos where a
    /// `Set<String>` took 4, and 6 while it doubled).
    private var known = URIHashes()

    /// Dates read, with how far the reading has come.
    var onDates: ([String: Int64?], DateTakenReader.Progress) -> Void = { _, _ in }
    /// A reading ended (not when cancelled).
    var onFinished: () -> Void = {}

    var isReading: Bool { reading != nil }

    /// Reads the dates of those of `photos` not known yet; does nothing while a reading is
    /// under way (call again when it ends, for photos that arrived meanwhile).
    func read(_ photos: [Photo]) {
        guard reading == nil else { return }
        // The whole list when no date is known yet: shared with the album's, not copied.
        let unknown = known.isEmpty ? photos : photos.filter { !known.contains($0.id) }
        guard !unknown.isEmpty else { return }
        let flag = CancellationFlag()
        reading = flag
        let owner = MainThreadOwner(self)
        jobs.run(on: .dateReads, within: flag) { jobFlag in
            let reader = DateTakenReader.shared
            // Each batch re-sorts the albums sorted by date (on 100,000 photos a tenth of a
            // second of the main thread): batches after 1, 2 and then every 4 seconds, the
            // progress every second.
            reader.run(unknown, cancellation: jobFlag, batchSize: .max, interval: 1.0, maximumInterval: 4.0) { dates, progress in
                owner.onMain { reading in reading.received(dates, progress, flag) }
            }
            reader.save()
            owner.onMain { reading in reading.finished(flag) }
        }
    }

    /// These photos changed on disk: their dates are read again next time.
    func forget(_ ids: some Sequence<String>) {
        known.subtract(ids)
    }

    func cancel() {
        reading?.cancel()
        reading = nil
    }

    private func received(_ dates: [String: Int64?], _ progress: DateTakenReader.Progress, _ flag: CancellationFlag) {
        guard reading === flag else { return }
        if Trace.tilesEnabled { Trace.milestone("dates-read", dates.count) }
        known.reserveCapacity(known.count + dates.count)
        known.formUnion(dates.keys)
        onDates(dates, progress)
    }

    private func finished(_ flag: CancellationFlag) {
        guard reading === flag else { return }
        reading = nil
        onFinished()
    }
}
