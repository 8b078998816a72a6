import Testing
@testable import PhotoCore

/// A photo with a date taken.
private func photo(_ name: String, modified: Int64 = 0, taken: Int64?, id: String? = nil) -> Photo {
    Photo(id: id ?? "file:///photos/\(name)", displayName: name, modified: modified, size: 1, contentType: "image/jpeg", dateTaken: taken)
}

/// Applies `splice` to a mirror of the list's ids, as the GTK list model does.
private func apply(_ splice: PhotoList.Splice?, to mirror: inout [String]) {
    guard let splice else { return }
    mirror.replaceSubrange(splice.position..<(splice.position + splice.removed), with: splice.inserted)
}

private func names(_ list: PhotoList) -> [String] { list.all.map(\.displayName) }

@Suite struct DateTakenOrderTests {
    private func names(_ photos: [Photo], _ order: PhotoOrder) -> [String] {
        photos.sorted(by: order.areInIncreasingOrder).map(\.displayName)
    }

    @Test func photosSortByTheDateTheyWereTaken() {
        let photos = [photo("a", modified: 1, taken: 300), photo("b", modified: 2, taken: 100), photo("c", modified: 3, taken: 200)]
        #expect(names(photos, PhotoOrder(key: .dateTaken)) == ["b", "c", "a"])
        #expect(names(photos, PhotoOrder(key: .dateTaken, reversed: true)) == ["a", "c", "b"])
    }

    @Test func aPhotoWithoutADateSortsByItsModificationTime() {
        let photos = [photo("a", modified: 250, taken: nil), photo("b", modified: 0, taken: 100), photo("c", modified: 0, taken: 300)]
        #expect(names(photos, PhotoOrder(key: .dateTaken)) == ["b", "a", "c"])
    }

    @Test func newestFirstIsDateTakenReversed() {
        #expect(PhotoOrder.newestFirst == PhotoOrder(key: .dateTaken, reversed: true))
        #expect(PhotoOrder.Key.dateTaken == SortKey.dateTaken)
        let photos = [photo("old", taken: 1), photo("new", taken: 3), photo("mid", modified: 2, taken: nil)]
        #expect(names(photos, .newestFirst) == ["new", "mid", "old"])
    }

    @Test func equalDatesAreOrderedByNameThenURIInBothDirections() {
        let tied = [
            photo("b.jpg", modified: 9, taken: 5),
            photo("A.jpg", modified: 1, taken: 5, id: "file:///photos/z/A.jpg"),
            photo("a.jpg", modified: 5, taken: nil, id: "file:///photos/y/a.jpg"),  // its fallback ties too
        ]
        let want = ["file:///photos/y/a.jpg", "file:///photos/z/A.jpg", "file:///photos/b.jpg"]
        #expect(tied.sorted(by: PhotoOrder(key: .dateTaken).areInIncreasingOrder).map(\.id) == want)
        #expect(tied.sorted(by: PhotoOrder.newestFirst.areInIncreasingOrder).map(\.id) == want)
    }

    @Test(arguments: [PhotoOrder(key: .dateTaken), PhotoOrder.newestFirst])
    func dateOrderIsTotalAndIndependentOfInputOrder(_ order: PhotoOrder) {
        var rng = SeededGenerator(seed: 9)
        let pool = (0..<80).map { (i: Int) -> Photo in
            let name: String = ["img\(i % 7)", "IMG\(i % 7)", "x"][i % 3]
            let taken: Int64? = i % 3 == 0 ? nil : Int64(i % 5)
            return photo(name, modified: Int64(i % 4), taken: taken, id: "file:///p/\(i)")
        }
        let first = pool.shuffled(using: &rng).sorted(by: order.areInIncreasingOrder).map(\.id)
        let second = pool.shuffled(using: &rng).sorted(by: order.areInIncreasingOrder).map(\.id)
        #expect(first == second)
        for a in pool {
            #expect(!order.areInIncreasingOrder(a, a))
            for b in pool where a.id != b.id {
                #expect(order.areInIncreasingOrder(a, b) != order.areInIncreasingOrder(b, a))
            }
        }
    }
}

@Suite struct DateTakenListTests {
    @Test func datesArrivingInDateOrderMoveThePhotosAndTheSpliceUpdatesAMirror() throws {
        var list = PhotoList(order: .newestFirst)
        var mirror: [String] = []
        apply(list.insert([photo("a", modified: 30), photo("b", modified: 20), photo("c", modified: 10)]), to: &mirror)
        #expect(names(list) == ["a", "b", "c"])

        // c was taken first of all, but long after a was last modified: it moves to the front.
        let moved = list.setDatesTaken(["file:///photos/c": 100])
        let splice = try #require(moved)
        apply(splice, to: &mirror)
        #expect(names(list) == ["c", "a", "b"])
        #expect(mirror == list.all.map(\.id))
        #expect(list.photo(id: "file:///photos/c")?.dateTaken == 100)
        #expect(list.index(of: "file:///photos/c") == 0 && list.index(of: "file:///photos/b") == 2)
    }

    @Test func aDateThatMovesNothingGivesNoSpliceButIsKept() {
        var list = PhotoList(order: PhotoOrder(key: .dateTaken))
        list.insert([photo("a", modified: 1), photo("b", modified: 2)])
        #expect(list.setDatesTaken(["file:///photos/a": 0, "file:///photos/b": 5]) == nil)
        #expect(list.photo(id: "file:///photos/b")?.dateTaken == 5)
        // The same dates again change nothing at all.
        #expect(list.setDatesTaken(["file:///photos/a": 0]) == nil)
    }

    @Test func inAnotherOrderDatesAreStoredSilently() {
        var list = PhotoList()
        list.insert([photo("a", modified: 1), photo("b", modified: 2)])
        #expect(list.setDatesTaken(["file:///photos/a": 99, "file:///photos/b": 1]) == nil)
        #expect(names(list) == ["a", "b"])
        #expect(list.photo(id: "file:///photos/a")?.dateTaken == 99)

        // Switching to date order later uses them.
        var mirror = list.all.map(\.id)
        apply(list.sort(by: PhotoOrder(key: .dateTaken)), to: &mirror)
        #expect(names(list) == ["b", "a"])
        #expect(mirror == list.all.map(\.id))
    }

    @Test func aMissingDateFallsBackToTheModificationTime() {
        var list = PhotoList(order: PhotoOrder(key: .dateTaken))
        list.insert([photo("a", modified: 10), photo("b", modified: 20)])
        list.setDatesTaken(["file:///photos/a": 30])
        #expect(names(list) == ["b", "a"])
        // Learning that "a" records no date at all puts it back by its modification time.
        list.setDatesTaken(["file:///photos/a": nil] as [String: Int64?])
        #expect(names(list) == ["a", "b"])
        #expect(list.photo(id: "file:///photos/a")?.dateTaken == nil)
    }

    @Test func datesForPhotosNoLongerListedAreIgnored() {
        var list = PhotoList(order: .newestFirst)
        list.insert([photo("a")])
        #expect(list.setDatesTaken(["file:///photos/gone": 5]) == nil)
        #expect(list.count == 1)
    }

    @Test func listingTheSameFileAgainKeepsItsDate() {
        var list = PhotoList(order: .newestFirst)
        list.insert([photo("a", modified: 1), photo("b", modified: 2)])
        list.setDatesTaken(["file:///photos/a": 50])
        #expect(list.insert([photo("a", modified: 1)]) == nil)
        #expect(list.photo(id: "file:///photos/a")?.dateTaken == 50)
        #expect(names(list) == ["a", "b"])
        // A changed file is a new photo: its old date is not carried over.
        list.insert([photo("a", modified: 3)])
        #expect(list.photo(id: "file:///photos/a")?.dateTaken == nil)
        #expect(names(list) == ["a", "b"])
    }

    @Test func manyBatchesOfDatesEndSortedAndTheMirrorStaysInStep() {
        var rng = SeededGenerator(seed: 77)
        var list = PhotoList(order: .newestFirst)
        var mirror: [String] = []
        let photos = (0..<500).map { photo("IMG_\($0).JPG", modified: Int64.random(in: 0..<1000, using: &rng)) }
        apply(list.insert(photos), to: &mirror)
        var dates: [String: Int64?] = [:]
        for p in photos { dates[p.id] = Bool.random(using: &rng) ? Int64.random(in: 0..<1000, using: &rng) : nil }
        let batches = stride(from: 0, to: photos.count, by: 37).map { Array(photos[$0..<min($0 + 37, photos.count)]) }
        for batch in batches {
            apply(list.setDatesTaken(Dictionary(uniqueKeysWithValues: batch.map { ($0.id, dates[$0.id]!) })), to: &mirror)
            #expect(mirror == list.all.map(\.id))
        }
        let expected = photos.map { p -> Photo in var q = p; q.dateTaken = dates[p.id]!; return q }
            .sorted(by: PhotoOrder.newestFirst.areInIncreasingOrder)
        #expect(list.all == expected)
        for (i, p) in list.all.enumerated() { #expect(list.index(of: p.id) == i) }
    }
}
