import PhotoCore
import Testing

/// `isDue` mutates, which `#expect` cannot do itself.
private func due(_ failures: inout TransientFailures<String>, _ key: String, _ now: Double) -> Bool {
    failures.isDue(key, at: now)
}

@Suite struct TransientFailuresTests {
    @Test func aFailureThatMayNotLastIsDueOnceAfterTheDelay() {
        var failures = TransientFailures<String>(delay: 10)
        failures.finished("a.jpg", failure: DecodeFailure(.timedOut, "Decoding took too long."), at: 100)
        #expect(!due(&failures, "a.jpg", 100))
        #expect(!due(&failures, "a.jpg", 109.9))
        #expect(due(&failures, "a.jpg", 110))
        #expect(!due(&failures, "a.jpg", 200), "forgotten once due: asked for again once")
        #expect(failures.count == 0)
    }

    @Test(arguments: [DecodeFailure.Kind.timedOut, .unreadable])
    func failuresOfTheMomentAreTriedAgain(kind: DecodeFailure.Kind) {
        var failures = TransientFailures<String>(delay: 1)
        failures.finished("a.jpg", failure: DecodeFailure(kind, "…"), at: 0)
        #expect(due(&failures, "a.jpg", 1))
    }

    @Test(arguments: [DecodeFailure.Kind.notAnImage, .corrupt, .tooLarge, .unsafe])
    func lastingFailuresAreKept(kind: DecodeFailure.Kind) {
        var failures = TransientFailures<String>(delay: 1)
        failures.finished("a.jpg", failure: DecodeFailure(kind, "…"), at: 0)
        #expect(!due(&failures, "a.jpg", 1_000_000))
        #expect(failures.count == 0)
    }

    @Test func anImageOrAForgottenKeyIsNeverDue() {
        var failures = TransientFailures<String>(delay: 1)
        failures.finished("a.jpg", failure: DecodeFailure(.timedOut, "…"), at: 0)
        failures.finished("a.jpg", failure: nil, at: 0.5)  // asked again early, and decoded
        #expect(!due(&failures, "a.jpg", 5))
        failures.finished("b.jpg", failure: DecodeFailure(.timedOut, "…"), at: 0)
        failures.forget("b.jpg")
        #expect(!due(&failures, "b.jpg", 5))
        #expect(!due(&failures, "never.jpg", 5))
    }
}
