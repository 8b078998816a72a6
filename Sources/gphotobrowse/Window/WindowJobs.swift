import Foundation
import PhotoCore
import PhotoIO
import Synchronization

/// The work a window started off the main thread: worker threads, decodes and downloads on
/// the pools, reads from other machines, prints and saves. Each job is registered here with
/// the flag that cancels it and holds its `Job` while it is queued or runs; closing the
/// window cancels every job still registered (and any begun after), so none outlives the
/// window past its next check of the flag, and none waits on GIO past the GCancellable the
/// flag cancels (`GIOCancellable`).
///
/// A job ends when its `Job` goes: the closure holding it returned, or was dropped unrun.
/// `live Job N` (the live-objects trace) counts the jobs of every window.
final class WindowJobs: Sendable {
    private struct State {
        var next: UInt64 = 0
        var running: [UInt64: CancellationFlag] = [:]
        var isClosed = false
    }
    private let state = Mutex(State())

    /// One job: registered from `begin` until it goes.
    final class Job: Sendable {
        let flag: CancellationFlag
        private let id: UInt64
        private let owner: WindowJobs
        /// The scope's cancellation passed on to the job's flag, while the job lasts.
        private let scoped: CancellationHandler?
        private let live = LiveObjects.Token("Job")

        fileprivate init(id: UInt64, flag: CancellationFlag, owner: WindowJobs, scoped: CancellationHandler?) {
            self.id = id
            self.flag = flag
            self.owner = owner
            self.scoped = scoped
        }

        deinit { owner.ended(id) }
    }

    /// Registers a job; its flag is cancelled already when the window is closed. `scope`:
    /// what else ends the job (the folder left, the page let go, a newer search): its
    /// cancellation cancels the job's flag too.
    func begin(within scope: CancellationFlag? = nil) -> Job {
        let flag = CancellationFlag()
        let scoped = scope?.whenCancelled { flag.cancel() }
        let (id, closed) = state.withLock { state in
            state.next += 1
            if !state.isClosed { state.running[state.next] = flag }
            return (state.next, state.isClosed)
        }
        if closed { flag.cancel() }
        return Job(id: id, flag: flag, owner: self, scoped: scoped)
    }

    private func ended(_ id: UInt64) {
        _ = state.withLock { $0.running.removeValue(forKey: id) }
    }

    /// Jobs registered and not ended.
    var count: Int { state.withLock { $0.running.count } }

    /// Cancels every job, and every job begun from now on (the window is closing).
    func cancelAll() {
        let flags = state.withLock { state in
            state.isClosed = true
            return Array(state.running.values)
        }
        for flag in flags { flag.cancel() }
    }

    /// Runs `work` on `pool` (the windows' workers unless said: the drawing board's files,
    /// printing, the trash, exports, a Live Photo's movie; a few at a time, not a thread
    /// each), as a job of the window that `scope` also cancels. Unlike `submit`'s, `work`
    /// runs even when cancelled before its turn (with its flag cancelled, to return at once),
    /// so what it reports back (a page drawn, a progress ended) is always reported. Jobs of
    /// a pool run in the order they were asked for.
    func run(on pool: DecodePool = .windowWork, within scope: CancellationFlag? = nil,
             _ work: @escaping @Sendable (CancellationFlag) -> Void) {
        let job = begin(within: scope)
        let order = Self.asked.wrappingAdd(1, ordering: .relaxed).newValue
        pool.submit(priority: -order) { _ in
            work(job.flag)
            withExtendedLifetime(job) {}
        }
    }
    private static let asked = Atomic<Int>(0)

    /// Runs `work` on the file actions' workers (a rename, a rotation saved, a copy, a photo
    /// made a background: a few at a time, not a thread each), as a job of the window. A job
    /// cancelled before it starts never runs.
    func perform(_ work: @escaping @Sendable (CancellationFlag) -> Void) {
        _ = submit(to: .fileActions, priority: 0, work)
    }

    /// Runs `work` on the look-up workers (what a location is, what a folder's monitor
    /// reported, photos put back: a few at a time, at most two on one server), as a job of
    /// the window that `scope` also cancels. `uri`: where it looks, for its server's lane.
    func lookUp(_ uri: String, within scope: CancellationFlag? = nil, _ work: @escaping @Sendable (CancellationFlag) -> Void) {
        let lane = uri.hasPrefix("file:") ? nil : DecodePool.downloadLane(of: uri)
        _ = submit(to: .lookups, priority: 0, lane: lane, within: scope, work)
    }

    /// Queues `work` on `pool` as a job of the window (registered while it waits and runs),
    /// that `scope` also cancels.
    func submit(to pool: DecodePool, priority: Int, lane: String? = nil, within scope: CancellationFlag? = nil,
                _ work: @escaping @Sendable (CancellationFlag) -> Void) -> QueuedWork {
        let job = begin(within: scope)
        let ticket = pool.submit(priority: priority, lane: lane, flag: job.flag) { flag in
            work(flag)
            withExtendedLifetime(job) {}
        }
        return QueuedWork(pool: pool, ticket: ticket)
    }
}

extension DecodePool {
    /// The windows' file actions: renames, rotations saved, copies saved, backgrounds set.
    static let fileActions = DecodePool(workers: 2, name: "file-action")
    /// The windows' look-ups: locations to open, folder monitors' changes, photos put back.
    static let lookups = DecodePool(workers: 4, perLane: 2, name: "look-up")
    /// The windows' searches, one at a time (each matches a whole album).
    static let searches = DecodePool(workers: 1, name: "search")
    /// The windows' longer work (`WindowJobs.run`): exports, the trash, printing, the
    /// drawing board's files, a Live Photo's movie.
    static let windowWork = DecodePool(workers: 3, name: "window-work")
    /// The dates taken the windows' albums lack, an album's at a time.
    static let dateReads = DecodePool(workers: 2, name: "date-read")
    /// The properties panels' reads, a photo at a time, one at a time on a server.
    static let details = DecodePool(workers: 2, perLane: 1, name: "details")
}
