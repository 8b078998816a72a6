/// Where each photo of a list is, by id: an open-addressed table of places in the list,
/// probed by the hash each photo's id got when it was listed (`Photo.idHash`), so that
/// indexing a list hashes no string. A table keyed by the ids themselves hashed every id of
/// a 100,000-photo list each time the list was indexed again (about 35 ms, 3 MB); this one
/// takes a few milliseconds and 4 bytes a slot.
///
/// The table holds places only: a lookup compares the id at a place it probes, so it is
/// asked with the list it indexes.
struct PhotoPlaces: Sendable {
    /// A place in the list per slot, `empty` for none; a power of two long, at most half full.
    private var slots: [Int32] = []
    private static let empty: Int32 = -1

    init() {}

    /// An empty table with room for `count` photos (`add`).
    init(capacity count: Int) {
        var size = 16
        while size < count * 2 { size *= 2 }
        slots = Array(repeating: Self.empty, count: size)
    }

    /// The places of `photos`, whose ids are all different.
    init(_ photos: [Photo]) {
        self.init(capacity: photos.count)
        for (place, photo) in photos.enumerated() { add(place, hash: photo.idHash) }
    }

    /// The place of the photo whose id is `id` (hashed: `hash`, as `Photo.idHash`) in `photos`.
    func place(of id: String, hash: Int, in photos: [Photo]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let place = slots[slot]
            if place == Self.empty { return nil }
            let photo = photos[Int(place)]
            if photo.idHash == hash, photo.id == id { return Int(place) }
            slot = (slot + 1) & mask
        }
    }

    /// Records the photo at `place`, whose id (hashed: `hash`) is not in the table yet; the
    /// table has room for it (`init(capacity:)`).
    mutating func add(_ place: Int, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = Int32(place)
    }
}

extension String {
    /// The hash `Photo.idHash` holds for an id: this process's own (Swift's seeded hash, so
    /// that names made to collide cannot be planned).
    var photoIDHash: Int { hashValue }
}
