import Foundation
import PhotoCore
import Synchronization

/// A tree's walk (`FolderTreeWalk`) running on a thread of its own, and what it has found
/// that the main thread has not taken yet.
///
/// The walk goes at its own pace; what it finds waits here until taken, all at once, so a
/// long list is merged once for everything that arrived while the main thread was busy
/// (every merge into a list of n photos costs O(n)). Whoever takes it may `adopt` the run
/// to be woken (on the walk's thread) when something is waiting and was not yet asked for.
///
/// A walk can start before anyone takes from it: `prestart` starts one at launch for the
/// folder the command line names, beside GTK's own start-up, and the window that opens
/// that folder `claim`s it.
public final class TreeWalkRun: @unchecked Sendable {
    /// What the walk found since the last take.
    public struct Found: Sendable {
        /// Folders the walk will read or has read, in walk order (each before its photos).
        public var folders: [TreeFolder] = []
        /// Folders left out, with why (hidden ones and loops included).
        public var leftOut: [SkippedFolder] = []
        /// Photos, by the folder they are directly in, in walk order.
        public var photos: [FolderPhotos] = []
        /// How the walk ended, once it has and everything it found has been taken.
        public var end: Result<FolderTreeWalk.Totals, FolderError>?

        public init() {}

        public var isEmpty: Bool { folders.isEmpty && leftOut.isEmpty && photos.isEmpty && end == nil }
    }

    public var uri: String { walk.uri }
    /// The walk run: what it learnt beyond photos (a web album's title) is asked of it.
    public let walk: any TreeWalking
    private let lock = NSLock()
    private var waiting = Found()
    /// The photos of each delivery waiting, so that the first can be taken alone.
    private var deliveries: [[FolderPhotos]] = []
    private var end: Result<FolderTreeWalk.Totals, FolderError>?
    private var wake: (@Sendable () -> Void)?
    /// Whether `wake` was called and nothing has been taken since.
    private var wakeAsked = false
    /// What lives as long as the walk's thread (`holdWhileRunning`).
    private var held: [any AnyObject & Sendable] = []
    private var hasThreadEnded = false

    /// Starts walking the tree at `uri` on a new thread. `path` places what it finds: the
    /// folder names above `uri` when it is a subfolder of a tree already walked (its
    /// folders' paths then start with them). Files left out go to `skippedFile`, on the
    /// walk's thread, as they are met.
    public static func start(
        uri: String, under path: [String] = [],
        skippedFile: @escaping @Sendable (TreeFolder, SkippedEntry) -> Void = { _, _ in }
    ) -> TreeWalkRun {
        start(FolderTreeWalk(uri: uri), under: path, skippedFile: skippedFile)
    }

    /// Runs `walk` on a new thread (a folder's tree, or a web album's list).
    public static func start(
        _ walk: any TreeWalking, under path: [String] = [],
        skippedFile: @escaping @Sendable (TreeFolder, SkippedEntry) -> Void = { _, _ in }
    ) -> TreeWalkRun {
        let run = TreeWalkRun(walk)
        let place: @Sendable (TreeFolder) -> TreeFolder = { path.isEmpty ? $0 : TreeFolder(uri: $0.uri, path: path + $0.path) }
        // A job of the window that takes the run, held until the thread ends (`holdWhileRunning`).
        Thread.detachNewThread {
            lowerThisThreadsPriority()
            let end = run.walk.run(
                interval: 0.1, maximumInterval: 1.0,
                deliver: { batches in
                    run.post { found, deliveries in
                        let placed = batches.map { FolderPhotos(folder: place($0.folder), photos: $0.photos) }
                        deliveries.append(placed)
                    }
                },
                found: { folder in run.post { found, _ in found.folders.append(place(folder)) } },
                skipFolder: { skipped in
                    run.post { found, _ in
                        found.leftOut.append(SkippedFolder(folder: place(skipped.folder), reason: skipped.reason, message: skipped.message))
                    }
                },
                skip: { folder, entry in skippedFile(place(folder), entry) }
            )
            stopIfAsked()
            run.post { _, _ in run.end = end }
            run.threadEnded()
        }
        return run
    }

    /// Keeps `objects` (a window's job) until the walk's thread has ended: at once released
    /// if it has.
    public func holdWhileRunning(_ objects: [any AnyObject & Sendable]) {
        let ended = lock.withLock {
            if !hasThreadEnded { held += objects }
            return hasThreadEnded
        }
        if ended { withExtendedLifetime(objects) {} }
    }

    private func threadEnded() {
        let released = lock.withLock {
            hasThreadEnded = true
            defer { held.removeAll() }
            return held
        }
        withExtendedLifetime(released) {}
    }

    private init(_ walk: any TreeWalking) {
        self.walk = walk
        started = Int64(Date().timeIntervalSince1970 * 1_000_000)
    }

    /// When the walk started, in microseconds since 1970: whatever changed in a folder later
    /// may have changed after the walk read it.
    public let started: Int64

    /// Stops the walk; it delivers nothing more.
    public func cancel() { walk.cancel() }

    public var isCancelled: Bool { walk.isCancelled }

    /// Everything waiting (`firstDeliveryOnly`: the photos of the first delivery waiting
    /// only, the rest left for the next take), and how the walk ended once it has and
    /// nothing is left.
    public func take(firstDeliveryOnly: Bool = false) -> Found {
        lock.lock()
        var taken = waiting
        waiting = Found()
        let count = firstDeliveryOnly ? min(1, deliveries.count) : deliveries.count
        taken.photos = deliveries.prefix(count).flatMap { $0 }
        deliveries.removeFirst(count)
        if deliveries.isEmpty {
            taken.end = end
            end = nil
        }
        // Something left (the deliveries after the first): the one adopting is woken again.
        let call = wake != nil && hasWaiting
        wakeAsked = call
        let wake = self.wake
        lock.unlock()
        if call { wake?() }
        return taken
    }

    /// From now on, calls `wake` (on the walk's thread) when something is waiting that
    /// `wake` was not yet called for: at once if something already is. The one adopting
    /// takes what waits each time (`take`).
    public func adopt(wake: @escaping @Sendable () -> Void) {
        lock.lock()
        self.wake = wake
        let call = hasWaiting && !wakeAsked
        if call { wakeAsked = true }
        lock.unlock()
        if call { wake() }
    }

    private var hasWaiting: Bool { !waiting.isEmpty || !deliveries.isEmpty || end != nil }

    /// Whether the walk has ended and its end waits to be taken (for tests, which wait for it).
    var hasEnded: Bool { lock.withLock { end != nil } }

    /// Records something found (on the walk's thread) and wakes the one adopting the run
    /// if it is not already asked to take.
    private func post(_ record: (inout Found, inout [[FolderPhotos]]) -> Void) {
        lock.lock()
        record(&waiting, &deliveries)
        let call = wake != nil && !wakeAsked
        if call { wakeAsked = true }
        let wake = self.wake
        lock.unlock()
        if call { wake?() }
    }

    // MARK: Started at launch

    private nonisolated(unsafe) static var prestarted: [String: TreeWalkRun] = [:]
    private static let prestartedLock = NSLock()
    /// How long a walk started at launch waits to be claimed before it is stopped.
    static let claimDeadline: Double = 20

    /// Starts walking the tree at `uri` now, for the window that will open it (`claim`);
    /// stopped if no window claims it within 20 s.
    public static func prestart(uri: String, skippedFile: @escaping @Sendable (TreeFolder, SkippedEntry) -> Void = { _, _ in }) {
        if Trace.tilesEnabled { Trace.milestone("walk-prestarted", text: uri) }
        let run = start(uri: uri, skippedFile: skippedFile)
        prestartedLock.lock()
        prestarted[uri]?.cancel()
        prestarted[uri] = run
        prestartedLock.unlock()
        // Not a window's job: the launch's walk waits for the window that claims it.
        DispatchQueue.global().asyncAfter(deadline: .now() + claimDeadline) {
            prestartedLock.lock()
            let unclaimed = prestarted[uri] === run
            if unclaimed { prestarted[uri] = nil }
            prestartedLock.unlock()
            if unclaimed { run.cancel() }
        }
    }

    /// The walk of `uri` started at launch, if there is one nobody has claimed.
    public static func claim(uri: String) -> TreeWalkRun? {
        prestartedLock.lock()
        defer { prestartedLock.unlock() }
        return prestarted.removeValue(forKey: uri)
    }
}

/// Stops the whole process (SIGSTOP) when tracing is on and `GPHOTOBROWSE_STOP_AFTER_WALK`
/// is set, once a walk has read everything and before the main thread hears that it ended:
/// what a machine too busy to run the main thread for a while does, made certain for the
/// tests of what changes on disk meanwhile. A test continues the process (SIGCONT). Only the first walk
/// to end stops it, after `trace walk-stopped MS`.
private func stopIfAsked() {
    guard Trace.isEnabled, getenv("GPHOTOBROWSE_STOP_AFTER_WALK") != nil, stopAfterWalk.withLock({ asked in
        defer { asked = false }
        return asked
    }) else { return }
    Trace.milestone("walk-stopped")
    kill(getpid(), SIGSTOP)
}

private let stopAfterWalk = Mutex(true)

/// Makes the calling thread yield the processor to the window's own threads and the
/// decoders: a walk is work in the background, and on two cores a 100,000-photo listing
/// took the processor from GTK's start-up and from the first screen's thumbnails. Linux
/// keeps a nice value per thread (`who` 0 is the calling thread); one that cannot be set
/// leaves the thread as it was.
func lowerThisThreadsPriority() {
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
}
