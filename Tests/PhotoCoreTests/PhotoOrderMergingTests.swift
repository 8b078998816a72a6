import Testing
@testable import PhotoCore

/// `PhotoOrder.merged` gives what sorting with `areInIncreasingOrder` gives, a short list
/// merged into a long one from either side or lists of like sizes, on photos whose keys tie
/// (same time, names sharing their first 16 bytes, the same name in other folders).
@Suite struct PhotoOrderMergingTests {
    static let orders = [PhotoOrder(key: .name), PhotoOrder(key: .name, reversed: true),
                         PhotoOrder(key: .modified), PhotoOrder(key: .modified, reversed: true),
                         PhotoOrder(key: .dateTaken), PhotoOrder.newestFirst]

    /// Photos with many ties: a few times, names sharing long prefixes, repeated names.
    private func pool(_ count: Int, seed: UInt64) -> [Photo] {
        var rng = SeededGenerator(seed: seed)
        let stems = ["IMG_", "img_", "photo-0", "a-very-long-photo-name-", "Ü-", "x"]
        return (0..<count).map { i in
            let stem = stems[Int(rng.next() % UInt64(stems.count))]
            let name = "\(stem)\(rng.next() % 40).jpg"
            let modified = [Int64.min + 1, -5, 0, 7, Int64.max][Int(rng.next() % 5)]
            var photo = photo(name, modified: modified, id: "file:///p/\(rng.next() % 3)/\(i)/\(name)")
            if rng.next() % 3 == 0 { photo.dateTaken = Int64(rng.next() % 4) }
            return photo
        }
    }

    @Test(arguments: orders)
    func mergedIsTheSameAsSortingBoth(_ order: PhotoOrder) {
        // Short against long on either side, and lists of like sizes.
        for (a, b, seed) in [(0, 10, 1), (10, 0, 2), (3, 2000, 3), (2000, 3, 4), (1, 1, 5), (300, 400, 6), (60, 1000, 7)] as [(Int, Int, UInt64)] {
            let all = pool(a + b, seed: seed)
            let first = Array(all[..<a]).sorted(by: order.areInIncreasingOrder)
            let second = Array(all[a...]).sorted(by: order.areInIncreasingOrder)
            let expected = all.sorted(by: order.areInIncreasingOrder).map(\.id)
            var (x, y) = (first, second)
            #expect(order.merged(&x, &y).map(\.id) == expected)
            (x, y) = (second, first)
            #expect(order.merged(&x, &y).map(\.id) == expected)
        }
    }
}
