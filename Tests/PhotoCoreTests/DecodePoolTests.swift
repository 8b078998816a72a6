import Dispatch
import Synchronization
import Testing
@testable import PhotoCore

/// Generous: only a hang should ever reach it.
private let deadline = DispatchTimeInterval.seconds(30)

/// A one-worker pool whose worker is held inside a job until `release()`, so jobs submitted
/// meanwhile queue up and run in the pool's own order afterwards.
private final class BlockedPool: Sendable {
    let pool = DecodePool(workers: 1)
    private let gate = DispatchSemaphore(value: 0)

    init() {
        let started = DispatchSemaphore(value: 0)
        pool.submit(priority: .max) { [gate] _ in
            started.signal()
            gate.wait()
        }
        _ = started.wait(timeout: .now() + deadline)
    }

    func release() { gate.signal() }
}

@Suite struct DecodePoolTests {
    @Test func everySubmittedJobRuns() {
        let pool = DecodePool(workers: 4)
        let ran = Mutex(Set<Int>())
        let group = DispatchGroup()
        for i in 0..<500 {
            group.enter()
            pool.submit(priority: i % 3) { _ in
                ran.withLock { _ = $0.insert(i) }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + deadline) == .success)
        #expect(ran.withLock { $0 } == Set(0..<500))
    }

    @Test func higherPriorityRunsFirstAndNewestFirstAmongEquals() {
        let blocked = BlockedPool()
        let order = Mutex<[String]>([])
        let group = DispatchGroup()
        for (name, priority) in [("low", 0), ("high-old", 5), ("mid", 1), ("high-new", 5), ("higher", 7), ("mid-new", 1)] {
            group.enter()
            blocked.pool.submit(priority: priority) { _ in
                order.withLock { $0.append(name) }
                group.leave()
            }
        }
        #expect(blocked.pool.pendingCount == 6)
        blocked.release()
        #expect(group.wait(timeout: .now() + deadline) == .success)
        #expect(order.withLock { $0 } == ["higher", "high-new", "high-old", "mid-new", "mid", "low"])
    }

    /// A lane whose jobs never finish (a server that trickles) holds `perLane` workers; the
    /// other lane's jobs, queued after them at lower priority, all run meanwhile.
    @Test func aStuckLaneHoldsOnlyItsShareOfWorkers() {
        let pool = DecodePool(workers: 6, perLane: 2)
        let gate = DispatchSemaphore(value: 0)
        let slowStarted = Mutex(0)
        let slow = DispatchGroup()
        for _ in 0..<30 {
            slow.enter()
            pool.submit(priority: 10, lane: "slow.example") { _ in
                slowStarted.withLock { $0 += 1 }
                gate.wait()
                slow.leave()
            }
        }
        let quick = DispatchGroup()
        for _ in 0..<6 {
            quick.enter()
            pool.submit(priority: 0, lane: "quick.example") { _ in quick.leave() }
        }
        #expect(quick.wait(timeout: .now() + deadline) == .success)
        #expect(slowStarted.withLock { $0 } == 2)
        // Once the slow lane moves, its jobs run too.
        for _ in 0..<30 { gate.signal() }
        #expect(slow.wait(timeout: .now() + deadline) == .success)
        #expect(slowStarted.withLock { $0 } == 30)
    }

    @Test func cancellingAQueuedJobKeepsItFromRunning() {
        let blocked = BlockedPool()
        let ran = Mutex(false)
        let ticket = blocked.pool.submit(priority: 10) { _ in ran.withLock { $0 = true } }
        let done = DispatchSemaphore(value: 0)
        // Queued behind everything else, so once it has run, the cancelled job would have too.
        blocked.pool.submit(priority: .min) { _ in done.signal() }

        #expect(blocked.pool.cancel(ticket) == true)
        #expect(blocked.pool.pendingCount == 1)
        blocked.release()
        #expect(done.wait(timeout: .now() + deadline) == .success)
        #expect(ran.withLock { $0 } == false)
    }

    @Test func cancellingARunningJobSetsTheFlagItSees() {
        let pool = DecodePool(workers: 1)
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let sawCancel = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let ticket = pool.submit { flag in
            let before = flag.isCancelled
            started.signal()
            proceed.wait()
            sawCancel.withLock { $0 = !before && flag.isCancelled }
            done.signal()
        }
        #expect(started.wait(timeout: .now() + deadline) == .success)
        #expect(pool.cancel(ticket) == false)
        proceed.signal()
        #expect(done.wait(timeout: .now() + deadline) == .success)
        #expect(sawCancel.withLock { $0 } == true)
    }

    @Test func cancellingAFinishedJobIsHarmless() {
        let pool = DecodePool(workers: 1)
        let done = DispatchSemaphore(value: 0)
        let ticket = pool.submit { _ in done.signal() }
        #expect(done.wait(timeout: .now() + deadline) == .success)
        #expect(pool.cancel(ticket) == false)
        let again = DispatchSemaphore(value: 0)
        pool.submit { _ in again.signal() }
        #expect(again.wait(timeout: .now() + deadline) == .success)
    }

    @Test func aJobWhoseOwnFlagIsCancelledBeforeItStartsNeverRuns() {
        let pool = DecodePool(workers: 1)
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        pool.submit { _ in
            started.signal()
            gate.wait()
        }
        #expect(started.wait(timeout: .now() + deadline) == .success)
        let flag = CancellationFlag()
        let ran = Mutex(false)
        pool.submit(flag: flag) { _ in ran.withLock { $0 = true } }
        let after = DispatchSemaphore(value: 0)
        pool.submit(priority: -1) { _ in after.signal() }
        flag.cancel()
        gate.signal()
        #expect(after.wait(timeout: .now() + deadline) == .success)
        #expect(ran.withLock { $0 } == false)
    }

    @Test func workerCountIsAtLeastOne() {
        #expect(DecodePool(workers: 0).workerCount == 1)
        #expect(DecodePool(workers: 3).workerCount == 3)
    }
}
