import Dispatch
import PhotoCore
import Synchronization
import Testing

@Suite struct CancellationFlagTests {
    @Test func aWaitingHandlerRunsOnceWhenCancelled() {
        let flag = CancellationFlag()
        let runs = Mutex(0)
        let registration = flag.whenCancelled { runs.withLock { $0 += 1 } }
        #expect(runs.withLock { $0 } == 0)
        flag.cancel()
        flag.cancel()
        #expect(runs.withLock { $0 } == 1)
        #expect(flag.waitingHandlers == 0)
        withExtendedLifetime(registration) {}
    }

    @Test func aFlagCancelledAlreadyRunsTheHandlerAtOnce() {
        let flag = CancellationFlag()
        flag.cancel()
        let runs = Mutex(0)
        let registration = flag.whenCancelled { runs.withLock { $0 += 1 } }
        #expect(runs.withLock { $0 } == 1)
        #expect(flag.waitingHandlers == 0)
        withExtendedLifetime(registration) {}
    }

    @Test func aHandlerLetGoIsNotRun() {
        let flag = CancellationFlag()
        let runs = Mutex(0)
        var registration: CancellationHandler? = flag.whenCancelled { runs.withLock { $0 += 1 } }
        #expect(flag.waitingHandlers == 1)
        withExtendedLifetime(registration) {}
        registration = nil
        #expect(flag.waitingHandlers == 0)
        flag.cancel()
        #expect(runs.withLock { $0 } == 0)
    }

    @Test func everyHandlerRegisteredWhileCancellingRunsOnce() {
        for _ in 0..<200 {
            let flag = CancellationFlag()
            let runs = Mutex(0)
            let group = DispatchGroup()
            let registrations = Mutex<[CancellationHandler]>([])
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    let handler = flag.whenCancelled { runs.withLock { $0 += 1 } }
                    registrations.withLock { $0.append(handler) }
                }
            }
            DispatchQueue.global().async(group: group) { flag.cancel() }
            group.wait()
            #expect(runs.withLock { $0 } == 4)
        }
    }
}
