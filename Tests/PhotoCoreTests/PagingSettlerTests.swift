import PhotoCore
import Testing

@Suite struct PagingSettlerTests {
    @Test func isSettledBeforeAnyPage() {
        let settler = PagingSettler()
        #expect(settler.isSettled(at: 0))
        #expect(settler.settleTime == nil)
        #expect(settler.remainingDelay(at: 5) == 0)
        #expect(settler.delay == 0.15)
    }

    @Test func holdingAKeyNeverSettles() {
        var settler = PagingSettler(delay: 0.15)
        for page in 0..<200 {
            let time = 10 + Double(page) * 0.03
            settler.paged(at: time)
            #expect(!settler.isSettled(at: time))
            #expect(!settler.isSettled(at: time + 0.029))  // just before the next repeat
        }
    }

    @Test func stoppingSettlesDelayAfterTheLastPage() {
        var settler = PagingSettler(delay: 0.15)
        settler.paged(at: 1.0)
        settler.paged(at: 1.03)
        settler.paged(at: 1.06)
        #expect(settler.settleTime == 1.06 + 0.15)
        #expect(!settler.isSettled(at: 1.2))
        #expect(settler.isSettled(at: 1.06 + 0.15))
        #expect(settler.isSettled(at: 3))
    }

    @Test func aPageAfterSettlingStartsWaitingAgain() {
        var settler = PagingSettler(delay: 0.15)
        settler.paged(at: 1)
        #expect(settler.isSettled(at: 2))
        settler.paged(at: 2)
        #expect(!settler.isSettled(at: 2.1))
        #expect(settler.isSettled(at: 2.15))
    }

    @Test func remainingDelayIsWhatATimerWaits() {
        var settler = PagingSettler(delay: 0.25)
        settler.paged(at: 4)
        #expect(settler.remainingDelay(at: 4) == 0.25)
        #expect(settler.remainingDelay(at: 4.25) == 0)
        #expect(settler.remainingDelay(at: 9) == 0)
    }

    @Test func aZeroOrNegativeDelaySettlesAtOnce() {
        var settler = PagingSettler(delay: -1)
        #expect(settler.delay == 0)
        settler.paged(at: 3)
        #expect(settler.isSettled(at: 3))
    }
}
