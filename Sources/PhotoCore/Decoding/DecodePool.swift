import Dispatch
import Foundation
import Synchronization

/// A fixed set of worker threads that run decode jobs, most wanted first.
///
/// Jobs carry a priority; among equal priorities the newest runs first, because the tile
/// bound last is the one the person scrolled to. A cancelled job that has not started is
/// dropped without running; one that is running sees its `CancellationFlag` set and
/// stops at its next check.
public final class DecodePool: Sendable {
    /// Identifies a submitted job, for cancelling it.
    public struct Ticket: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Job: Sendable {
        let id: UInt64
        let priority: Int
        let flag: CancellationFlag
        let work: @Sendable (CancellationFlag) -> Void
    }

    private struct State: Sendable {
        var nextID: UInt64 = 1
        var pending: [Job] = []
        var running: [UInt64: CancellationFlag] = [:]
    }

    private let state = Mutex(State())
    private let jobsAvailable = DispatchSemaphore(value: 0)
    public let workerCount: Int

    /// Starts `workers` threads (at least one). They live as long as the process.
    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        workerCount = max(1, workers)
        for n in 0..<workerCount {
            let thread = Thread { [self] in self.workLoop() }
            thread.name = "decode-\(n)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Queues `work`; higher `priority` runs sooner.
    @discardableResult
    public func submit(priority: Int = 0, _ work: @escaping @Sendable (CancellationFlag) -> Void) -> Ticket {
        let ticket = state.withLock { state -> Ticket in
            let id = state.nextID
            state.nextID += 1
            state.pending.append(Job(id: id, priority: priority, flag: CancellationFlag(), work: work))
            return Ticket(id: id)
        }
        jobsAvailable.signal()
        return ticket
    }

    /// Drops a queued job, or tells a running one to stop. Returns true when the job had
    /// not started (so it will never run).
    @discardableResult
    public func cancel(_ ticket: Ticket) -> Bool {
        state.withLock { state in
            if let i = state.pending.firstIndex(where: { $0.id == ticket.id }) {
                state.pending.remove(at: i)
                return true
            }
            state.running[ticket.id]?.cancel()
            return false
        }
    }

    /// Jobs queued and not yet started.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    private func workLoop() {
        while true {
            jobsAvailable.wait()
            let job: Job? = state.withLock { state in
                guard !state.pending.isEmpty else { return nil }
                var best = state.pending.count - 1
                for i in stride(from: state.pending.count - 2, through: 0, by: -1)
                where state.pending[i].priority > state.pending[best].priority {
                    best = i
                }
                let job = state.pending.remove(at: best)
                state.running[job.id] = job.flag
                return job
            }
            guard let job else { continue }
            job.work(job.flag)
            _ = state.withLock { $0.running.removeValue(forKey: job.id) }
        }
    }
}
