import Foundation
import PhotoCore
import PhotoIO

/// Reading the identifiers Live Photos' stills and movies share, in the background, for the
/// opened folder: only in folders holding a movie, each file once, one reading at a time, in
/// the decoder processes (the files' bytes are from outside), and a job of the window
/// (`WindowJobs`): cancelled when it closes or the folder is left.
@MainActor
final class LivePairReading {
    private let jobs: WindowJobs
    /// Set while identifiers are being read; cancelling it stops the reading.
    private var reading: CancellationFlag?
    /// Files read, or being read.
    private var asked = Set<String>()

    /// Identifiers read (nil: the file has none).
    var onIdentifiers: ([String: String?]) -> Void = { _ in }
    /// A reading ended (not when cancelled): files may have come meanwhile.
    var onFinished: () -> Void = {}

    init(jobs: WindowJobs) {
        self.jobs = jobs
    }

    /// Reads the identifiers of those of `uris` not asked for yet; does nothing while a
    /// reading is under way (call again when it ends).
    func read(_ uris: [String]) {
        guard reading == nil else { return }
        let unread = uris.filter { !asked.contains($0) }
        guard !unread.isEmpty else { return }
        asked.formUnion(unread)
        let flag = CancellationFlag()
        reading = flag
        let owner = MainThreadOwner(self)
        // On the date readers' workers: a few files' first bytes each, like dates.
        jobs.run(on: .dateReads, within: flag) { jobFlag in
            var start = 0
            while start < unread.count, !jobFlag.isCancelled {
                let batch = Array(unread[start..<min(start + DecoderChannel.maxDescriptors * 4, unread.count)])
                start += batch.count
                let identifiers = IsolatedDecoder.shared.liveIdentifiers(uris: batch, cancellation: jobFlag)
                guard !jobFlag.isCancelled else { break }
                let read = Dictionary(zip(batch, identifiers), uniquingKeysWith: { first, _ in first })
                owner.onMain { reading in reading.received(read, flag) }
            }
            owner.onMain { reading in reading.finished(flag) }
        }
    }

    /// These files changed on disk: read again next time.
    func forget(_ ids: some Sequence<String>) {
        asked.subtract(ids)
    }

    func cancel() {
        reading?.cancel()
        reading = nil
    }

    private func received(_ read: [String: String?], _ flag: CancellationFlag) {
        guard reading === flag else { return }
        onIdentifiers(read)
    }

    private func finished(_ flag: CancellationFlag) {
        guard reading === flag else { return }
        reading = nil
        onFinished()
    }
}
