import Testing
@testable import PhotoCore

@Suite struct DecoderStartsTests {
    @Test func availableUntilAStartFails() {
        var starts = DecoderStarts()
        #expect(starts.availability == .available)
        let first = starts.beginStart(at: 0), second = starts.beginStart(at: 0)
        #expect(first && second, "while available, every request may start a process")
        let changed = starts.failed("no program", at: 0)
        #expect(changed)
        #expect(starts.availability == .unavailable(reason: "no program"))
    }

    @Test func theDelayDoublesUpToItsLimit() {
        let starts = DecoderStarts(firstDelay: 1, maxDelay: 60)
        #expect((0...8).map { starts.delay(afterFailures: $0) } == [0, 1, 2, 4, 8, 16, 32, 60, 60])
    }

    @Test func aFailedStartIsTriedAgainAfterTheDelayOnceAtATime() {
        var starts = DecoderStarts(firstDelay: 1, maxDelay: 60)
        starts.failed("fork failed", at: 10)
        var tries = [starts.beginStart(at: 10.5), starts.beginStart(at: 11), starts.beginStart(at: 11)]
        #expect(tries == [false, true, false], "not before the delay; then one caller, while the others wait")
        let changed = starts.failed("fork failed", at: 11)
        #expect(!changed, "unavailable already, for the same reason")
        tries = [starts.beginStart(at: 12.9), starts.beginStart(at: 13)]
        #expect(tries == [false, true], "the delay doubled")
    }

    @Test func aStartMakesDecodingAvailableAgain() {
        var starts = DecoderStarts()
        starts.failed("no memory", at: 0)
        starts.failed("no memory", at: 1)
        let began = starts.beginStart(at: 3)
        let changed = starts.started()
        #expect(began && changed)
        #expect(starts.availability == .available)
        #expect(starts.failures == 0)
        let again = starts.started()
        #expect(!again, "available already")
        starts.failed("no memory", at: 5)
        #expect(starts.nextTry == 6, "the delay starts over")
    }

    @Test func retryTriesAtOnce() {
        var starts = DecoderStarts(firstDelay: 1, maxDelay: 60)
        for second in 0..<7 { starts.failed("missing", at: Double(second)) }
        let before = starts.beginStart(at: 7)
        starts.retryNow(at: 7)
        let tries = [starts.beginStart(at: 7), starts.beginStart(at: 7)]
        #expect(!before)
        #expect(tries == [true, false])
    }

    @Test func anotherReasonIsNews() {
        var starts = DecoderStarts()
        let first = starts.failed("missing", at: 0), second = starts.failed("no memory", at: 1)
        #expect(first && second)
    }
}
