import PhotoCore
import Testing

/// The slideshow driven by explicit events, as the app feeds it: no clock, no waiting.
@Suite struct SlideshowModelTests {
    @Test func startsOnTheShownPhotoAndPreloadsTheNext() {
        var show = SlideshowModel(count: 4, current: 1, interval: 3, ending: .loop)
        #expect(show.phase == .ready)
        #expect(show.start() == [.show(1), .startTimer(seconds: 3), .preload(2)])
        #expect(show.phase == .playing)
        #expect(show.start() == [], "starting twice does nothing")
    }

    @Test func advancesOnTheTickWhenTheNextPhotoIsDecoded() {
        var show = SlideshowModel(count: 3, current: 0, interval: 5, ending: .stop)
        _ = show.start()
        #expect(show.imageReady(1) == [], "ready before its turn: nothing yet")
        #expect(show.tick() == [.show(1), .startTimer(seconds: 5), .preload(2)])
        #expect(show.current == 1)
    }

    @Test func aVideoShowsForItsLengthFromItsFirstFrame() {
        var show = SlideshowModel(count: 3, current: 0, interval: 2, ending: .stop)
        _ = show.start()
        _ = show.imageReady(1)
        #expect(show.tick() == [.show(1), .startTimer(seconds: 2), .preload(2)])
        #expect(show.movieStarted(1, seconds: 7) == [.startTimer(seconds: 7)], "a whole length from its first frame")
        #expect(show.movieStarted(0, seconds: 7) == [], "not the photo shown")
        var short = show
        #expect(short.movieStarted(1, seconds: 1) == [.startTimer(seconds: 2)], "at least an interval")
        var unknown = show
        #expect(unknown.movieStarted(1, seconds: 0) == [.stopTimer], "its length not known: its end decides")
        #expect(unknown.imageReady(2) == [])
        #expect(unknown.movieEnded(1) == [.show(2), .startTimer(seconds: 2)])
        #expect(show.movieEnded(1) == [], "its length known: the timer decides")
        _ = show.togglePause()
        #expect(show.movieStarted(1, seconds: 7) == [], "paused: the slideshow waits for Space")
    }

    @Test func waitsForTheNextPhotoWhenTheIntervalRunsOutFirst() {
        var show = SlideshowModel(count: 3, current: 0, interval: 5, ending: .stop)
        _ = show.start()
        #expect(show.tick() == [])
        #expect(show.phase == .waitingForNext)
        #expect(show.current == 0, "the photo shown stays until the next one is decoded")
        #expect(show.tick() == [], "a stray tick while waiting changes nothing")
        #expect(show.imageReady(1) == [.show(1), .startTimer(seconds: 5), .preload(2)])
        #expect(show.phase == .playing)
    }

    @Test func ignoresImagesOfOtherPhotos() {
        var show = SlideshowModel(count: 5, current: 2, interval: 2, ending: .loop)
        _ = show.start()
        #expect(show.imageReady(1) == [])
        #expect(show.imageReady(4) == [])
        #expect(show.tick() == [], "photo 3 is not decoded: still waiting")
        #expect(show.phase == .waitingForNext)
    }

    @Test func loopsFromTheLastPhotoToTheFirst() {
        var show = SlideshowModel(count: 3, current: 2, interval: 2, ending: .loop)
        #expect(show.next == 0)
        #expect(show.start() == [.show(2), .startTimer(seconds: 2), .preload(0)])
        _ = show.imageReady(0)
        #expect(show.tick() == [.show(0), .startTimer(seconds: 2), .preload(1)])
    }

    @Test func stopsAfterTheLastPhotosInterval() {
        var show = SlideshowModel(count: 2, current: 0, interval: 2, ending: .stop)
        _ = show.start()
        _ = show.imageReady(1)
        #expect(show.tick() == [.show(1), .startTimer(seconds: 2)], "nothing after the last photo to preload")
        #expect(show.tick() == [.end(at: 1)])
        #expect(show.phase == .ended)
        #expect(!show.isRunning)
        #expect(show.tick() == [])
        #expect(show.imageReady(0) == [])
    }

    @Test func aSinglePhotoHasNothingToLoopTo() {
        var show = SlideshowModel(count: 1, current: 0, interval: 2, ending: .loop)
        #expect(show.next == nil)
        #expect(show.start() == [.show(0), .startTimer(seconds: 2)])
        #expect(show.tick() == [.end(at: 0)])
    }

    @Test func anEmptyAlbumEndsAtOnce() {
        var show = SlideshowModel(count: 0, current: 0)
        #expect(show.start() == [.end(at: 0)])
        #expect(show.phase == .ended)
    }

    @Test func spacePausesAndResumesWithAWholeInterval() {
        var show = SlideshowModel(count: 3, current: 0, interval: 10, ending: .loop)
        _ = show.start()
        _ = show.imageReady(1)
        #expect(show.togglePause() == [.stopTimer, .paused])
        #expect(show.phase == .paused)
        #expect(show.tick() == [], "a tick while paused advances nothing")
        #expect(show.current == 0)
        #expect(show.togglePause() == [.resumed, .startTimer(seconds: 10)])
        #expect(show.tick() == [.show(1), .startTimer(seconds: 10), .preload(2)])
    }

    @Test func anImageThatArrivesWhilePausedWaitsForTheNextTick() {
        var show = SlideshowModel(count: 3, current: 0, interval: 5, ending: .loop)
        _ = show.start()
        _ = show.tick()  // waiting for photo 1
        _ = show.togglePause()
        #expect(show.imageReady(1) == [], "paused: it does not advance")
        #expect(show.current == 0)
        _ = show.togglePause()
        #expect(show.tick() == [.show(1), .startTimer(seconds: 5), .preload(2)])
    }

    @Test func stopEndsOnThePhotoShown() {
        var show = SlideshowModel(count: 6, current: 3, interval: 5)
        _ = show.start()
        #expect(show.stop() == [.stopTimer, .end(at: 3)])
        #expect(show.stop() == [])
        #expect(show.togglePause() == [])
    }

    @Test func stopEndsAPausedOrWaitingSlideshowToo() {
        var paused = SlideshowModel(count: 3, current: 0)
        _ = paused.start()
        _ = paused.togglePause()
        #expect(paused.stop() == [.stopTimer, .end(at: 0)])

        var waiting = SlideshowModel(count: 3, current: 1)
        _ = waiting.start()
        _ = waiting.tick()
        #expect(waiting.stop() == [.stopTimer, .end(at: 1)])
    }

    @Test func aChangedIntervalAppliesFromTheNextPhoto() {
        var show = SlideshowModel(count: 3, current: 0, interval: 5)
        _ = show.start()
        show.interval = 30
        _ = show.imageReady(1)
        #expect(show.tick() == [.show(1), .startTimer(seconds: 30), .preload(2)])
    }

    @Test func keepsTheIntervalSensible() {
        #expect(SlideshowModel(count: 2, current: 0, interval: 0).interval == 1)
        #expect(SlideshowModel(count: 2, current: 0, interval: 100_000).interval == 3600)
        #expect(SlideshowModel.intervals == [2, 3, 5, 10, 30])
        #expect(SlideshowModel.intervals.contains(SlideshowModel.defaultInterval))
    }

    @Test func followsTheShownPhotoWhenTheAlbumChanges() {
        var show = SlideshowModel(count: 4, current: 1, interval: 5, ending: .stop)
        _ = show.start()
        _ = show.imageReady(2)
        // A photo was added before the shown one: it moved to 2, and 3 is next now.
        #expect(show.follow(current: 2, count: 5) == [.preload(3)])
        #expect(show.tick() == [], "the new next photo is not decoded yet")
        #expect(show.imageReady(3) == [.show(3), .startTimer(seconds: 5), .preload(4)])
    }

    @Test func asksForTheNextPhotoAgainWhenAnotherTookItsPlace() {
        var show = SlideshowModel(count: 3, current: 0, interval: 5, ending: .loop)
        _ = show.start()
        _ = show.imageReady(1)
        // A photo inserted right after the shown one: same index next, another photo.
        #expect(show.follow(current: 0, count: 4) == [.preload(1)])
        #expect(show.tick() == [])
        #expect(show.phase == .waitingForNext)
    }

    @Test func unchangedAlbumChangesNothing() {
        var show = SlideshowModel(count: 3, current: 0)
        _ = show.start()
        #expect(show.follow(current: 0, count: 3) == [])
    }

    @Test func endsWhenTheShownPhotoIsGoneOrTheAlbumEmpty() {
        var gone = SlideshowModel(count: 3, current: 2)
        _ = gone.start()
        #expect(gone.follow(current: nil, count: 2) == [.stopTimer, .end(at: 1)])
        #expect(gone.phase == .ended)

        var empty = SlideshowModel(count: 3, current: 0)
        _ = empty.start()
        #expect(empty.follow(current: 0, count: 0) == [.stopTimer, .end(at: 0)])
    }

    @Test func endsWhileWaitingWhenTheNextPhotoLeavesAndNoneFollows() {
        var show = SlideshowModel(count: 3, current: 1, interval: 5, ending: .stop)
        _ = show.start()
        _ = show.tick()  // waiting for photo 2
        #expect(show.follow(current: 1, count: 2) == [.stopTimer, .end(at: 1)])
    }

    @Test func eventsBeforeTheStartDoNothing() {
        var show = SlideshowModel(count: 3, current: 0)
        #expect(show.tick() == [])
        #expect(show.imageReady(1) == [])
        #expect(show.togglePause() == [])
        #expect(show.stop() == [])
        #expect(show.follow(current: 1, count: 3) == [])
        #expect(show.phase == .ready)
    }
}
