import Testing
@testable import PhotoCore

/// Applies `splice` to a mirror of the list's ids, as the GTK list model does.
private func apply(_ splice: PhotoList.Splice?, to mirror: inout [String]) {
    guard let splice else { return }
    mirror.replaceSubrange(splice.position..<(splice.position + splice.removed), with: splice.inserted)
}

private func ids(_ list: PhotoList) -> [String] { list.all.map(\.id) }

/// Checks everything a list promises about itself: sorted by its order, and every id's
/// index pointing back at it.
private func expectConsistent(_ list: PhotoList, sourceLocation: SourceLocation = #_sourceLocation) {
    let all = list.all
    #expect(all.count == list.count, sourceLocation: sourceLocation)
    for i in all.indices.dropFirst() {
        #expect(list.order.areInIncreasingOrder(all[i - 1], all[i]), "out of order at \(i)", sourceLocation: sourceLocation)
    }
    for (i, p) in all.enumerated() {
        #expect(list.index(of: p.id) == i, sourceLocation: sourceLocation)
        #expect(list[i] == p && list.photo(id: p.id) == p, sourceLocation: sourceLocation)
    }
}

@Suite struct PhotoListTests {
    @Test func batchesStreamInAndEachSpliceUpdatesAMirror() {
        var list = PhotoList()
        var mirror: [String] = []
        let batches = [
            [photo("IMG_10.jpg"), photo("IMG_2.jpg")],
            [photo("IMG_1.jpg"), photo("IMG_3.jpg")],
            [photo("IMG_20.jpg")],
            [photo("IMG_0.jpg"), photo("IMG_15.jpg")],
        ]
        for batch in batches {
            apply(list.insert(batch), to: &mirror)
            #expect(mirror == ids(list))
            expectConsistent(list)
        }
        #expect(list.all.map(\.displayName) == ["IMG_0.jpg", "IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg", "IMG_10.jpg", "IMG_15.jpg", "IMG_20.jpg"])
    }

    @Test func insertReturnsTheOneSpliceCoveringTheChange() throws {
        var list = PhotoList()
        #expect(list.insert([photo("a"), photo("d")]) == PhotoList.Splice(position: 0, removedIDs: [], inserted: ["file:///photos/a", "file:///photos/d"]))
        let inserted = list.insert([photo("b"), photo("c")])
        let splice = try #require(inserted)
        #expect(splice == PhotoList.Splice(position: 1, removedIDs: [], inserted: ["file:///photos/b", "file:///photos/c"]))
        // Two inserts far apart make one splice spanning both, replacing what lies between.
        let both = list.insert([photo("0"), photo("e")])
        let wide = try #require(both)
        #expect(wide.position == 0 && wide.removed == 4 && wide.inserted.count == 6)
    }

    @Test func emptyBatchChangesNothing() {
        var list = PhotoList()
        list.insert([photo("a")])
        #expect(list.insert([]) == nil)
        #expect(list.count == 1)
    }

    @Test func reinsertingTheSameIDReplacesThePhoto() throws {
        var list = PhotoList(order: PhotoOrder(key: .modified))
        var mirror: [String] = []
        apply(list.insert([photo("a", modified: 1), photo("b", modified: 2), photo("c", modified: 3)]), to: &mirror)

        // A newer "a" moves to the end; there is still one "a".
        apply(list.insert([photo("a", modified: 9)]), to: &mirror)
        #expect(mirror == ids(list))
        #expect(list.count == 3)
        #expect(list.all.map(\.displayName) == ["b", "c", "a"])
        #expect(list.photo(id: "file:///photos/a")?.modified == 9)
        expectConsistent(list)
    }

    @Test func reinsertingAChangedPhotoInPlaceStillReportsIt() throws {
        var list = PhotoList()
        list.insert([photo("a", modified: 1), photo("b", modified: 1), photo("c", modified: 1)])
        let changed = Photo(id: "file:///photos/b", displayName: "b", modified: 2, size: 99, contentType: "image/png")
        let reinserted = list.insert([changed])
        let splice = try #require(reinserted)
        #expect(splice == PhotoList.Splice(position: 1, removedIDs: ["file:///photos/b"], inserted: ["file:///photos/b"]))
        #expect(list.photo(id: "file:///photos/b") == changed)
    }

    @Test func reinsertingAnIdenticalPhotoIsNoChange() {
        var list = PhotoList()
        list.insert([photo("a"), photo("b")])
        #expect(list.insert([photo("b")]) == nil)
    }

    @Test func duplicateIDsInOneBatchKeepTheLast() {
        var list = PhotoList()
        list.insert([photo("a", modified: 1), photo("a", modified: 2)])
        #expect(list.count == 1)
        #expect(list.photo(id: "file:///photos/a")?.modified == 2)
    }

    @Test func removeDropsTheGivenIDs() throws {
        var list = PhotoList()
        var mirror: [String] = []
        apply(list.insert(["a", "b", "c", "d"].map { photo($0) }), to: &mirror)
        let removed = list.remove(ids: ["file:///photos/b", "file:///photos/c", "file:///nowhere"])
        let splice = try #require(removed)
        #expect(splice == PhotoList.Splice(position: 1, removedIDs: ["file:///photos/b", "file:///photos/c"], inserted: []))
        apply(splice, to: &mirror)
        #expect(mirror == ids(list))
        #expect(list.all.map(\.displayName) == ["a", "d"])
        #expect(list.index(of: "file:///photos/b") == nil)
        #expect(list.index(of: "file:///photos/d") == 1)
        #expect(list.remove(ids: ["file:///photos/b"]) == nil)
    }

    @Test func sortByChangesTheOrder() throws {
        var list = PhotoList()
        var mirror: [String] = []
        apply(list.insert([photo("a", modified: 3), photo("b", modified: 1), photo("c", modified: 2)]), to: &mirror)
        let resorted = list.sort(by: PhotoOrder(key: .modified))
        let splice: PhotoList.Splice = try #require(resorted)
        apply(splice, to: &mirror)
        #expect(list.order == PhotoOrder(key: .modified))
        #expect(list.all.map(\.displayName) == ["b", "c", "a"])
        #expect(mirror == ids(list))
        expectConsistent(list)

        apply(list.sort(by: PhotoOrder(key: .name, reversed: true)), to: &mirror)
        #expect(list.all.map(\.displayName) == ["c", "b", "a"])
        #expect(mirror == ids(list))
        expectConsistent(list)

        #expect(list.sort(by: PhotoOrder(key: .name, reversed: true)) == nil)
    }

    @Test(arguments: [1, 2, 3, 42, 1234] as [UInt64])
    func randomEditsKeepAMirrorInStep(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let names = (0..<40).map { i in ["IMG_\(i)", "img_\(i % 10)", "Photo \(i * 7)", "a\(i)b"][i % 4] }
        let orders = [PhotoOrder(key: .name), PhotoOrder(key: .name, reversed: true),
                      PhotoOrder(key: .modified), PhotoOrder(key: .modified, reversed: true),
                      PhotoOrder(key: .dateTaken), PhotoOrder.newestFirst]
        var list = PhotoList(order: seed % 2 == 0 ? .newestFirst : .byName)
        var mirror: [String] = []
        var model: [String: Photo] = [:]   // what the list should hold, by id

        for step in 0..<400 {
            let roll = Int.random(in: 0..<13, using: &rng)
            if roll < 6 {
                let batch = (0..<Int.random(in: 0...8, using: &rng)).map { _ -> Photo in
                    let name = names.randomElement(using: &rng)!
                    let taken: Int64? = Int.random(in: 0..<4, using: &rng) == 0 ? Int64.random(in: 0..<5, using: &rng) : nil
                    return Photo(id: "file:///r/\(name)", displayName: name, modified: Int64.random(in: 0..<5, using: &rng),
                                 size: 1, contentType: "image/jpeg", dateTaken: taken)
                }
                // The last of an id wins; an unchanged file without a date keeps the one known.
                var incoming: [String: Photo] = [:]
                for p in batch { incoming[p.id] = p }
                for var p in incoming.values {
                    if p.dateTaken == nil, let known = model[p.id], known.modified == p.modified, known.size == p.size {
                        p.dateTaken = known.dateTaken
                    }
                    model[p.id] = p
                }
                apply(list.insert(batch), to: &mirror)
            } else if roll < 9 {
                let gone = Set((0..<Int.random(in: 0...5, using: &rng)).map { _ in "file:///r/\(names.randomElement(using: &rng)!)" })
                for id in gone { model[id] = nil }
                apply(list.remove(ids: gone), to: &mirror)
            } else if roll < 12 {
                // Dates arrive for some listed photos, and for some no longer listed.
                var dates: [String: Int64?] = [:]
                for _ in 0..<Int.random(in: 0...10, using: &rng) {
                    let id = "file:///r/\(names.randomElement(using: &rng)!)"
                    dates[id] = Int.random(in: 0..<4, using: &rng) == 0 ? nil : Int64.random(in: 0..<6, using: &rng)
                }
                for (id, date) in dates where model[id] != nil { model[id]!.dateTaken = date }
                let splice = list.setDatesTaken(dates)
                if list.order.key != .dateTaken { #expect(splice == nil, "step \(step)") }
                apply(splice, to: &mirror)
            } else {
                apply(list.sort(by: orders.randomElement(using: &rng)!), to: &mirror)
            }
            #expect(mirror == ids(list), "step \(step)")
            #expect(Set(list.all) == Set(model.values), "step \(step)")
            expectConsistent(list)
            for name in names where model["file:///r/\(name)"] == nil {
                #expect(list.index(of: "file:///r/\(name)") == nil, "step \(step): \(name) is not listed")
            }
        }
    }

    /// A long list is sorted as two halves on two threads, then merged: the same order as one
    /// sort gives, in every order, ties (equal times, equal names) included.
    @Test func aLongListSortedInTwoHalvesIsInOrder() {
        var rng = SeededGenerator(seed: 24)
        let count = PhotoOrder.sortedInTwoFrom * 2 + 1
        let photos = (0..<count).map { i in
            photo("IMG_\(Int.random(in: 0..<3_000, using: &rng)).jpg", modified: Int64.random(in: 0..<50, using: &rng), id: "file:///p/\(i)")
        }
        for order in [PhotoOrder.byName, .newestFirst, PhotoOrder(key: .modified), PhotoOrder(key: .name, reversed: true)] {
            #expect(order.sorted(photos).map(\.id) == photos.sorted(by: order.areInIncreasingOrder).map(\.id), "\(order)")
        }
    }

    /// A sort compares records holding each photo's time and name key's first 24 bytes: the
    /// same order as the photos compared, for names alike in their first 24 bytes (and wholly
    /// alike: ties go to the URI), names not in ASCII, dates taken, and times at the ends of
    /// their range (an order newest first turns their bits round).
    @Test func aSortByRecordsIsTheOrderOfThePhotos() {
        var rng = SeededGenerator(seed: 7)
        let stems = ["IMG_", "holiday-in-the-mountains-2024-summer-", "Été ", "ÉTÉ ", "photo-0", "a", ""]
        let times: [Int64] = [Int64.min, Int64.min + 1, -1, 0, 1, 1_700_000_000_000_000, Int64.max - 1, Int64.max]
        for count in [2, 3, 500, PhotoOrder.sortedInTwoFrom + 3] {
            let photos = (0..<count).map { i in
                let name = stems.randomElement(using: &rng)! + "\(Int.random(in: 0..<40, using: &rng)).jpg"
                var made = photo(name, modified: times.randomElement(using: &rng)!, id: "file:///p/\(Int.random(in: 0..<count, using: &rng))-\(i)")
                if Bool.random(using: &rng) { made.dateTaken = times.randomElement(using: &rng)! }
                return made
            }
            for order in [PhotoOrder.byName, .newestFirst, PhotoOrder(key: .dateTaken), PhotoOrder(key: .modified),
                          PhotoOrder(key: .modified, reversed: true), PhotoOrder(key: .name, reversed: true)] {
                #expect(order.sorted(photos).map(\.id) == photos.sorted(by: order.areInIncreasingOrder).map(\.id), "\(order), \(count)")
            }
        }
    }

    /// A long list finds each of its photos by id, and no other, after photos join, leave and
    /// are replaced (the places table is made again at each change, at most half full).
    @Test func aLongListFindsEveryPhotoByID() {
        var list = PhotoList(order: .newestFirst)
        let all = (0..<20_000).map { photo("photo-\($0).jpg", modified: Int64($0 % 7)) }
        list.insert(Array(all[0..<64]))
        list.insert(Array(all[64...]))
        #expect(list.count == 20_000)
        list.remove(ids: Set(all[100..<5_100].map(\.id)))
        list.insert([photo("photo-7.jpg", modified: 99)])
        #expect(list.count == 15_000)
        for (i, p) in all.enumerated() {
            let place = list.index(of: p.id)
            #expect((place == nil) == (100..<5_100).contains(i), "\(p.id)")
            if let place { #expect(list[place].id == p.id) }
        }
        #expect(list.photo(id: "file:///photos/photo-7.jpg")?.modified == 99)
        #expect(list.index(of: "file:///photos/photo-20000.jpg") == nil)
        #expect(list.index(of: "") == nil)
    }
}
