import Foundation
import PhotoCore
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
        private let live = LiveObjects.Token("Job")

        fileprivate init(id: UInt64, flag: CancellationFlag, owner: WindowJobs) {
            self.id = id
            self.flag = flag
            self.owner = owner
        }

        deinit { owner.ended(id) }
    }

    /// Registers a job; its flag is cancelled already when the window is closed.
    func begin() -> Job {
        let flag = CancellationFlag()
        let (id, closed) = state.withLock { state in
            state.next += 1
            if !state.isClosed { state.running[state.next] = flag }
            return (state.next, state.isClosed)
        }
        if closed { flag.cancel() }
        return Job(id: id, flag: flag, owner: self)
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

    /// Runs `work` on a thread of its own, as a job of the window.
    func detach(_ work: @escaping @Sendable (CancellationFlag) -> Void) {
        let job = begin()
        Thread.detachNewThread {
            work(job.flag)
            withExtendedLifetime(job) {}
        }
    }

    /// Runs `work` on the file actions' workers (a rename, a rotation saved, a copy, a photo
    /// made a background: a few at a time, not a thread each), as a job of the window. A job
    /// cancelled before it starts never runs.
    func perform(_ work: @escaping @Sendable (CancellationFlag) -> Void) {
        _ = submit(to: .fileActions, priority: 0, work)
    }

    /// Queues `work` on `pool` as a job of the window (registered while it waits and runs).
    func submit(to pool: DecodePool, priority: Int, lane: String? = nil,
                _ work: @escaping @Sendable (CancellationFlag) -> Void) -> QueuedWork {
        let job = begin()
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
}
