/// A set of photos' URIs (or any strings) held as their 64-bit hashes: 8 bytes a member in
/// the table where a `Set<String>` takes 16, for the sets that name every photo of a folder
/// (100,000 photos: 2 MB against 4, and as much again while the table doubles). The strings
/// are not kept; a string whose hash is a member's is taken for a member: with 100,000
/// members the chance that any other string of a folder is is about one in 10^9 (the hash is
/// Swift's, seeded for each process, so a pair of URIs that collided would not collide in the
/// next run).
public struct URIHashes: Sendable {
    private var hashes: Set<Int> = []

    public init() {}

    public var count: Int { hashes.count }
    public var isEmpty: Bool { hashes.isEmpty }

    public func contains(_ uri: String) -> Bool { hashes.contains(uri.hashValue) }

    /// Adds `uri`; false when it was a member.
    @discardableResult
    public mutating func insert(_ uri: String) -> Bool { hashes.insert(uri.hashValue).inserted }

    @discardableResult
    public mutating func remove(_ uri: String) -> Bool { hashes.remove(uri.hashValue) != nil }

    /// Room for `count` members in all, so that adding a folder's photos grows the table once.
    public mutating func reserveCapacity(_ count: Int) { hashes.reserveCapacity(count) }

    /// Adds the photos' URIs, by the hashes made when their files were listed (`Photo.idHash`,
    /// the same as a URI's here): no URI hashed again.
    public mutating func formUnion(_ photos: [Photo]) {
        hashes.reserveCapacity(hashes.count + photos.count)
        // Read in place: a photo copied out of the array costs a reference count.
        photos.withUnsafeBufferPointer { photos in
            for index in photos.indices { hashes.insert(photos[index].idHash) }
        }
    }

    /// Those of `photos` whose URIs are not members, in their order (the array itself when
    /// none is a member).
    public func notContained(in photos: [Photo]) -> [Photo] {
        guard !hashes.isEmpty else { return photos }
        let missing = photos.withUnsafeBufferPointer { photos in
            photos.indices.filter { !hashes.contains(photos[$0].idHash) }
        }
        return missing.count == photos.count ? photos : missing.map { photos[$0] }
    }

    public mutating func formUnion(_ uris: some Sequence<String>) {
        for uri in uris { hashes.insert(uri.hashValue) }
    }

    public mutating func subtract(_ uris: some Sequence<String>) {
        for uri in uris { hashes.remove(uri.hashValue) }
    }
}
