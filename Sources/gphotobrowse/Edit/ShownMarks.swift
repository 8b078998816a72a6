import Foundation
import PhotoCore
import PhotoIO

/// The marks (favourite, stars, tags) of the photos the process has shown, on the main
/// thread: read on one worker from the photos' sidecars or the photos themselves (in decoder
/// processes), written there by `PhotoMarking`. Grids and the viewer listen for changes.
/// Beside them, the cameras the photos' EXIF names, which a search looks for: read with their
/// dates in the decoder processes (when an album sorts by date taken, or a search asks).
@MainActor
final class ShownMarks {
    static let shared = ShownMarks()

    let store = PhotoMarksStore(decoder: IsolatedDecoder.shared)
    private var knownMarks: [String: PhotoMarks] = [:]
    private var pending: Set<String> = []
    private let queue = DispatchQueue(label: "gphotobrowse.marks", qos: .utility)
    private var listeners: [(id: Int, owner: () -> AnyObject?, changed: @MainActor (String, PhotoMarks) -> Void)] = []
    private var listenerCount = 0
    /// What each photo's EXIF says that a search looks at (its camera, its date taken), once read.
    private var knownFacts: [String: ExifFacts] = [:]
    private var factsPending: Set<String> = []
    private var factListeners: [(owner: () -> AnyObject?, changed: @MainActor () -> Void)] = []

    /// Every photo's EXIF facts known now (a copy, to hand to a worker).
    var facts: [String: ExifFacts] { knownFacts }

    /// Reads the cameras and dates of those of `uris` not known yet, a decoder request for 64
    /// files, on the marks worker; listeners hear once a batch is in.
    func requestFacts(_ uris: [String]) {
        let unknown = uris.filter { knownFacts[$0] == nil && !factsPending.contains($0) }
        guard !unknown.isEmpty else { return }
        factsPending.formUnion(unknown)
        queue.async {
            for start in stride(from: 0, to: unknown.count, by: 1024) {
                let batch = Array(unknown[start..<min(start + 1024, unknown.count)])
                let read = IsolatedDecoder.shared.datesAndCameras(uris: batch)
                onMain { ShownMarks.shared.factsRead(zip(batch, read).map { ($0, ExifFacts(read: $1)) }) }
            }
        }
    }

    /// Facts read (nil: the file could not be read, to try again another time).
    func factsRead(_ read: [(uri: String, facts: ExifFacts?)]) {
        var changed = false
        for (uri, facts) in read {
            factsPending.remove(uri)
            guard let facts, knownFacts[uri] != facts else { continue }
            knownFacts[uri] = facts
            changed = true
        }
        guard changed else { return }
        factListeners.removeAll { $0.owner() == nil }
        for listener in factListeners { listener.changed() }
    }

    /// Calls `changed` when facts are read, while `owner` lives.
    func listenForFacts(_ owner: AnyObject, _ changed: @escaping @MainActor () -> Void) {
        factListeners.append(({ [weak owner] in owner }, changed))
    }

    /// Every photo's marks known now (a copy, to hand to a worker).
    var known: [String: PhotoMarks] { knownMarks }

    /// The marks known for a photo; nil until read (`request`).
    func marks(of uri: String) -> PhotoMarks? { knownMarks[uri] }

    /// Reads a photo's marks when they are not known yet.
    func request(_ uri: String) {
        guard knownMarks[uri] == nil, !pending.contains(uri) else { return }
        pending.insert(uri)
        let store = self.store
        queue.async {
            let marks = store.marks(of: uri)
            onMain {
                let shared = ShownMarks.shared
                shared.pending.remove(uri)
                if Trace.tilesEnabled, !marks.isEmpty {
                    Trace.milestone("marks-read", text: "\(uri) \(marks.favourite ? 1 : 0) \(marks.rating) \(marks.tags.count)")
                }
                shared.set(marks, for: uri)
            }
        }
    }

    /// Reads the marks of those photos that have a sidecar (a look for each: no photo is read),
    /// in batches, after the reads asked for before.
    func readSidecars(of uris: [String]) {
        let unknown = uris.filter { knownMarks[$0] == nil && !pending.contains($0) }
        guard !unknown.isEmpty else { return }
        let store = self.store
        queue.async {
            var found: [(String, PhotoMarks)] = []
            func deliver() {
                let batch = found
                found = []
                onMain {
                    let shared = ShownMarks.shared
                    for (uri, marks) in batch where shared.knownMarks[uri] == nil { shared.set(marks, for: uri) }
                }
            }
            for uri in unknown {
                if let marks = store.sidecarMarks(of: uri) { found.append((uri, marks)) }
                if found.count >= 500 { deliver() }
            }
            if !found.isEmpty { deliver() }
        }
    }

    /// Keeps marks just written (or read), and tells the listeners.
    func set(_ marks: PhotoMarks, for uri: String) {
        let changed = knownMarks[uri] != marks
        knownMarks[uri] = marks
        guard changed else { return }
        listeners.removeAll { $0.owner() == nil }
        for listener in listeners { listener.changed(uri, marks) }
    }

    /// Calls `changed` with each photo whose marks change, while `owner` lives.
    func listen(_ owner: AnyObject, _ changed: @escaping @MainActor (String, PhotoMarks) -> Void) {
        listenerCount += 1
        listeners.append((listenerCount, { [weak owner] in owner }, changed))
    }

    /// Runs `work` on the marks worker (after the reads asked for before it).
    nonisolated func onWorker(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }
}

/// What a photo's EXIF says that a search looks at: the camera ("" for none) and the date taken
/// (µs, `ExifDate`; nil for none).
struct ExifFacts: Sendable, Equatable {
    var camera: String
    var taken: Int64?

    /// What a read found; nil when the file could not be read.
    init?(read: (date: DateTakenCache.Value?, camera: String?)) {
        guard let date = read.date else { return nil }
        camera = read.camera ?? ""
        taken = date.dateTaken
    }
}
