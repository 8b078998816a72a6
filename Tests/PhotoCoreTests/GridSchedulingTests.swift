import PhotoCore
import Testing

@Suite struct ThumbnailPriorityTests {
    @Test func placementIsVisibleWhenAnyOfTheTileIsInView() {
        #expect(TilePlacement(x: 0, y: -10, width: 100, height: 100, viewWidth: 800, viewHeight: 600).visible)
        #expect(TilePlacement(x: 750, y: 550, width: 100, height: 100, viewWidth: 800, viewHeight: 600).visible)
        #expect(!TilePlacement(x: 0, y: 600, width: 100, height: 100, viewWidth: 800, viewHeight: 600).visible)
        #expect(!TilePlacement(x: 0, y: -100, width: 100, height: 100, viewWidth: 800, viewHeight: 600).visible)
    }

    @Test func distanceCountsRowsFourTimesAsMuchAsColumns() {
        let centre = TilePlacement(x: 350, y: 250, width: 100, height: 100, viewWidth: 800, viewHeight: 600)
        let right = TilePlacement(x: 450, y: 250, width: 100, height: 100, viewWidth: 800, viewHeight: 600)
        let below = TilePlacement(x: 350, y: 350, width: 100, height: 100, viewWidth: 800, viewHeight: 600)
        #expect(centre.distance == 0)
        #expect(right.distance == 100)
        #expect(below.distance == 400)
    }

    @Test func tilesInViewComeFirstThenBoundOnesThenThePrefetch() throws {
        let inViewFar = try #require(ThumbnailPriority.forTile(TilePlacement(visible: true, distance: 5000), viewHeight: 600))
        let boundNear = try #require(ThumbnailPriority.forTile(TilePlacement(visible: false, distance: 700), viewHeight: 600))
        #expect(inViewFar > boundNear)
        #expect(boundNear > ThumbnailPriority.forPrefetch(distance: 0))
        #expect(ThumbnailPriority.forPrefetch(distance: 1) > ThumbnailPriority.forPrefetch(distance: 2))
    }

    @Test func nearerTheMiddleComesFirstWithinABand() throws {
        let near = try #require(ThumbnailPriority.forTile(TilePlacement(visible: true, distance: 10), viewHeight: 600))
        let far = try #require(ThumbnailPriority.forTile(TilePlacement(visible: true, distance: 900), viewHeight: 600))
        #expect(near > far)
    }

    @Test func boundTilesFarOutOfViewWait() {
        #expect(ThumbnailPriority.forTile(TilePlacement(visible: false, distance: 600 * 4), viewHeight: 600) != nil)
        #expect(ThumbnailPriority.forTile(TilePlacement(visible: false, distance: 600 * 4 + 1), viewHeight: 600) == nil)
        #expect(ThumbnailPriority.forTile(TilePlacement(visible: true, distance: 600 * 40), viewHeight: 600) != nil)
    }

    @Test func whileTheAlbumIsListedOnlyTilesInViewAreAskedFor() {
        #expect(ThumbnailPriority.forTile(TilePlacement(visible: true, distance: 5000), viewHeight: 600, albumListed: false) != nil)
        #expect(ThumbnailPriority.forTile(TilePlacement(visible: false, distance: 10), viewHeight: 600, albumListed: false) == nil)
        #expect(ThumbnailPriority.forTile(TilePlacement(visible: false, distance: 10), viewHeight: 600, albumListed: true) != nil)
    }

    @Test func aHugeDistanceStaysInItsBand() throws {
        let farInView = try #require(ThumbnailPriority.forTile(TilePlacement(visible: true, distance: 50_000_000), viewHeight: 100_000_000))
        #expect(farInView > ThumbnailPriority.boundBand)
        #expect(ThumbnailPriority.forPrefetch(distance: 50_000_000) > 0)
    }
}

@Suite struct PrefetchWindowTests {
    @Test func isTheNextScreenfulInTheScrollingDirection() {
        #expect(PrefetchWindow<Int>.range(visible: 10...19, count: 100, scrollingDown: true) == 20..<30)
        #expect(PrefetchWindow<Int>.range(visible: 10...19, count: 100, scrollingDown: false) == 0..<10)
        #expect(PrefetchWindow<Int>.range(visible: 30...39, count: 100, scrollingDown: false) == 20..<30)
    }

    @Test func stopsAtTheEndsOfTheFolder() {
        #expect(PrefetchWindow<Int>.range(visible: 90...99, count: 100, scrollingDown: true).isEmpty)
        #expect(PrefetchWindow<Int>.range(visible: 85...94, count: 100, scrollingDown: true) == 95..<100)
        #expect(PrefetchWindow<Int>.range(visible: 0...9, count: 100, scrollingDown: false).isEmpty)
        #expect(PrefetchWindow<Int>.range(visible: nil, count: 100, scrollingDown: true).isEmpty)
        #expect(PrefetchWindow<Int>.range(visible: 0...9, count: 0, scrollingDown: true).isEmpty)
    }

    @Test func waitsForTheAlbumToBeListed() {
        #expect(PrefetchWindow<Int>.range(visible: 10...19, count: 100, scrollingDown: true, albumListed: false).isEmpty)
        #expect(PrefetchWindow<Int>.range(visible: 10...19, count: 100, scrollingDown: true, albumListed: true) == 20..<30)
    }

    @Test func distanceCountsFromTheEdgeOfTheView() {
        #expect(PrefetchWindow<Int>.distance(of: 20, from: 10...19, scrollingDown: true) == 1)
        #expect(PrefetchWindow<Int>.distance(of: 9, from: 10...19, scrollingDown: false) == 1)
    }

    @Test func updatesAreADiff() {
        var window = PrefetchWindow<String>()
        let first = window.update(wanted: ["a": 3, "b": 2, "c": 1])
        #expect(first.request.map(\.key) == ["a", "b", "c"])
        #expect(first.release.isEmpty)
        let second = window.update(wanted: ["b": 2, "c": 1, "d": 0])
        #expect(second.request.map(\.key) == ["d"])
        #expect(second.release == ["a"])
        #expect(window.held == ["b", "c", "d"])
    }

    @Test func anArrivedThumbnailIsNotReleasedLater() {
        var window = PrefetchWindow<String>()
        _ = window.update(wanted: ["a": 1, "b": 1])
        window.arrived("a")
        let change = window.update(wanted: [:])
        #expect(change.release == ["b"])
        let rest = window.releaseAll()
        #expect(rest.isEmpty)
    }
}

@Suite struct PendingRequestsTests {
    @Test func theLastHolderCancels() {
        var pending = PendingRequests<String, Int>()
        let joinedNothing = pending.join("a")
        #expect(!joinedNothing)
        pending.started("a", ticket: 7)
        let joined = pending.join("a")
        #expect(joined)
        let firstLeave = pending.leave("a")
        #expect(firstLeave == nil)
        #expect(pending.isPending("a"))
        let lastLeave = pending.leave("a")
        #expect(lastLeave == 7)
        #expect(!pending.isPending("a"))
        let extraLeave = pending.leave("a")
        #expect(extraLeave == nil)
    }

    @Test func aResultForARequestNobodyHoldsIsDropped() {
        var pending = PendingRequests<String, Int>()
        pending.started("a", ticket: 1)
        let held = pending.finish("a")
        #expect(held)
        pending.started("b", ticket: 2)
        _ = pending.leave("b")
        let abandoned = pending.finish("b")
        #expect(!abandoned)
    }

    @Test func aRequestContinuedIsCancelledUnderItsNewTicketAndNotAfterItsHoldersLeft() {
        var pending = PendingRequests<String, Int>()
        pending.started("a", ticket: 1)
        _ = pending.join("a")
        let continued = pending.continued("a", ticket: 2)
        #expect(continued)
        #expect(pending.leave("a") == nil)
        #expect(pending.leave("a") == 2)
        let afterLeaving = pending.continued("a", ticket: 3)
        #expect(!afterLeaving)
        #expect(!pending.isPending("a"))
    }

    @Test func removeAllReturnsEveryTicket() {
        var pending = PendingRequests<String, Int>()
        pending.started("a", ticket: 1)
        pending.started("b", ticket: 2)
        let tickets = pending.removeAll()
        #expect(Set(tickets) == [1, 2])
        #expect(pending.count == 0)
    }
}

@Suite struct RecentCacheTests {
    @Test func keepsValuesWithinTheLimit() {
        var cache = RecentCache<Int, String>(limit: 100)
        for key in 0..<10 { cache.store("v\(key)", bytes: 10, for: key) }
        #expect(cache.bytes == 100)
        #expect(cache.count == 10)
        let evicted = cache.store("new", bytes: 10, for: 10)
        #expect(!evicted.isEmpty)
        #expect(cache.bytes <= 100)
        #expect(cache.contains(10))
    }

    @Test func evictsTheLeastRecentlyUsedFirst() {
        var cache = RecentCache<Int, String>(limit: 40)
        for key in 0..<4 { cache.store("v\(key)", bytes: 10, for: key) }
        _ = cache.value(for: 0)  // 0 is now the most recently used
        let evicted = cache.store("v4", bytes: 10, for: 4)
        #expect(evicted == [1])
        #expect(cache.contains(0))
        #expect(!cache.contains(1))
    }

    @Test func replacingAValueCountsItsBytesOnce() {
        var cache = RecentCache<Int, String>(limit: 100)
        cache.store("a", bytes: 30, for: 1)
        cache.store("b", bytes: 20, for: 1)
        #expect(cache.bytes == 20)
        cache.remove(1)
        #expect(cache.bytes == 0)
        let gone = cache.value(for: 1)
        #expect(gone == nil)
    }

    @Test func neverEvictsWhatWasJustStored() {
        var cache = RecentCache<Int, String>(limit: 10)
        cache.store("big", bytes: 50, for: 1)
        #expect(cache.contains(1))
        cache.store("bigger", bytes: 60, for: 2)
        #expect(cache.contains(2))
        #expect(!cache.contains(1))
    }
}

@Suite struct RequestHandoverTests {
    @Test func outsideASpliceNothingIsHeldBack() {
        var handover = RequestHandover<String>()
        let held = handover.letGo("a")
        #expect(!held)
        let end = handover.end(waiting: [(holder: 1, key: "a")])
        #expect(end.taken.isEmpty && end.release.isEmpty)
    }

    @Test func aTileRoundTheSamePhotoTakesTheRequestOver() {
        var handover = RequestHandover<String>()
        handover.begin()
        let a = handover.letGo("a"), b = handover.letGo("b")
        #expect(a && b)
        let end = handover.end(waiting: [(holder: 7, key: "b"), (holder: 8, key: "c")])
        #expect(end.taken.map(\.holder) == [7])
        #expect(end.taken.map(\.key) == ["b"])
        #expect(end.release == ["a"])
        #expect(!handover.isInSplice)
    }

    @Test func eachRequestGoesToOneHolder() {
        var handover = RequestHandover<String>()
        handover.begin()
        _ = handover.letGo("a")
        let end = handover.end(waiting: [(holder: 1, key: "a"), (holder: 2, key: "a")])
        #expect(end.taken.map(\.holder) == [1])
        #expect(end.release.isEmpty)
    }

    @Test func twoLetGoOfTheSameKeyAreTwoRequests() {
        var handover = RequestHandover<String>()
        handover.begin()
        _ = handover.letGo("a")
        _ = handover.letGo("a")
        let end = handover.end(waiting: [(holder: 1, key: "a")])
        #expect(end.taken.count == 1)
        #expect(end.release == ["a"])
    }
}
