import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The marks (favourite, stars, tags) of the photos the process has shown, on the main
/// thread: read on one worker from the photos' sidecars or the photos themselves (in decoder
/// processes), written there by `PhotoMarking`. Grids and the viewer listen for changes.
/// Beside them, the cameras the photos' EXIF names, which a search looks for: read with their
/// dates in the decoder processes (when an album sorts by date taken, or a search asks).
/// Everything read is kept in the photo index (`PhotoIndex`), from which a folder opened
/// again takes what still holds, without reading a file.
@MainActor
final class ShownMarks {
    static let shared = ShownMarks()

    nonisolated let store = PhotoMarksStore(decoder: IsolatedDecoder.shared)
    private var knownMarks: [String: PhotoMarks] = [:]
    private var pending: Set<String> = []
    /// The photos whose marks known now make them favourites: a folder listed takes its
    /// own with a look per favourite, not per photo.
    private(set) var knownFavourites: Set<String> = []
    /// Not a window's job: the marks are the process's, shared by every window.
    private let queue = DispatchQueue(label: "gphotobrowse.marks", qos: .utility)
    /// The marks worker's reads and writes go on whatever window closes (marks a person set
    /// are written): their flag is the process's, never cancelled.
    nonisolated static let work = CancellationFlag()
    /// What was read, to write into the index: touched on `queue` only.
    private nonisolated let indexWrites = IndexWrites()
    private var listeners: [(id: Int, owner: () -> AnyObject?, changed: @MainActor (String, PhotoMarks) -> Void)] = []
    private var listenerCount = 0
    /// What each photo's EXIF says that a search looks at (its camera, its date taken), once
    /// read, for the photos whose EXIF names either: one that names neither is left out, as
    /// one not read yet is (`ExifFacts.none`, which a search takes either for). A folder of
    /// 100,000 photos without EXIF kept a table of 12.6 MB saying so, and grew it at the peak.
    private var knownFacts: [String: ExifFacts] = [:]
    /// Photos whose facts were read from their files while the index's wait to be kept a
    /// slice at a time (`indexRead`): newer than the index's, which leave them be. Nil when no
    /// index's facts wait.
    private var factsReadFromFiles: Set<String>?
    /// How many index readings have slices waiting.
    private var indexReadsWaiting = 0
    /// The photos whose marks, and whose facts, were asked for or told on the worker: touched
    /// on `queue` only.
    private nonisolated let asked = AskedOnWorker()
    private var factListeners: [(owner: () -> AnyObject?, changed: @MainActor ([(uri: String, facts: ExifFacts)]) -> Void)] = []

    /// Every photo's EXIF facts known now that name a camera or a date (a copy, to hand to a
    /// worker).
    var facts: [String: ExifFacts] { knownFacts }

    /// Reads the cameras and dates of those of `photos` not asked for yet, a decoder request
    /// for 1,024 files, on the marks worker; listeners hear once a batch is in. Which of them are
    /// not known yet is worked out on the worker, a step at a time: on a large album (a
    /// search's) a look per photo would hold the main thread up. `job`: the window's job the
    /// reading is (closing the window, or the job's scope, stops it after the step under way).
    func requestFacts(_ photos: [Photo], as job: WindowJobs.Job) {
        let asked = self.asked, queue = self.queue
        queue.async {
            Self.readFacts(MarksReading(uris: photos.map(\.id), again: false, flag: job.flag, job: job), asked: asked, queue: queue)
        }
    }

    /// Photos new or changed on disk (a folder's monitor saw them; a file put where one was):
    /// what was read of the files there before is not theirs. Those whose marks or facts are
    /// known are read again now, and the listeners told what changed (marks that went, as
    /// none); the others are read when next asked for.
    func reread(_ uris: [String]) {
        guard !uris.isEmpty else { return }
        let marks = uris.filter { knownMarks[$0] != nil && !pending.contains($0) }
        let facts = uris.filter { knownFacts[$0] != nil }
        let asked = self.asked, queue = self.queue
        queue.async {
            asked.marks.subtract(uris)
            asked.facts.subtract(uris)
            guard !facts.isEmpty else { return }
            Self.readFacts(MarksReading(uris: facts, again: true, flag: ShownMarks.work), asked: asked, queue: queue)
        }
        guard !marks.isEmpty else { return }
        pending.formUnion(marks)
        read(marks)
    }

    /// Photos whose sidecars (`NAME.EXT.xmp`, `NAME.xmp`) another program made, changed or
    /// removed while they are shown (a folder's monitor saw it): those whose marks were read
    /// (or are being read: the worker's order decides) are read again, and the listeners told
    /// what changed (marks that went, as none); the others are read when next asked for. A
    /// sidecar as this app last wrote it (its stamp the one kept by `write`) is no change:
    /// the monitor telling of the app's own writes reads nothing again, and never takes back
    /// what the person set meanwhile.
    func rereadSidecars(of uris: [String]) {
        guard !uris.isEmpty else { return }
        let store = self.store, asked = self.asked, writes = indexWrites, queue = self.queue
        queue.async {
            let changed = uris.filter { uri in asked.written[uri].map { $0 != store.sidecarStamp(of: uri) } ?? true }
            guard !changed.isEmpty else { return }
            let again = changed.filter { asked.marks.contains($0) }
            asked.marks.subtract(changed)
            // What the index held of photos a reading under way has still to read is looked
            // up again: it held these photos' marks as they were.
            asked.writesRun += 1
            guard !again.isEmpty else { return }
            Self.readMarks(MarksReading(uris: again, again: true, flag: ShownMarks.work), store: store, asked: asked, writes: writes, queue: queue)
        }
    }

    /// On the marks worker: writes `marks` as the photo's (`PhotoMarksStore.write`), and
    /// keeps its sidecars' stamp then, so that the folder's monitor telling of this write
    /// reads nothing again (`rereadSidecars`).
    nonisolated func write(_ marks: PhotoMarks, for uri: String, cancellation: CancellationFlag) -> Result<PhotoMarksStore.Place, PhotoMarksStore.Failure> {
        let result = store.write(marks, for: uri, cancellation: cancellation)
        if case .success = result { asked.written[uri] = store.sidecarStamp(of: uri) }
        return result
    }

    /// Facts read (nil: the file could not be read, to try again another time); kept in the
    /// index too unless they came from there.
    func factsRead(_ read: [(uri: String, facts: ExifFacts?)], fromIndex: Bool = false) {
        var changed: [(uri: String, facts: ExifFacts)] = []
        // A folder's facts from the index come at once (or room is made for them first,
        // `indexRead`): the table grows once, not by doubling (each doubling held the old
        // table beside the new).
        let saying = read.lazy.filter { $0.facts != nil && $0.facts != ExifFacts.none }.count
        if saying > knownFacts.capacity - knownFacts.count { knownFacts.reserveCapacity(knownFacts.count + saying) }
        // Listeners take facts not known for none: a photo found to name neither camera nor
        // date changes nothing for them (100,000 such photos at once from the index).
        var told: [(uri: String, facts: ExifFacts)] = []
        for (uri, facts) in read {
            guard let facts else { continue }
            if !fromIndex { factsReadFromFiles?.insert(uri) }
            let before = facts == ExifFacts.none ? knownFacts.removeValue(forKey: uri) : knownFacts.updateValue(facts, forKey: uri)
            guard before != facts else { continue }
            changed.append((uri, facts))
            if before != nil || facts != ExifFacts.none { told.append((uri, facts)) }
        }
        guard !changed.isEmpty else { return }
        if !fromIndex { remember(changed.map { (.facts($0.facts), $0.uri) }) }
        guard !told.isEmpty else { return }
        factListeners.removeAll { $0.owner() == nil }
        for listener in factListeners { listener.changed(told) }
    }

    /// Calls `changed` with the facts that changed when facts are read, while `owner` lives.
    func listenForFacts(_ owner: AnyObject, _ changed: @escaping @MainActor ([(uri: String, facts: ExifFacts)]) -> Void) {
        factListeners.append(({ [weak owner] in owner }, changed))
    }

    /// Every photo's marks known now (a copy, to hand to a worker).
    var known: [String: PhotoMarks] { knownMarks }

    /// The marks known for a photo; nil until read (`request`).
    func marks(of uri: String) -> PhotoMarks? { knownMarks[uri] }

    /// Reads a photo's marks when they are not known yet.
    func request(_ uri: String) { request([uri]) }

    /// Reads the marks of those of `uris` not known yet: the index's, while the file and its
    /// sidecars are what they were, else read from the sidecars or the photo. They come back
    /// in batches of 500, one turn of the main loop each, so that asking for a whole album's
    /// (a search) never floods the main loop ahead of what else waits there.
    func request(_ uris: [String]) {
        let unknown = uris.filter { knownMarks[$0] == nil && !pending.contains($0) }
        guard !unknown.isEmpty else { return }
        pending.formUnion(unknown)
        read(unknown)
    }

    /// Reads the marks of those of `photos` not asked for yet, as `request` does; which they
    /// are is worked out on the worker, a step at a time, not with a look per photo on the
    /// main thread (a search asks for a whole album's). `job`: the window's job the reading
    /// is: closing the window (or the job's scope) stops it after the photo being read; what
    /// was read is kept, and the rest is read for whoever asks for it (another window).
    func request(_ photos: [Photo], as job: WindowJobs.Job) {
        let store = self.store, asked = self.asked, writes = indexWrites, queue = self.queue
        queue.async {
            let reading = MarksReading(uris: photos.map(\.id), again: false, flag: job.flag, job: job)
            Self.readMarks(reading, store: store, asked: asked, writes: writes, queue: queue)
        }
    }

    /// On the worker: the marks of every one of `uris` read again (the main thread sorted
    /// them out) and delivered, and what was read from a file kept in the index. Not a
    /// window's: a tile's photo, or one that changed on disk.
    private func read(_ uris: [String]) {
        let store = self.store, asked = self.asked, writes = indexWrites, queue = self.queue
        queue.async {
            let reading = MarksReading(uris: uris, again: true, flag: ShownMarks.work)
            Self.readMarks(reading, store: store, asked: asked, writes: writes, queue: queue)
        }
    }

    /// Marks a reading on the worker read (`readMarks`), kept and told.
    func marksRead(_ read: [(uri: String, marks: PhotoMarks, fromIndex: Bool)]) {
        for (uri, marks, fromIndex) in read {
            pending.remove(uri)
            if Trace.tilesEnabled, !fromIndex, !marks.isEmpty {
                Trace.milestone("marks-read", text: "\(uri) \(marks.favourite ? 1 : 0) \(marks.rating) \(marks.tags.count)")
            }
            // Kept in the index by the worker that read them.
            set(marks, for: uri, fromIndex: fromIndex, indexed: true)
        }
    }

    /// Reads the marks of the photos of `tree` that have a sidecar (a look for each: no photo
    /// is read), in batches, after the reads asked for before. What the index knows of them and
    /// still holds comes first, with `trace marks-indexed COUNT MS` (COUNT: photos of the tree
    /// whose marks came from it, those the tiles asked for meanwhile too); those photos are not
    /// looked at again. All of it on the marks worker, the tree's photos taken out there: the
    /// main thread does nothing per photo (a folder of 100,000 held it up 65 ms as it was
    /// listed). Those whose marks were asked for before are left out.
    func readSidecars(in tree: FolderTree) {
        let store = self.store, asked = self.asked
        let handed = Handover(tree)
        queue.async {
            // The tree let go of as soon as its photos are out: the main thread changing it
            // while the worker holds it would copy it.
            let photos = handed.take()?.photos(in: .allPhotos) ?? []
            Self.readSidecars(of: photos, store: store, asked: asked)
        }
    }

    /// What the index held of photos whose sidecars are read (`readSidecars`), kept (those
    /// known meanwhile keep what they have) 4,096 photos at a time, a slice per idle turn of
    /// the main loop, frames and input first: a folder of 100,000 photos opened again held the
    /// main thread 40 ms with its facts at once; facts read from a file meanwhile (rewritten by
    /// another program) are not overwritten. `saying`: how many of the facts name a camera or a
    /// date (the table of facts grows once for them). `done` once every slice is kept.
    func indexRead(marks: ArraySlice<(uri: String, marks: PhotoMarks)>, facts: ArraySlice<(uri: String, facts: ExifFacts?)>,
                   saying: Int, done: @escaping @MainActor () -> Void) {
        if saying > knownFacts.capacity - knownFacts.count { knownFacts.reserveCapacity(knownFacts.count + saying) }
        indexReadsWaiting += 1
        if factsReadFromFiles == nil { factsReadFromFiles = [] }
        keepIndexSlices(marks: marks, facts: facts, done: done)
    }

    private func keepIndexSlices(marks: ArraySlice<(uri: String, marks: PhotoMarks)>, facts: ArraySlice<(uri: String, facts: ExifFacts?)>,
                                 done: @escaping @MainActor () -> Void) {
        let slice = 4096
        for (uri, read) in marks.prefix(slice) where knownMarks[uri] == nil { set(read, for: uri, fromIndex: true) }
        let newer = factsReadFromFiles ?? []
        factsRead(newer.isEmpty ? Array(facts.prefix(slice)) : facts.prefix(slice).filter { !newer.contains($0.uri) }, fromIndex: true)
        guard marks.count > slice || facts.count > slice else {
            indexReadsWaiting -= 1
            if indexReadsWaiting == 0 { factsReadFromFiles = nil }
            return done()
        }
        whenIdle { ShownMarks.shared.keepIndexSlices(marks: marks.dropFirst(slice), facts: facts.dropFirst(slice), done: done) }
    }

    /// Marks read from the sidecars of photos (`readSidecars`), kept unless known meanwhile.
    func sidecarsRead(_ read: [(uri: String, marks: PhotoMarks)]) {
        for (uri, marks) in read where knownMarks[uri] == nil { set(marks, for: uri) }
    }

    /// Keeps marks just written (or read), and tells the listeners; kept in the index too
    /// unless they came from there, or the worker that read them keeps them there (`indexed`).
    /// Listeners take marks not known for none: a photo found to have none changes nothing
    /// they show or search (100,000 such photos at once from the index), and is not told.
    func set(_ marks: PhotoMarks, for uri: String, fromIndex: Bool = false, indexed: Bool = false) {
        if !fromIndex, !indexed { remember([(.marks(marks), uri)]) }
        let before = knownMarks.updateValue(marks, forKey: uri)
        if marks.favourite != (before?.favourite ?? false) {
            if marks.favourite { knownFavourites.insert(uri) } else { knownFavourites.remove(uri) }
        }
        guard before != marks, before != nil || marks != .none else { return }
        listeners.removeAll { $0.owner() == nil }
        for listener in listeners { listener.changed(uri, marks) }
    }

    /// Calls `changed` with each photo whose marks change, while `owner` lives.
    func listen(_ owner: AnyObject, _ changed: @escaping @MainActor (String, PhotoMarks) -> Void) {
        listenerCount += 1
        listeners.append((listenerCount, { [weak owner] in owner }, changed))
    }

    /// Keeps what was read of local photos in the index: their files and sidecars looked at
    /// on the worker, the rows written together a moment later. The worker knows them asked
    /// for from then on.
    private func remember(_ read: [(what: IndexWrites.Read, uri: String)]) {
        let local = read.filter { $0.uri.hasPrefix("file://") }
        guard !local.isEmpty else { return }
        let store = self.store, writes = indexWrites, queue = self.queue, asked = self.asked
        queue.async {
            for (what, uri) in local {
                let file = PhotoIndex.FileState(now: uri)
                switch what {
                case _ where file == nil: writes.add(.removed(uri))
                case .marks(let marks):
                    asked.marks.insert(uri)
                    asked.indexed.remove(uri)
                    writes.add(.marks(marks, file: file!, sidecarStamp: store.sidecarStamp(of: uri)))
                case .facts(let facts):
                    asked.facts.insert(uri)
                    writes.add(.facts(PhotoIndex.Facts(camera: facts.camera, taken: facts.taken), file: file!))
                }
            }
            writes.flushSoon(on: queue)
        }
    }

    /// Runs `work` on the marks worker (after the reads asked for before it).
    /// Counted (`AskedOnWorker.writesRun`): marks written there make what the index held of
    /// photos still to be read looked up again (`readMarks`).
    nonisolated func onWorker(_ work: @escaping @Sendable () -> Void) {
        let asked = self.asked
        queue.async {
            asked.writesRun += 1
            work()
        }
    }
}
