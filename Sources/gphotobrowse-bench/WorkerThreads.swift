import Foundation

/// Calls `body` once for each index below `count`, on `workers` threads (one per core unless
/// told), each thread taking the next index not taken yet; returns how many calls failed
/// (returned false).
@discardableResult
func forEachIndex(below count: Int, workers: Int = ProcessInfo.processInfo.activeProcessorCount, _ body: @Sendable (Int) -> Bool) -> Int {
    let next = Counter(), failed = Counter()
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            let index = next.increment() - 1
            guard index < count else { return }
            if !body(index) { _ = failed.increment() }
        }
    }
    return failed.value
}

/// A counter shared by worker threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// Adds one and returns the new value.
    func increment() -> Int { lock.withLock { count += 1; return count } }
    var value: Int { lock.withLock { count } }
}
