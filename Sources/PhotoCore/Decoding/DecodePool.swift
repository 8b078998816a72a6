import Dispatch
import Foundation
import Synchronization

/// A fixed set of worker threads that run decode jobs, most wanted first.
///
/// Jobs carry a priority; among equal priorities the newest runs first, because the tile
/// bound last is the one the person scrolled to. A cancelled job that has not started is
/// dropped without running; one that is running sees its `CancellationFlag` set and
/// stops at its next check.
///
/// Jobs may name a lane (downloads: the server they wait on); with `perLane`, at most that
/// many jobs of one lane run at once, and a job of a full lane waits while jobs of other
/// lanes run, so one slow server holds `perLane` workers at most.
public final class DecodePool: Sendable {
    /// Identifies a submitted job, for cancelling it.
    public struct Ticket: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Job: Sendable {
        let id: UInt64
        let priority: Int
        let lane: String?
        let flag: CancellationFlag
        let work: @Sendable (CancellationFlag) -> Void
    }

    private struct State: Sendable {
        var nextID: UInt64 = 1
        var pending: [Job] = []
        var running: [UInt64: CancellationFlag] = [:]
        var runningInLane: [String: Int] = [:]
    }

    private let state = Mutex(State())
    private let jobsAvailable = DispatchSemaphore(value: 0)
    public let workerCount: Int
    /// The most jobs of one lane that run at once; nil: no limit.
    public let perLane: Int?

    /// Starts `workers` threads (at least one), named `name-N`. They live as long as the process.
    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount, perLane: Int? = nil, name: String = "decode") {
        workerCount = max(1, workers)
        self.perLane = perLane.map { max(1, $0) }
        for n in 0..<workerCount {
            let thread = Thread { [self] in self.workLoop() }
            thread.name = "\(name)-\(n)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Queues `work`; higher `priority` runs sooner; `lane`: see the type's discussion.
    /// `flag`: the job's cancellation, when its owner holds it too (a window's jobs); a job
    /// whose flag is cancelled before it starts never runs.
    @discardableResult
    public func submit(priority: Int = 0, lane: String? = nil, flag: CancellationFlag = CancellationFlag(),
                       _ work: @escaping @Sendable (CancellationFlag) -> Void) -> Ticket {
        let ticket = state.withLock { state -> Ticket in
            let id = state.nextID
            state.nextID += 1
            state.pending.append(Job(id: id, priority: priority, lane: lane, flag: flag, work: work))
            return Ticket(id: id)
        }
        jobsAvailable.signal()
        return ticket
    }

    /// Drops a queued job, or tells a running one to stop. Returns true when the job had
    /// not started (so it will never run).
    @discardableResult
    public func cancel(_ ticket: Ticket) -> Bool {
        let (dropped, running) = state.withLock { state -> (Job?, CancellationFlag?) in
            if let i = state.pending.firstIndex(where: { $0.id == ticket.id }) {
                return (state.pending.remove(at: i), nil)
            }
            return (nil, state.running[ticket.id])
        }
        // Outside the lock: the flag's handlers (a GCancellable cancelled) and the dropped
        // job's release (its owner's deinit) may call back into the pool.
        running?.cancel()
        return withExtendedLifetime(dropped) { dropped != nil }
    }

    /// Jobs queued and not yet started.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    private func workLoop() {
        while true {
            jobsAvailable.wait()
            let job: Job? = state.withLock { state in
                var best: Int?
                for i in stride(from: state.pending.count - 1, through: 0, by: -1) {
                    let job = state.pending[i]
                    if let lane = job.lane, let perLane, state.runningInLane[lane, default: 0] >= perLane { continue }
                    if best == nil || job.priority > state.pending[best!].priority { best = i }
                }
                guard let best else { return nil }
                let job = state.pending.remove(at: best)
                state.running[job.id] = job.flag
                if let lane = job.lane { state.runningInLane[lane, default: 0] += 1 }
                return job
            }
            guard let job else { continue }
            if !job.flag.isCancelled { job.work(job.flag) }
            let waiting = state.withLock { state -> Bool in
                state.running.removeValue(forKey: job.id)
                if let lane = job.lane {
                    let left = state.runningInLane[lane, default: 1] - 1
                    state.runningInLane[lane] = left > 0 ? left : nil
                }
                return !state.pending.isEmpty
            }
            // A job of this lane may have waited for the place it leaves.
            if waiting && job.lane != nil { jobsAvailable.signal() }
        }
    }
}
