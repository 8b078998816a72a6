/// Where each photo of a `FolderTree` is (its folder's number and its place among that
/// folder's photos), by id: one table over every photo of the tree.
///
/// An open-addressing table (linear probing, the gap a removal leaves closed by shifting back
/// the entries after it) that keeps each id's hash beside it: a photo comes with the hash its
/// id got when it was listed (`Photo.idHash`) and an id alone is hashed once per look-up
/// (`Key`), two ids are told apart by their hashes before their bytes, and the table grows
/// without hashing anything again, so a walk's 100,000 photos go in hashing no string on the
/// main thread, where a `Dictionary` of ids hashed each one per look-up and per growth.
struct FolderTreeSlots: Sendable {
    struct Slot: Sendable, Equatable {
        var folder: Int32
        var index: Int32
    }

    /// An id with its hash, worked out once for a look-up and the change that follows it.
    struct Key {
        let id: String
        /// The id's hash, never 0 (which marks an empty entry).
        let hash: Int

        init(_ id: String) {
            self.init(id, hash: id.photoIDHash)
        }

        /// A photo's id, with the hash it got when it was listed (`Photo.idHash`): nothing
        /// is hashed on the thread that merges it.
        init(_ photo: Photo) {
            self.init(photo.id, hash: photo.idHash)
        }

        private init(_ id: String, hash: Int) {
            self.id = id
            self.hash = hash == 0 ? 1 : hash
        }
    }

    private struct Entry: Sendable {
        /// 0 for an empty entry.
        var hash: Int
        var id: String
        var slot: Slot

        static let empty = Entry(hash: 0, id: "", slot: Slot(folder: 0, index: 0))
    }

    /// A power of two entries (or none), at most three quarters of them used.
    private var entries: [Entry] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Where the photo with this id is, nil when the tree does not hold it.
    subscript(id: String) -> Slot? {
        get { self[Key(id)] }
        set { self[Key(id)] = newValue }
    }

    subscript(key: Key) -> Slot? {
        get {
            guard let index = find(key).found else { return nil }
            return entries[index].slot
        }
        set {
            if let newValue {
                set(newValue, for: key)
            } else {
                remove(key)
            }
        }
    }

    /// Makes room for `capacity` photos, so that so many go in without the table growing.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = max(entries.count, 16)
        while capacity > size / 4 * 3 { size *= 2 }
        if size != entries.count { resize(to: size) }
    }

    private mutating func set(_ slot: Slot, for key: Key) {
        if entries.isEmpty { resize(to: 16) }
        var (found, free) = find(key)
        if let found {
            entries[found].slot = slot
            return
        }
        if count + 1 > entries.count / 4 * 3 {
            resize(to: entries.count * 2)
            free = find(key).free
        }
        entries[free] = Entry(hash: key.hash, id: key.id, slot: slot)
        count += 1
    }

    private mutating func remove(_ key: Key) {
        guard var gap = find(key).found else { return }
        let mask = entries.count - 1
        var next = gap
        while true {
            next = (next + 1) & mask
            let hash = entries[next].hash
            if hash == 0 { break }
            // The entry stays unless the gap lies between its home and where it is.
            let home = hash & mask
            let stays = gap <= next ? (gap < home && home <= next) : (gap < home || home <= next)
            if stays { continue }
            entries[gap] = entries[next]
            gap = next
        }
        entries[gap] = .empty
        count -= 1
    }

    /// The entry holding `key` if any, else the empty entry where it would go.
    private func find(_ key: Key) -> (found: Int?, free: Int) {
        guard !entries.isEmpty else { return (nil, 0) }
        let mask = entries.count - 1
        var index = key.hash & mask
        while true {
            let hash = entries[index].hash
            if hash == 0 { return (nil, index) }
            if hash == key.hash && entries[index].id == key.id { return (index, index) }
            index = (index + 1) & mask
        }
    }

    private mutating func resize(to size: Int) {
        var old = Array(repeating: Entry.empty, count: size)
        swap(&old, &entries)
        let mask = size - 1
        // Each entry is moved (swapped with an empty one), its id not copied.
        for moved in old.indices where old[moved].hash != 0 {
            var index = old[moved].hash & mask
            while entries[index].hash != 0 { index = (index + 1) & mask }
            swap(&entries[index], &old[moved])
        }
    }
}
