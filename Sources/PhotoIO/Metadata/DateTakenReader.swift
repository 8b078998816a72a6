import CGdkPixbuf
import Foundation
import PhotoCore
import Synchronization

/// Reads when photos were taken, in the background, remembering what it read.
///
/// Dates already in the `DateTakenCache` (same file, same modification time and size) come
/// back at once in one batch; the rest are read file by file with `PhotoMetadata` and come
/// back in batches, so the app can re-sort progressively and show progress. The cache
/// lives in `<cache home>/gphotobrowse/dates-v1` (the cache home is `$XDG_CACHE_HOME`, else
/// `~/.cache`). Each run loads it to look its photos up and lets it go before reading any
/// file (100,000 photos' entries take about 20 MiB); what runs read is kept until it is
/// saved, after each run, merged with what other processes saved meanwhile, through a
/// temporary file renamed over the old one.
///
/// `run` blocks: call it on a worker thread. One reader may serve several runs at once
/// (two windows): they share the cache in memory.
public final class DateTakenReader: Sendable {
    /// How far a run has come.
    public struct Progress: Sendable, Equatable {
        /// Photos whose date is known (cached or read), out of `total`.
        public let done: Int
        public let total: Int
        /// False when the run was cancelled before it read every photo.
        public var isComplete: Bool { done == total }
    }

    /// Reads a file's date: a date, `.noDate`, or nil when the file could not be read
    /// (not remembered, so it is tried again next time).
    public typealias DateSource = @Sendable (_ uri: String) -> DateTakenCache.Value?
    /// Reads several files' dates at once (a decoder process reads a batch per request);
    /// one answer per URI, in order.
    public typealias BatchDateSource = @Sendable (_ uris: [String], _ cancellation: CancellationFlag) -> [DateTakenCache.Value?]

    /// How many files `run` hands the source at a time: one for a single-file source, so a
    /// cancel stops between files; `DecoderChannel.maxDescriptors` for a batch source.
    private let batchCount: Int

    /// The cache file.
    public let cachePath: String
    private let source: BatchDateSource
    private let saveInterval: Double

    private struct State {
        /// Entries stored since the last save.
        var changes = DateTakenCache()
    }
    private let state = Mutex(State())
    /// Held through a save (load, merge, write), so two runs of this reader saving at once
    /// do not overwrite each other's entries. Processes can still race; the loser's dates
    /// are read again on a later visit.
    private let saving = Mutex(())

    /// - Parameters:
    ///   - cacheHome: the folder holding `gphotobrowse/dates-v1`; nil for the user's cache
    ///     folder (`$XDG_CACHE_HOME`, else `~/.cache`). Tests pass a temporary folder.
    ///   - saveInterval: during a long run, also save every so many seconds, so a run
    ///     interrupted by a crash keeps most of its work.
    ///   - source: how a date is read; `PhotoMetadata.readDate(uri:)` unless a test says.
    public convenience init(cacheHome: String? = nil, saveInterval: Double = 30,
                            source: @escaping DateSource = { PhotoMetadata.readDate(uri: $0) }) {
        self.init(cacheHome: cacheHome, saveInterval: saveInterval, batchCount: 1, batchSource: { uris, _ in uris.map(source) })
    }

    /// A reader whose dates come `batchCount` files at a time (`IsolatedDecoder.datesTaken`).
    public init(cacheHome: String? = nil, saveInterval: Double = 30, batchCount: Int = DecoderChannel.maxDescriptors,
                batchSource: @escaping BatchDateSource) {
        self.batchCount = max(1, batchCount)
        let home = cacheHome ?? String(cString: g_get_user_cache_dir())
        cachePath = home + "/gphotobrowse/dates-v1"
        self.source = batchSource
        self.saveInterval = saveInterval
    }

    /// Finds the dates of `photos`, handing them to `deliver` as a map from photo id to
    /// date (nil: the file records none) with the progress so far:
    /// - first, at once, every date the cache knows (when there is any);
    /// - then the dates read from the files, each batch once it holds `batchSize` dates or
    ///   its wait has passed, whichever comes first: `interval` seconds after the start, then
    ///   twice as long each time up to `maximumInterval` (by default `interval` every time).
    ///   Each batch costs the receiver a pass over its whole list (a re-sort by date), so a
    ///   long reading delivers its dates in a few batches; between them, every `interval`
    ///   seconds, the progress alone (an empty batch).
    ///
    /// `cancellation` is checked between files; once it is set the run stops, delivers
    /// nothing more, and saves what it read. Files that cannot be read are counted as
    /// done with no date. Returns the progress delivered.
    @discardableResult
    public func run(
        _ photos: [Photo],
        cancellation: CancellationFlag,
        batchSize: Int = 200,
        interval: Double = 0.1,
        maximumInterval: Double? = nil,
        deliver: (_ dates: [String: Int64?], _ progress: Progress) -> Void
    ) -> Progress {
        let total = photos.count
        // The photos to read, by their place in `photos`: a folder of 100,000 photos read for
        // the first time would otherwise hold a second copy of its list while it is read.
        var toRead: [Int] = []
        var cached: [String: Int64?] = [:]
        do {
            // The file's entries are looked up as they are read, not held (about 20 MiB for
            // 100,000 photos): only which photos they answer, by place.
            var known: [DateTakenCache.Value?] = []
            var knownCount = 0
            let saved = Self.read(cachePath)
            if !saved.isEmpty {
                DateTakenCache.lookUp(photos.map { ($0.id, $0.modified, $0.size) }, inSerialized: saved) { index, value in
                    if known.isEmpty { known = Array(repeating: nil, count: photos.count) }
                    known[index] = value
                    knownCount += 1
                }
            }
            if knownCount > 0 { cached.reserveCapacity(knownCount) }
            state.withLock { state in
                for (index, photo) in photos.enumerated() {
                    // Dates read but not saved yet (the file could not be written) count too.
                    if let value = (known.isEmpty ? nil : known[index]) ?? state.changes.lookup(photo.id, modified: photo.modified, size: photo.size) {
                        cached[photo.id] = value.dateTaken
                    } else {
                        toRead.append(index)
                    }
                }
            }
        }
        if cancellation.isCancelled { return Progress(done: 0, total: total) }
        var done = cached.count       // dates known, delivered or not
        var delivered = cached.count  // dates handed to `deliver`
        if !cached.isEmpty { deliver(cached, Progress(done: done, total: total)) }

        var batch: [String: Int64?] = [:]
        var pacing = DeliveryPacing(interval: interval, maximumInterval: max(interval, maximumInterval ?? interval))
        let start = Date.timeIntervalSinceReferenceDate
        // The first dates read wait `interval` too: one date alone is not worth a re-sort.
        pacing.delivered(now: start)
        var lastProgress = start
        var lastSave = start
        var next = 0
        var values: [DateTakenCache.Value?] = []
        for (n, index) in toRead.enumerated() {
            if cancellation.isCancelled { break }
            let photo = photos[index]
            if n == next {
                let chunk = toRead[n..<min(n + batchCount, toRead.count)]
                values = source(chunk.map { photos[$0].id }, cancellation)
                if values.count != chunk.count { values = Array(repeating: nil, count: chunk.count) }
                next = n + chunk.count
            }
            let value = values[n - (next - values.count)]
            if let value {
                let unsaved = state.withLock { state in
                    state.changes.store(photo.id, modified: photo.modified, size: photo.size, value: value)
                    return state.changes.count
                }
                // What was read goes to the file in bounded steps, not held until the end.
                if unsaved >= Self.unsavedLimit {
                    save()
                    lastSave = Date.timeIntervalSinceReferenceDate
                }
            }
            batch[photo.id] = value?.dateTaken
            done += 1

            let now = Date.timeIntervalSinceReferenceDate
            if batch.count >= batchSize || pacing.isDue(now: now) || done == total {
                if cancellation.isCancelled { break }
                deliver(batch, Progress(done: done, total: total))
                delivered = done
                batch.removeAll(keepingCapacity: true)
                pacing.delivered(now: now)
                lastProgress = now
            } else if now - lastProgress >= interval {
                if cancellation.isCancelled { break }
                deliver([:], Progress(done: done, total: total))
                lastProgress = now
            }
            if now - lastSave >= saveInterval {
                save()
                lastSave = now
            }
        }
        if !toRead.isEmpty { save() }
        return Progress(done: delivered, total: total)
    }

    /// How many dates read a run holds before it saves them.
    static let unsavedLimit = 10_000

    /// Writes what was read since the last save to the cache file, merged into what the
    /// file holds now (another process may have written it). Returns false when the file
    /// could not be written; the dates stay in memory and are tried again next save.
    ///
    /// The file's entries are merged as they are read, never held all at once.
    @discardableResult
    public func save() -> Bool {
        saving.withLock { _ in
            let changes = state.withLock { state -> DateTakenCache in
                defer { state.changes = DateTakenCache() }
                return state.changes
            }
            guard !changes.isEmpty else { return true }
            // Written as it is made: the file's new bytes are never all in memory.
            let saved = Self.read(cachePath)
            if Self.write(to: cachePath, { DateTakenCache.write(merging: saved, with: changes, to: $0) }) { return true }
            state.withLock { state in
                var again = changes
                again.merge(state.changes)
                state.changes = again
            }
            return false
        }
    }

    /// The cache file's bytes; none when it is missing, unreadable or too big to be ours.
    static func read(_ path: String) -> [UInt8] {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return [] }
        defer { Glibc.close(fd) }
        var status = stat()
        // 1 GiB is millions of entries: anything bigger is not ours.
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size < 1 << 30 else {
            return []
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            filled += n
        }
        if filled < bytes.count { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// Writes the bytes `produce` hands to its argument, in order, to a temporary file beside
    /// `path`, then renames it over `path` when `produce` returned true and every byte was
    /// written, so a reader never sees half a file.
    static func write(to path: String, _ produce: (_ put: ([UInt8]) -> Bool) -> Bool) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            return false
        }
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let produced = produce { bytes in
            var written = 0
            while written < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                written += n
            }
            return true
        }
        let closed = Glibc.close(fd) == 0
        guard produced, closed, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
