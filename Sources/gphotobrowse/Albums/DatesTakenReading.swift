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

    /// The photos being read, known once the reading has ended, but for those that changed
    /// on disk meanwhile.
    private var readingPhotos: [Photo] = []
    private var forgottenWhileReading: Set<String> = []

    /// Reads the dates of those of `photos` not known yet; does nothing while a reading is
    /// under way (call again when it ends, for photos that arrived meanwhile). Photos are
    /// looked up by the hashes made when they were listed: a folder of 100,000 read again
    /// once its dates are in took 30 ms of the main thread hashing their URIs.
    func read(_ photos: [Photo]) {
        guard reading == nil else { return }
        // The whole list when no date is known yet: shared with the album's, not copied.
        let unknown = known.notContained(in: photos)
        guard !unknown.isEmpty else { return }
        let flag = CancellationFlag()
        reading = flag
        readingPhotos = unknown
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
        if reading != nil { forgottenWhileReading.formUnion(ids) }
    }

    func cancel() {
        reading?.cancel()
        reading = nil
        readingPhotos = []
        forgottenWhileReading = []
    }

    private func received(_ dates: [String: Int64?], _ progress: DateTakenReader.Progress, _ flag: CancellationFlag) {
        guard reading === flag else { return }
        if Trace.tilesEnabled { Trace.milestone("dates-read", dates.count) }
        onDates(dates, progress)
    }

    /// The reading went through every photo it was given: their dates are known (read, or
    /// known to have none). Nothing is asked of `known` while a reading is under way.
    private func finished(_ flag: CancellationFlag) {
        guard reading === flag else { return }
        reading = nil
        known.formUnion(readingPhotos)
        known.subtract(forgottenWhileReading)
        readingPhotos = []
        forgottenWhileReading = []
        onFinished()
    }
}
