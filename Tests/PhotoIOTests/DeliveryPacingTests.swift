import Testing
@testable import PhotoIO

/// When batches go out: a listing's first at once, then waits doubling up to a most; a
/// reading of dates that counts its start as a delivery waits from the start.
struct DeliveryPacingTests {
    @Test func theFirstGoesAtOnceAndTheWaitsDoubleUpToTheMost() {
        var pacing = DeliveryPacing(interval: 1, maximumInterval: 4)
        #expect(pacing.isDue(now: 100))
        pacing.delivered(now: 100)
        #expect(!pacing.isDue(now: 100.9))
        #expect(pacing.isDue(now: 101))
        pacing.delivered(now: 101)
        #expect(!pacing.isDue(now: 102.9))
        #expect(pacing.isDue(now: 103))
        pacing.delivered(now: 103)
        #expect(!pacing.isDue(now: 106.9))
        #expect(pacing.isDue(now: 107))
        pacing.delivered(now: 107)
        // No longer than the most.
        #expect(pacing.isDue(now: 111))
    }

    @Test func aStartCountedAsADeliveryMakesTheFirstWait() {
        var pacing = DeliveryPacing(interval: 1, maximumInterval: 4)
        pacing.delivered(now: 0)
        #expect(!pacing.isDue(now: 0.5))
        #expect(pacing.isDue(now: 1))
    }

    @Test func anEndlessIntervalNeverFallsDue() {
        var pacing = DeliveryPacing(interval: .infinity, maximumInterval: .infinity)
        pacing.delivered(now: 0)
        #expect(!pacing.isDue(now: 1e12))
    }
}
