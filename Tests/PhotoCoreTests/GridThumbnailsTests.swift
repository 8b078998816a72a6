import PhotoCore
import Testing

/// The grid's thumbnails as the app's `ThumbnailLoader` keeps them: requests shared and
/// cancelled, results nobody waits for dropped, previews, and failures that pass.
@Suite struct GridThumbnailsTests {
    typealias Thumbnails = GridThumbnails<String, Int, String>

    @Test func holdersShareOneRequestAndTheLastToLetGoCancelsIt() {
        var thumbnails = Thumbnails(cacheLimit: 1000)
        let checked11 = !thumbnails.join("a")
        #expect(checked11)
        thumbnails.started("a", ticket: 1)
        let checked13 = thumbnails.join("a")
        #expect(checked13)
        #expect(thumbnails.release("a") == nil)
        #expect(thumbnails.release("a") == 1)
        #expect(!thumbnails.isPending("a"))
        // Its result, arriving after all, is dropped: not kept, nobody told.
        let checked18 = !thumbnails.finished("a", thumbnail: "A", bytes: 10, failure: nil, at: 0)
        #expect(checked18)
        #expect(thumbnails.cached("a", at: 0) == nil)
    }

    @Test func aResultIsKeptWithinTheBudgetTheOldestUseGoingFirst() {
        var thumbnails = Thumbnails(cacheLimit: 20)
        for key in ["a", "b", "c"] {
            _ = thumbnails.join(key)
            thumbnails.started(key, ticket: 0)
        }
        let checked28 = thumbnails.finished("a", thumbnail: "A", bytes: 10, failure: nil, at: 0)
        #expect(checked28)
        let checked29 = thumbnails.finished("b", thumbnail: "B", bytes: 10, failure: nil, at: 0)
        #expect(checked29)
        #expect(thumbnails.cached("a", at: 0) == "A")  // a used: b is the oldest now
        let checked31 = thumbnails.finished("c", thumbnail: "C", bytes: 10, failure: nil, at: 0)
        #expect(checked31)
        #expect(thumbnails.isCached("a", at: 0) && !thumbnails.isCached("b", at: 0) && thumbnails.isCached("c", at: 0))
        #expect(thumbnails.pendingCount == 0)
    }

    @Test func aPreviewCountsOnlyWhileItsRequestIsUnderWayAndGoesWithTheThumbnail() {
        var thumbnails = Thumbnails(cacheLimit: 1000)
        _ = thumbnails.join("a")
        thumbnails.started("a", ticket: 1)
        let checked40 = thumbnails.previewArrived("a-preview", bytes: 5, for: "a")
        #expect(checked40)
        #expect(thumbnails.preview("a") == "a-preview")
        let checked42 = thumbnails.continued("a", ticket: 2)
        #expect(checked42)
        #expect(thumbnails.release("a") == 2)  // the whole file's work is what gets cancelled
        let checked44 = !thumbnails.previewArrived("late", bytes: 5, for: "a")
        #expect(checked44)
        let checked45 = !thumbnails.continued("a", ticket: 3)
        #expect(checked45)

        _ = thumbnails.join("b")
        thumbnails.started("b", ticket: 4)
        let checked49 = thumbnails.previewArrived(nil, bytes: 0, for: "b")  // none in the file: go on
        #expect(checked49)
        #expect(thumbnails.preview("b") == nil)
        let checked51 = thumbnails.previewArrived("b-preview", bytes: 5, for: "b")
        #expect(checked51)
        let checked52 = thumbnails.finished("b", thumbnail: "B", bytes: 5, failure: nil, at: 0)
        #expect(checked52)
        #expect(thumbnails.preview("b") == nil)
    }

    @Test func aFailureThatMayPassIsForgottenInTimeALastingOneIsKept() {
        var thumbnails = Thumbnails(cacheLimit: 1000, failureDelay: 10)
        for key in ["slow", "broken"] {
            _ = thumbnails.join(key)
            thumbnails.started(key, ticket: 0)
        }
        let checked62 = thumbnails.finished("slow", thumbnail: "timed out", bytes: 1, failure: DecodeFailure(.timedOut, "…"), at: 100)
        #expect(checked62)
        let checked63 = thumbnails.finished("broken", thumbnail: "corrupt", bytes: 1, failure: DecodeFailure(.corrupt, "…"), at: 100)
        #expect(checked63)
        let checked64 = thumbnails.isCached("slow", at: 109)
        #expect(checked64)
        let checked65 = !thumbnails.isCached("slow", at: 110)
        #expect(checked65)
        #expect(thumbnails.cached("broken", at: 1000) == "corrupt")
    }

    @Test func passingFailuresAreForgottenAllAtOnceWhenDecodingIsBack() {
        var thumbnails = Thumbnails(cacheLimit: 1000)
        for key in ["a", "b", "c"] {
            _ = thumbnails.join(key)
            thumbnails.started(key, ticket: 0)
        }
        _ = thumbnails.finished("a", thumbnail: "-", bytes: 1, failure: DecodeFailure(.unavailable, "…"), at: 0)
        _ = thumbnails.finished("b", thumbnail: "-", bytes: 1, failure: DecodeFailure(.unreadable, "…"), at: 0)
        _ = thumbnails.finished("c", thumbnail: "C", bytes: 1, failure: nil, at: 0)
        #expect(thumbnails.forgetPassingFailures() == ["a", "b"])
        #expect(!thumbnails.isCached("a", at: 0) && !thumbnails.isCached("b", at: 0) && thumbnails.isCached("c", at: 0))
        #expect(thumbnails.forgetPassingFailures().isEmpty)
    }

    @Test func aFailurePushedOutOfMemoryIsNoLongerTimed() {
        var thumbnails = Thumbnails(cacheLimit: 10)
        _ = thumbnails.join("a")
        thumbnails.started("a", ticket: 0)
        _ = thumbnails.finished("a", thumbnail: "-", bytes: 10, failure: DecodeFailure(.timedOut, "…"), at: 0)
        _ = thumbnails.join("b")
        thumbnails.started("b", ticket: 0)
        _ = thumbnails.finished("b", thumbnail: "B", bytes: 10, failure: nil, at: 0)
        // a left memory: nothing left to forget for it.
        #expect(thumbnails.forgetPassingFailures().isEmpty)
    }

    @Test func closingTheFolderCancelsEveryRequest() {
        var thumbnails = Thumbnails(cacheLimit: 1000)
        for (key, ticket) in [("a", 1), ("b", 2)] {
            _ = thumbnails.join(key)
            thumbnails.started(key, ticket: ticket)
        }
        #expect(thumbnails.cancelAll().sorted() == [1, 2])
        #expect(!thumbnails.isPending("a") && thumbnails.pendingCount == 0)
    }
}
