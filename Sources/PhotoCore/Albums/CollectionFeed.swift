import Foundation

/// What an album of the person's own gave its page, and what changes when its photos are
/// looked up again (`AlbumPhotoLookups`): a photo found is fed as it is, one not found as a
/// placeholder (`Photo.isNotFound`) that its tile shows as not found, one still being
/// looked up not yet. `CollectionSource` keeps one for its page.
public struct CollectionFeed: Sendable {
    /// What is known of one of the album's photos.
    public enum Lookup: Sendable, Equatable {
        case found(Photo)
        case missing
        case pending
    }

    /// What the page's album is to do.
    public struct Change: Sendable, Equatable {
        /// Photos to remove: no longer in the album.
        public var gone = Set<String>()
        /// Photos to insert: new, found again, gone missing or changed (a new value: the grid
        /// rebinds its tile), in the album's order.
        public var changed: [Photo] = []
        /// Whether every photo has been looked up (the album is listed).
        public var isComplete = false
        /// How many photos the page shows.
        public var count = 0
    }

    /// What the page was given, by URI.
    public private(set) var fed: [String: Photo] = [:]
    /// The photos not found, by URI.
    public private(set) var missing = Set<String>()

    public init() {}

    /// The album now holding `uris`, each as `lookup` says.
    public mutating func update(_ uris: [String], lookup: (String) -> Lookup) -> Change {
        var wanted: [String: Photo] = [:]
        var order: [String] = []
        var change = Change()
        var pending = 0
        for uri in uris where wanted[uri] == nil {
            switch lookup(uri) {
            case .found(let photo): wanted[uri] = photo
            case .missing: wanted[uri] = Self.placeholder(for: uri)
            case .pending:
                pending += 1
                continue
            }
            order.append(uri)
        }
        missing = Set(wanted.filter { $0.value.isNotFound }.keys)
        change.gone = Set(fed.keys).subtracting(wanted.keys)
        change.changed = order.compactMap { uri in wanted[uri].flatMap { fed[uri] != $0 ? $0 : nil } }
        change.isComplete = pending == 0
        change.count = wanted.count
        fed = wanted
        return change
    }

    /// Forgets photos the page removed itself (moved to the trash, say).
    public mutating func forget(_ ids: Set<String>) {
        for id in ids { fed[id] = nil }
    }

    /// A photo not found: its URI and file name, no size (`Photo.isNotFound`).
    public static func placeholder(for uri: String) -> Photo {
        let last = URL(string: uri)?.lastPathComponent
        let name = last.map { $0.removingPercentEncoding ?? $0 } ?? uri
        return Photo(id: uri, displayName: name, modified: 0, size: -1, contentType: "")
    }
}

extension Photo {
    /// A photo of an album of the person's own that was not found where the album says it
    /// is (moved or deleted outside the app): `CollectionFeed`'s placeholder.
    public var isNotFound: Bool { size < 0 }
}
