import Foundation
import PhotoCore
import PhotoIO

/// The marks worker's readings of `ShownMarks`: marks and facts read a step at a time, each
/// step queued behind what was asked meanwhile, and stopped by their flag (a window's job).
extension ShownMarks {
    /// On the worker: the cameras and dates of the next 1,024 photos of `reading` not asked
    /// for yet read, a decoder request, and delivered, with `trace facts-step COUNT MS`
    /// (`GPHOTOBROWSE_TRACE=all`). Each step after the first waits behind what was queued
    /// meanwhile: marks a person sets are written after 1,024 photos more, not after a
    /// search's 100,000. Photos are taken as asked for when their step takes them: a reading
    /// stopped leaves the rest to whoever asks for them (another window's).
    nonisolated static func readFacts(_ reading: MarksReading, asked: AskedOnWorker, queue: DispatchQueue) {
        var reading = reading
        guard !reading.flag.isCancelled else { return }
        var batch: [String] = []
        while batch.count < 1024, let uri = reading.next() {
            if asked.facts.insert(uri) || reading.again { batch.append(uri) }
        }
        guard !batch.isEmpty else { return }
        let read = zip(batch, IsolatedDecoder.shared.datesAndCameras(uris: batch, cancellation: ShownMarks.work)).map { ($0, ExifFacts(read: $1)) }
        // A file that could not be read is tried again another time.
        for (uri, facts) in read where facts == nil { asked.facts.remove(uri) }
        let traced = reading.job != nil
        onMain {
            if traced, Trace.tilesEnabled { Trace.milestone("facts-step", read.count) }
            ShownMarks.shared.factsRead(read)
        }
        if !reading.isDone { queue.async { [reading] in Self.readFacts(reading, asked: asked, queue: queue) } }
    }

    /// What the index holds of photos whose marks are read (`readMarks`): their files, and
    /// the marks kept of those whose file and sidecars are what they were, as looked up after
    /// `writesRun` jobs of `onWorker`.
    struct LookedUp: Sendable {
        var files: [String: PhotoIndex.FileState] = [:]
        var indexed: [String: PhotoMarks] = [:]
        var writesRun = 0
    }

    /// On the worker: the marks of the photos of `reading` (those not asked for before,
    /// unless it reads them `again`), the index's while the file and its sidecars are what
    /// they were, else read from the file, delivered 500 at a time, with `trace marks-step
    /// COUNT MS` (`GPHOTOBROWSE_TRACE=all`). After each 500 the rest waits behind what was
    /// queued meanwhile: marks a person sets while the marks of a search's 100,000 photos
    /// are read are written after 500 more, not after all of them. What the index holds
    /// (`looked`) is looked up again for the rest once marks were written. A photo is taken
    /// as asked for when its step reads it: a reading whose flag is cancelled stops at the
    /// next photo, and leaves the rest to whoever asks for them. The trace says a window's
    /// readings' steps only (not a tile's photo).
    nonisolated static func readMarks(_ reading: MarksReading, store: PhotoMarksStore,
                                      asked: AskedOnWorker, writes: IndexWrites, queue: DispatchQueue) {
        var reading = reading
        guard !reading.flag.isCancelled else { return writes.flushSoon(on: queue) }
        var looked = reading.looked ?? LookedUp(writesRun: -1)
        if looked.writesRun != asked.writesRun {
            looked = LookedUp(writesRun: asked.writesRun)
            let again = reading.again
            let files = reading.rest.filter { again || !asked.marks.contains($0) }.compactMap { PhotoIndex.FileState(now: $0) }
            looked.files = Dictionary(files.map { ($0.uri, $0) }, uniquingKeysWith: { a, _ in a })
            if !files.isEmpty {
                PhotoIndex.shared.known(files, sidecarStamp: { store.sidecarStamp(of: $0) }) { place, known in
                    if let marks = known.marks { looked.indexed[files[place].uri] = marks }
                }
            }
        }
        reading.looked = looked
        var batch: [(uri: String, marks: PhotoMarks, fromIndex: Bool)] = []
        while batch.count < 500, !reading.flag.isCancelled, let uri = reading.next() {
            guard asked.marks.insert(uri) || reading.again else { continue }
            if let marks = looked.indexed[uri] {
                asked.indexed.insert(uri)
                batch.append((uri, marks, true))
            } else {
                asked.indexed.remove(uri)
                let marks = store.marks(of: uri, cancellation: ShownMarks.work)
                // Kept in the index from here: the main thread need not ask for it.
                if let file = looked.files[uri] { writes.add(.marks(marks, file: file, sidecarStamp: store.sidecarStamp(of: uri))) }
                batch.append((uri, marks, false))
            }
        }
        let read = batch
        let traced = reading.job != nil
        if !read.isEmpty {
            onMain {
                if traced, Trace.tilesEnabled { Trace.milestone("marks-step", read.count) }
                ShownMarks.shared.marksRead(read)
            }
        }
        if reading.isDone || reading.flag.isCancelled {
            writes.flushSoon(on: queue)
        } else {
            queue.async { [reading] in Self.readMarks(reading, store: store, asked: asked, writes: writes, queue: queue) }
        }
    }

    /// On the worker: the marks of those of `photos` not asked for before that have a sidecar
    /// (`readSidecars(in:)`), the index's first (with `trace marks-indexed`), then those read
    /// from the sidecars, 500 at a time. Which have one is found from their folders' names
    /// (`PhotoMarksStore.withSidecars`): a photo without is not looked at again.
    nonisolated static func readSidecars(of photos: [Photo], store: PhotoMarksStore, asked: AskedOnWorker) {
        let unknown = photos.filter { !asked.marks.contains($0.id) }
        let withSidecars = store.withSidecars(among: photos.map(\.id))
        // The index is asked for the facts of photos whose marks were asked for before too
        // (the tiles shown while the folder was listed), not read again at a first search.
        let files = photos.filter { $0.id.hasPrefix("file://") && (!asked.marks.contains($0.id) || !asked.facts.contains($0.id)) }
            .map { PhotoIndex.FileState(uri: $0.id, size: $0.size, modified: $0.modified) }
        // What the index holds, as lists of what it holds: for a folder of 100,000 photos a
        // table of every photo's marks and facts by URI took 50 MB.
        var marks: [(uri: String, marks: PhotoMarks)] = []
        var facts: [(uri: String, facts: ExifFacts?)] = []
        // A folder opened again has every photo's facts there: the table grows once.
        asked.facts.reserveCapacity(asked.facts.count + files.count)
        PhotoIndex.shared.known(files, sidecarStamp: { withSidecars.contains($0) ? store.sidecarStamp(of: $0) : 0 }) { place, known in
            let uri = files[place].uri
            if let known = known.marks, asked.marks.insert(uri) {
                asked.indexed.insert(uri)
                marks.append((uri, known))
            }
            if let known = known.facts, asked.facts.insert(uri) {
                facts.append((uri, ExifFacts(camera: known.camera, taken: known.taken)))
            }
        }
        let marked = Set(marks.map(\.uri))
        // With those the tiles asked for meanwhile (read before these, on this worker).
        let indexed = photos.reduce(0) { asked.indexed.contains($1.id) ? $0 + 1 : $0 }
        let saying = facts.reduce(0) { $1.facts == nil || $1.facts == ExifFacts.none ? $0 : $0 + 1 }
        onMain { [marks, facts] in
            ShownMarks.shared.indexRead(marks: marks[...], facts: facts[...], saying: saying) {
                Trace.milestone("marks-indexed", indexed)
            }
        }
        var found: [(uri: String, marks: PhotoMarks)] = []
        func deliver() {
            let batch = found
            found = []
            onMain { ShownMarks.shared.sidecarsRead(batch) }
        }
        for photo in unknown where withSidecars.contains(photo.id) && !marked.contains(photo.id) {
            if let marks = store.sidecarMarks(of: photo.id, cancellation: ShownMarks.work) {
                found.append((photo.id, marks))
                asked.marks.insert(photo.id)
            }
            if found.count >= 500 { deliver() }
        }
        if !found.isEmpty { deliver() }
    }
}

/// A value handed to a worker, let go of there as soon as the worker takes it.
final class Handover<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    init(_ value: Value) { self.value = value }

    func take() -> Value? {
        lock.withLock {
            defer { value = nil }
            return value
        }
    }
}

extension ExifFacts {
    /// What a read found; nil when the file could not be read.
    init?(read: (date: DateTakenCache.Value?, camera: String?)) {
        guard let date = read.date else { return nil }
        self.init(camera: read.camera ?? "", taken: date.dateTaken)
    }
}

/// One reading of marks or facts on the marks worker: its photos, how far it got, and what
/// stops it (a window's job, or the process's flag, never cancelled).
struct MarksReading: Sendable {
    let uris: [String]
    /// Every photo read, asked for before or not (the main thread sorted them out).
    let again: Bool
    let flag: CancellationFlag
    /// The window's job the reading is, held until it ends.
    let job: WindowJobs.Job?
    private var place = 0
    /// What the index held of the photos still to read (marks only).
    var looked: ShownMarks.LookedUp?

    init(uris: [String], again: Bool, flag: CancellationFlag, job: WindowJobs.Job? = nil) {
        self.uris = uris
        self.again = again
        self.flag = flag
        self.job = job
    }

    /// The photos not taken yet.
    var rest: ArraySlice<String> { uris[place...] }
    var isDone: Bool { place >= uris.count }

    mutating func next() -> String? {
        guard place < uris.count else { return nil }
        place += 1
        return uris[place - 1]
    }
}

/// The photos whose marks, and whose facts, the marks worker was asked for or told of: on
/// the worker only. As hashes: a folder of 100,000 photos opened again names every one in
/// `facts` (from the index), 6.3 MB at the peak as a `Set<String>` while it doubled.
final class AskedOnWorker: @unchecked Sendable {
    var marks = URIHashes()
    var facts = URIHashes()
    /// The photos whose marks the worker last delivered from the index (for `trace
    /// marks-indexed`), not read from a file or written since.
    var indexed = URIHashes()
    /// How many jobs of `ShownMarks.onWorker` (marks written) have run, and sidecars found
    /// changed (`rereadSidecars`).
    var writesRun = 0
    /// The stamp of each photo's sidecars as the app last wrote them (`ShownMarks.write`).
    var written: [String: Int64] = [:]
}
