import Testing
@testable import PhotoCore

@Suite struct SortOrderTests {
    private let photos = [
        photo("c.jpg", modified: 300),
        photo("a.jpg", modified: 200),
        photo("b.jpg", modified: 100),
    ]

    private func names(_ photos: [Photo], _ order: PhotoOrder) -> [String] {
        photos.sorted(by: order.areInIncreasingOrder).map(\.displayName)
    }

    @Test func modifiedOrderIsOldestFirst() {
        #expect(names(photos, PhotoOrder(key: .modified)) == ["b.jpg", "a.jpg", "c.jpg"])
    }

    @Test func reversedModifiedOrderIsNewestFirst() {
        #expect(names(photos, PhotoOrder(key: .modified, reversed: true)) == ["c.jpg", "a.jpg", "b.jpg"])
    }

    @Test func reversedNameOrderIsDescending() {
        #expect(names(photos, PhotoOrder(key: .name, reversed: true)) == ["c.jpg", "b.jpg", "a.jpg"])
        #expect(names(photos, .byName) == ["a.jpg", "b.jpg", "c.jpg"])
    }

    @Test func equalTimesAreOrderedByNameThenURI() {
        let tied = [
            photo("b.jpg", modified: 5),
            photo("A.jpg", modified: 5, id: "file:///photos/z/A.jpg"),
            photo("a.jpg", modified: 5, id: "file:///photos/y/a.jpg"),
        ]
        let ids = tied.sorted(by: PhotoOrder(key: .modified).areInIncreasingOrder).map(\.id)
        #expect(ids == ["file:///photos/y/a.jpg", "file:///photos/z/A.jpg", "file:///photos/b.jpg"])
        // The tie-break does not flip when the primary key is reversed.
        let reversedIDs = tied.sorted(by: PhotoOrder(key: .modified, reversed: true).areInIncreasingOrder).map(\.id)
        #expect(reversedIDs == ids)
    }

    @Test(arguments: [PhotoOrder(key: .name), PhotoOrder(key: .name, reversed: true),
                      PhotoOrder(key: .modified), PhotoOrder(key: .modified, reversed: true)])
    func orderIsTotalAndIndependentOfInputOrder(_ order: PhotoOrder) {
        var rng = SeededGenerator(seed: 7)
        let pool = (0..<60).map { i in
            photo(["img\(i % 7)", "IMG\(i % 7)", "img0\(i % 7)", "x"][i % 4], modified: Int64(i % 5), id: "file:///p/\(i)")
        }
        let first = pool.shuffled(using: &rng).sorted(by: order.areInIncreasingOrder).map(\.id)
        let second = pool.shuffled(using: &rng).sorted(by: order.areInIncreasingOrder).map(\.id)
        #expect(first == second)
        for a in pool {
            #expect(!order.areInIncreasingOrder(a, a))
        }
    }
}
