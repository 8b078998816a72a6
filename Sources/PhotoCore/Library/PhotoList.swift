/// The photos of one folder in display order.
///
/// The list is the model behind the grid and the viewer. It changes by whole batches
/// (a listing streams in, files appear and vanish) and reports each change as one
/// `Splice`, which the GTK list model mirrors without re-laying-out unchanged tiles.
public struct PhotoList: Sendable {
    /// A change of the display order: at `position`, the ids `removedIDs` (in their old
    /// order) were replaced by `inserted`.
    public struct Splice: Sendable, Equatable {
        public let position: Int
        public let removedIDs: [String]
        public let inserted: [String]
        /// How many entries were removed.
        public var removed: Int { removedIDs.count }

        public init(position: Int, removedIDs: [String], inserted: [String]) {
            self.position = position
            self.removedIDs = removedIDs
            self.inserted = inserted
        }
    }

    public private(set) var order: PhotoOrder
    private var photos: [Photo] = []
    /// Each photo's place, by id.
    private var places = PhotoPlaces()

    public init(order: PhotoOrder = .byName) {
        self.order = order
    }

    public var count: Int { photos.count }
    public var isEmpty: Bool { photos.isEmpty }
    public subscript(index: Int) -> Photo { photos[index] }
    public var all: [Photo] { photos }

    public func photo(id: String) -> Photo? {
        index(of: id).map { photos[$0] }
    }

    public func index(of id: String) -> Int? { places.place(of: id, hash: id.photoIDHash, in: photos) }

    /// The place of a photo with `photo`'s id.
    private func place(of photo: Photo) -> Int? { places.place(of: photo.id, hash: photo.idHash, in: photos) }

    /// Adds photos (replacing any with the same id) and returns the one splice that
    /// brings a mirror of the old order to the new one, or nil when nothing changed.
    /// A photo replaced by a different value (a newer modification time, a new size) is
    /// part of the splice even where it keeps its place, so the mirror rebinds it.
    ///
    /// A replacement without a date taken keeps the date already known for that id when
    /// its modification time and size are unchanged (the file is the same), so a listing
    /// that runs again does not undo the dates read since.
    @discardableResult
    public mutating func insert(_ batch: [Photo]) -> Splice? {
        guard !batch.isEmpty else { return nil }
        // The batch without repeated ids (the last of each wins), found by the ids' hashes
        // made when the files were listed: no id is hashed here.
        var incoming: [Photo] = []
        incoming.reserveCapacity(batch.count)
        var incomingPlaces = PhotoPlaces(capacity: batch.count)
        for photo in batch.reversed() where incomingPlaces.place(of: photo.id, hash: photo.idHash, in: incoming) == nil {
            incomingPlaces.add(incoming.count, hash: photo.idHash)
            incoming.append(photo)
        }
        // The places of the photos the batch replaces: each of the batch looked up in the list,
        // or, for a batch larger than the list (a listing's photos joining its first screen),
        // each of the list looked up in the batch.
        var replaced: [(place: Int, by: Int)] = []
        if !photos.isEmpty {
            if incoming.count <= photos.count {
                for (k, photo) in incoming.enumerated() {
                    if let place = place(of: photo) { replaced.append((place, k)) }
                }
            } else {
                for (place, photo) in photos.enumerated() {
                    if let k = incomingPlaces.place(of: photo.id, hash: photo.idHash, in: incoming) { replaced.append((place, k)) }
                }
            }
        }
        var kept = photos
        if !replaced.isEmpty {
            var isReplaced = [Bool](repeating: false, count: photos.count)
            for (place, k) in replaced {
                isReplaced[place] = true
                let known = photos[place]
                if incoming[k].dateTaken == nil, known.modified == incoming[k].modified, known.size == incoming[k].size {
                    incoming[k].dateTaken = known.dateTaken
                }
            }
            kept = []
            kept.reserveCapacity(photos.count - replaced.count)
            for (place, photo) in photos.enumerated() where !isReplaced[place] { kept.append(photo) }
        }
        order.sort(&incoming)
        return apply(order.merged(&kept, &incoming))
    }

    /// Removes photos by id; returns the splice, or nil when none of them was present.
    @discardableResult
    public mutating func remove(ids: Set<String>) -> Splice? {
        let gone = ids.compactMap { index(of: $0) }
        guard !gone.isEmpty else { return nil }
        var isGone = [Bool](repeating: false, count: photos.count)
        for place in gone { isGone[place] = true }
        var rest: [Photo] = []
        rest.reserveCapacity(photos.count - gone.count)
        for (place, photo) in photos.enumerated() where !isGone[place] { rest.append(photo) }
        return apply(rest)
    }

    /// Records when photos were taken (nil: the file records no date), as they are read in
    /// the background, batch after batch. Ids not in the list are ignored (the photo was
    /// removed meanwhile).
    ///
    /// In date-taken order the photos whose dates changed move to their new places and the
    /// one splice that brings a mirror along is returned (or nil when nothing moved). In
    /// any other order the dates are stored silently and the result is nil. A photo whose
    /// date changed but whose place did not is not part of the splice: a tile shows no date.
    ///
    /// Costs O(n + k log k) for k dates, so a progressive re-sort every batch stays cheap.
    @discardableResult
    public mutating func setDatesTaken(_ dates: [String: Int64?]) -> Splice? {
        var changed: [Int] = []
        for (id, date) in dates {
            guard let i = index(of: id), photos[i].dateTaken != date else { continue }
            photos[i].dateTaken = date
            changed.append(i)
        }
        guard !changed.isEmpty, order.key == .dateTaken else { return nil }

        // Every other photo kept its sort key, so what remains is still in order: sort the
        // changed ones and merge them back in.
        var isMoving = [Bool](repeating: false, count: photos.count)
        for i in changed { isMoving[i] = true }
        var kept: [Photo] = []
        kept.reserveCapacity(photos.count - changed.count)
        for (i, p) in photos.enumerated() where !isMoving[i] { kept.append(p) }
        var incoming = changed.map { photos[$0] }
        order.sort(&incoming)
        return apply(order.merged(&kept, &incoming))
    }

    /// Re-sorts the whole list.
    @discardableResult
    public mutating func sort(by newOrder: PhotoOrder) -> Splice? {
        order = newOrder
        return apply(newOrder.sorted(photos))
    }

    /// Shows `kept` instead: photos of this list, or of a list in the same order that this
    /// one is a part of (a search's result, in the album's order). One splice.
    @discardableResult
    public mutating func replace(with kept: [Photo]) -> Splice? { apply(kept) }

    /// Becomes `other` (the album's whole list, a search cleared), its order and its index
    /// taken as they are: no photo is looked up. One splice.
    @discardableResult
    public mutating func replace(with other: PhotoList) -> Splice? {
        let (prefix, suffix) = Self.unchanged(photos, other.photos)
        let splice = Self.splice(photos, other.photos, prefix: prefix, suffix: suffix)
        self = other
        return splice
    }

    /// Replaces the contents with `new` and describes the change as one splice covering
    /// everything between the first and the last position that differ (in id or in value).
    private mutating func apply(_ new: [Photo]) -> Splice? {
        let old = photos
        let (prefix, suffix) = Self.unchanged(old, new)
        photos = new
        // The places stay when every place holds the photo of the same id as before (values
        // changed, a date read); otherwise they are made again, which hashes no id.
        let span = prefix..<(old.count - suffix)
        if old.count != new.count || !span.allSatisfy({ old[$0].identity == new[$0].identity || old[$0].id == new[$0].id }) {
            places = PhotoPlaces(new)
        }
        return Self.splice(old, new, prefix: prefix, suffix: suffix)
    }

    /// How many photos are the same at the start and at the end of both lists.
    private static func unchanged(_ old: [Photo], _ new: [Photo]) -> (prefix: Int, suffix: Int) {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        return (prefix, suffix)
    }

    private static func splice(_ old: [Photo], _ new: [Photo], prefix: Int, suffix: Int) -> Splice? {
        let removed = old[prefix..<(old.count - suffix)].map(\.id)
        let inserted = new[prefix..<(new.count - suffix)].map(\.id)
        if removed.isEmpty && inserted.isEmpty { return nil }
        return Splice(position: prefix, removedIDs: removed, inserted: inserted)
    }
}
