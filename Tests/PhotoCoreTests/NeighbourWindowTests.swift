import PhotoCore
import Testing

@Suite struct NeighbourWindowTests {
    @Test func coversTheCurrentPhotoAndRadiusOnEachSide() {
        #expect(NeighbourWindow(radius: 1).indices(around: 5, count: 10) == 4...6)
        #expect(NeighbourWindow(radius: 2).indices(around: 5, count: 10) == 3...7)
        #expect(NeighbourWindow().radius == 1)
    }

    @Test func isClampedAtTheEdgesWithoutSliding() {
        let window = NeighbourWindow(radius: 2)
        #expect(window.indices(around: 0, count: 10) == 0...2)
        #expect(window.indices(around: 1, count: 10) == 0...3)
        #expect(window.indices(around: 9, count: 10) == 7...9)
    }

    @Test func isNilForAnEmptyFolder() {
        #expect(NeighbourWindow().indices(around: 0, count: 0) == nil)
        #expect(NeighbourWindow().indicesByPriority(around: 0, count: 0) == [])
    }

    @Test func handlesFoldersOfOneAndTwo() {
        let window = NeighbourWindow(radius: 1)
        #expect(window.indices(around: 0, count: 1) == 0...0)
        #expect(window.indices(around: 0, count: 2) == 0...1)
        #expect(window.indices(around: 1, count: 2) == 0...1)
        #expect(NeighbourWindow(radius: 3).indices(around: 1, count: 2) == 0...1)
    }

    @Test func clampsACurrentIndexOutsideTheFolder() {
        #expect(NeighbourWindow(radius: 1).indices(around: -3, count: 5) == 0...1)
        #expect(NeighbourWindow(radius: 1).indices(around: 9, count: 5) == 3...4)
    }

    @Test func radiusZeroIsTheCurrentPhotoAlone() {
        #expect(NeighbourWindow(radius: 0).indices(around: 3, count: 5) == 3...3)
        #expect(NeighbourWindow(radius: -2).radius == 0)
    }

    @Test func ordersByDistanceNextBeforePrevious() {
        #expect(NeighbourWindow(radius: 2).indicesByPriority(around: 5, count: 10) == [5, 6, 4, 7, 3])
        #expect(NeighbourWindow(radius: 2).indicesByPriority(around: 0, count: 10) == [0, 1, 2])
        #expect(NeighbourWindow(radius: 2).indicesByPriority(around: 9, count: 10) == [9, 8, 7])
        #expect(NeighbourWindow(radius: 2).indicesByPriority(around: 1, count: 10) == [1, 2, 0, 3])
    }

    @Test func replacementIsTheNextPhotoThenThePrevious() {
        let old = ["a", "b", "c", "d"]
        #expect(NeighbourWindow.replacement(for: "b", oldOrder: old, newOrder: ["a", "c", "d"]) == "c")
        #expect(NeighbourWindow.replacement(for: "d", oldOrder: old, newOrder: ["a", "b", "c"]) == "c")
        // Several removed at once (a selection deleted): the next survivor.
        #expect(NeighbourWindow.replacement(for: "b", oldOrder: old, newOrder: ["a", "d"]) == "d")
        #expect(NeighbourWindow.replacement(for: "c", oldOrder: old, newOrder: ["a"]) == "a")
        #expect(NeighbourWindow.replacement(for: "a", oldOrder: ["a"], newOrder: []) == nil)
        #expect(NeighbourWindow.replacement(for: "zz", oldOrder: old, newOrder: ["b", "c"]) == "b")
    }
}

@Suite struct NeighbourTrackerTests {
    let folder = ["a", "b", "c", "d", "e", "f"]

    @Test func firstMoveLoadsTheCurrentPhotoFirstThenNextThenPrevious() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        #expect(tracker.move(to: "c", in: folder) == FullImagePlan(load: ["c", "d", "b"], release: []))
        #expect(tracker.held == ["b", "c", "d"])
    }

    @Test func pagingLoadsOneAndReleasesOne() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "c", in: folder)
        #expect(tracker.move(to: "d", in: folder) == FullImagePlan(load: ["e"], release: ["b"]))
        #expect(tracker.move(to: "c", in: folder) == FullImagePlan(load: ["b"], release: ["e"]))
        #expect(tracker.held == ["b", "c", "d"])
    }

    @Test func stayingOnThePhotoChangesNothing() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "c", in: folder)
        #expect(tracker.move(to: "c", in: folder).isEmpty)
    }

    @Test func theFirstAndLastPhotosHaveOneNeighbour() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        #expect(tracker.move(to: "a", in: folder) == FullImagePlan(load: ["a", "b"], release: []))
        #expect(tracker.move(to: "f", in: folder) == FullImagePlan(load: ["f", "e"], release: ["a", "b"]))
        #expect(tracker.held == ["e", "f"])
    }

    @Test func jumpingFromFirstToLastReleasesAllOld() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 2))
        tracker.move(to: "a", in: folder)
        #expect(tracker.held == ["a", "b", "c"])
        let plan = tracker.move(to: "f", in: folder)
        #expect(plan.load == ["f", "e", "d"])
        #expect(plan.release == ["a", "b", "c"])
        #expect(tracker.held == ["d", "e", "f"])
    }

    @Test func aFolderOfOne() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        #expect(tracker.move(to: "only", in: ["only"]) == FullImagePlan(load: ["only"], release: []))
        #expect(tracker.move(to: "only", in: ["only"]).isEmpty)
        #expect(tracker.move(to: nil, in: []) == FullImagePlan(load: [], release: ["only"]))
        #expect(tracker.held.isEmpty)
    }

    @Test func aFolderOfTwo() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        #expect(tracker.move(to: "x", in: ["x", "y"]) == FullImagePlan(load: ["x", "y"], release: []))
        // Both stay held whichever is current.
        #expect(tracker.move(to: "y", in: ["x", "y"]).isEmpty)
        #expect(tracker.move(to: "x", in: ["x", "y"]).isEmpty)
        #expect(tracker.held == ["x", "y"])
    }

    @Test func anEmptyFolderWantsNothing() {
        var tracker = NeighbourTracker()
        #expect(tracker.move(to: nil, in: []).isEmpty)
        #expect(tracker.move(to: "a", in: []).isEmpty)
    }

    @Test func deletingTheCurrentPhotoReleasesEverythingUntilTheCallerChooses() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "c", in: folder)
        let remaining = folder.filter { $0 != "c" }
        #expect(tracker.move(to: "c", in: remaining) == FullImagePlan(load: [], release: ["c", "d", "b"]))
        #expect(tracker.held.isEmpty)

        var again = NeighbourTracker(window: NeighbourWindow(radius: 1))
        again.move(to: "c", in: folder)
        #expect(again.move(to: nil, in: remaining).release == ["c", "d", "b"])
    }

    @Test func movingToTheReplacementOfADeletedPhotoKeepsItsNeighbours() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "c", in: folder)
        let remaining = folder.filter { $0 != "c" }
        let next = NeighbourWindow.replacement(for: "c", oldOrder: folder, newOrder: remaining)
        #expect(next == "d")
        // d was held already; b stays a neighbour; e comes in; only c goes.
        #expect(tracker.move(to: next, in: remaining) == FullImagePlan(load: ["e"], release: ["c"]))
        #expect(tracker.held == ["b", "d", "e"])
    }

    @Test func deletingTheLastPhotoMovesToThePrevious() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "f", in: folder)
        let remaining = Array(folder.dropLast())
        let next = NeighbourWindow.replacement(for: "f", oldOrder: folder, newOrder: remaining)
        #expect(next == "e")
        #expect(tracker.move(to: next, in: remaining) == FullImagePlan(load: ["d"], release: ["f"]))
    }

    @Test func aPhotoAddedBeforeTheCurrentOneBecomesItsNeighbour() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "c", in: folder)
        let grown = ["a", "b", "b2", "c", "d", "e", "f"]
        #expect(tracker.move(to: "c", in: grown) == FullImagePlan(load: ["b2"], release: ["b"]))
        #expect(tracker.held == ["b2", "c", "d"])
    }

    @Test func aPhotoAddedFarAwayChangesNothing() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "c", in: folder)
        #expect(tracker.move(to: "c", in: ["0"] + folder + ["z"]).isEmpty)
    }

    @Test func aNeighbourRemovedIsReleasedAndTheNextOneLoaded() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "c", in: folder)
        #expect(tracker.move(to: "c", in: ["a", "b", "c", "e", "f"]) == FullImagePlan(load: ["e"], release: ["d"]))
    }

    @Test func reSortingRecomputesTheNeighboursByIdentity() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "c", in: folder)
        #expect(tracker.move(to: "c", in: Array(folder.reversed())).isEmpty)  // same neighbours, swapped sides
        let shuffled = ["c", "f", "a", "e", "b", "d"]
        #expect(tracker.move(to: "c", in: shuffled) == FullImagePlan(load: ["f"], release: ["d", "b"]))
        #expect(tracker.held == ["c", "f"])
    }

    @Test func releaseAllEmptiesTheTracker() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "b", in: folder)
        #expect(tracker.releaseAll() == FullImagePlan(load: [], release: ["b", "c", "a"]))
        #expect(tracker.held.isEmpty)
        #expect(tracker.releaseAll().isEmpty)
    }

    @Test func aForgottenPhotoIsLoadedAgainOnTheNextMove() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        tracker.move(to: "b", in: folder)
        let forgotHeld = tracker.forget("c")
        let forgotOther = tracker.forget("f")
        #expect(forgotHeld && !forgotOther)
        #expect(tracker.move(to: "b", in: folder) == FullImagePlan(load: ["c"], release: []))
    }

    @Test func duplicateIdsCountOnce() {
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 1))
        #expect(tracker.move(to: "a", in: ["a", "a", "b"]) == FullImagePlan(load: ["a"], release: []))
    }

    @Test func aPhotoListGivesTheSamePlansAsItsOrder() {
        var list = PhotoList()
        list.insert(["1.jpg", "2.jpg", "3.jpg", "4.jpg", "5.jpg"].map { photo($0) })
        let ids = list.all.map(\.id)
        var byList = NeighbourTracker(window: NeighbourWindow(radius: 2))
        var byOrder = NeighbourTracker(window: NeighbourWindow(radius: 2))
        for current in [ids[0], ids[4], ids[2], nil, ids[1]] {
            #expect(byList.move(to: current, in: list) == byOrder.move(to: current, in: ids))
        }
        list.remove(ids: [ids[2]])
        #expect(byList.move(to: ids[1], in: list) == byOrder.move(to: ids[1], in: list.all.map(\.id)))
        #expect(byList.held == byOrder.held)
    }

    @Test func heldIsAlwaysTheWindowAfterRandomChanges() {
        var generator = SeededGenerator(seed: 7)
        var order = (0..<12).map { "p\($0)" }
        var next = 12
        var tracker = NeighbourTracker(window: NeighbourWindow(radius: 2))
        var mirror = Set<String>()  // what a caller applying every plan would hold
        for _ in 0..<500 {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where order.count > 1: order.remove(at: Int.random(in: 0..<order.count, using: &generator))
            case 1: order.insert("p\(next)", at: Int.random(in: 0...order.count, using: &generator)); next += 1
            case 2: order.shuffle(using: &generator)
            default: break
            }
            let current = order.randomElement(using: &generator)
            let plan = tracker.move(to: current, in: order)
            #expect(plan.load.allSatisfy { !mirror.contains($0) })
            #expect(plan.release.allSatisfy { mirror.contains($0) })
            mirror.subtract(plan.release)
            mirror.formUnion(plan.load)
            #expect(mirror == tracker.held)
            #expect(tracker.held == Set(tracker.wanted(around: current, in: order)))
            if let current, plan.load.contains(current) { #expect(plan.load.first == current) }
        }
    }

    // MARK: The replacement read from a splice

    private func photo(_ name: String, modified: Int64 = 0) -> Photo {
        Photo(id: name, displayName: name, modified: modified, size: 1, contentType: "image/png")
    }

    @Test func replacementAfterASpliceIsTheNextPhotoThenThePrevious() throws {
        var list = PhotoList()
        list.insert(["a", "b", "c", "d"].map { photo($0) })
        let removal = list.remove(ids: ["b"])
        let splice = try #require(removal)
        #expect(NeighbourWindow.replacement(for: "b", after: splice, in: list) == "c")
        let lastRemoval = list.remove(ids: ["d"])
        let last = try #require(lastRemoval)
        #expect(NeighbourWindow.replacement(for: "d", after: last, in: list) == "c")
        let allRemoval = list.remove(ids: ["a", "c"])
        let all = try #require(allRemoval)
        #expect(NeighbourWindow.replacement(for: "a", after: all, in: list) == nil)
    }

    @Test func replacementAfterASpliceIsNilForAPhotoThatOnlyMoved() throws {
        var list = PhotoList()
        list.insert(["a", "b", "c"].map { photo($0) })
        let change = list.insert([photo("b", modified: 5)])
        let moved = try #require(change)
        #expect(NeighbourWindow.replacement(for: "b", after: moved, in: list) == nil)
    }

    /// Whatever the change (photos removed, added and re-sorted at once), the splice-based
    /// rule picks what the rule on the whole old and new orders picks.
    @Test func replacementAfterASpliceAgreesWithTheRuleOnWholeOrders() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var list = PhotoList(order: Bool.random(using: &generator) ? .byName : PhotoOrder(key: .modified, reversed: false))
            let names = (0..<Int.random(in: 1...12, using: &generator)).map { "p\($0)" }
            list.insert(names.map { photo($0, modified: Int64.random(in: 0...5, using: &generator)) })
            let oldOrder = list.all.map(\.id)
            let current = try #require(oldOrder.randomElement(using: &generator))
            var gone = Set(oldOrder.filter { _ in Int.random(in: 0..<3, using: &generator) == 0 })
            gone.insert(current)
            var splices: [PhotoList.Splice] = []
            if let removal = list.remove(ids: gone) { splices.append(removal) }
            // Sometimes more arrive in the same change (a monitor batch): merge into one splice.
            let added = (0..<Int.random(in: 0...3, using: &generator)).map { photo("n\($0)", modified: Int64.random(in: 0...5, using: &generator)) }
            if let addition = list.insert(added) { splices.append(addition) }
            let newOrder = list.all.map(\.id)
            let expected = NeighbourWindow.replacement(for: current, oldOrder: oldOrder, newOrder: newOrder)
            // The viewer sees one splice per change; check against the removal alone, and
            // against one splice spanning the whole change.
            let whole = PhotoList.Splice(position: 0, removedIDs: oldOrder, inserted: newOrder)
            #expect(NeighbourWindow.replacement(for: current, after: whole, in: list) == expected)
            if splices.count == 1, let only = splices.first {
                #expect(NeighbourWindow.replacement(for: current, after: only, in: list) == expected)
            }
        }
    }
}
