/// An album of the person's own: photos from any folder, listed by their URIs in the order
/// they were added (each once), under a title. Shown as `AlbumID.collection(id)`.
///
/// A value: every change (`adding`, `removing`, `restoring`, `renamed`) returns a new one
/// and leaves this one as it was. Times are microseconds since the Unix epoch, as a
/// `Photo`'s. Stored by PhotoIO's `CollectionStore` as a `CollectionDocument`.
public struct PhotoCollection: Sendable, Equatable, Identifiable {
    /// The most photos one album holds.
    public static let maximumPhotos = 1_000_000

    /// Stable and random, safe as a file name (`isValidID`); the document's name is `ID.json`.
    public let id: String
    /// What the switcher says (see `CollectionTitle`).
    public private(set) var title: String
    /// The photos' URIs (`file:///…`) in the order they were added, without repeats.
    public private(set) var photos: [String]
    /// When the album was made.
    public let created: Int64
    /// When it last changed (title or photos).
    public private(set) var modified: Int64

    /// An album as it is: the values are taken as they come (a document's parser and the
    /// store check them; `make` checks them for a new album).
    public init(id: String, title: String, photos: [String], created: Int64, modified: Int64) {
        self.id = id
        self.title = title
        self.photos = photos
        self.created = created
        self.modified = modified
    }

    /// A new album titled `title` (normalized, see `CollectionTitle`) holding `photos`
    /// (repeats left out), or why not. `taken`: the other albums' titles.
    public static func make(
        title: String, photos: [String] = [], among taken: some Sequence<String>, now: Int64, id: String = PhotoCollection.newID()
    ) throws(CollectionProblem) -> PhotoCollection {
        let title = try CollectionTitle.validated(title, among: taken)
        return try PhotoCollection(id: id, title: title, photos: [], created: now, modified: now).adding(photos, now: now)
    }

    /// A new random id: 32 lowercase hexadecimal digits (128 bits).
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `id` can name an album (and its file): 1 to 64 ASCII letters, digits, "-"
    /// and "_". Ids this app makes are `newID()`'s; others (written by hand) are accepted.
    public static func isValidID(_ id: String) -> Bool {
        let bytes = id.utf8
        return (1...64).contains(bytes.count) && bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    /// Whether `uri` can be a photo of an album: a local file's URI as GLib writes it
    /// (`file:///`, printable ASCII without spaces, quotes or backslashes, which GLib
    /// escapes; well-formed `%XX` escapes), at most 64 KiB.
    public static func isFileURI(_ uri: String) -> Bool {
        let bytes = Array(uri.utf8)
        guard bytes.count <= 65_536, bytes.starts(with: Array("file:///".utf8)) else { return false }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { return false }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else { return false }
                index += 3
            } else {
                index += 1
            }
        }
        return true
    }

    // MARK: - Changes

    /// This album with `uris` added at the end, in order; those it holds already (and
    /// repeats among `uris`) are left out. Unchanged (the same `modified`) when nothing is
    /// new. Refused whole when a URI is not a local file's or the album would grow past
    /// `maximumPhotos`.
    public func adding(_ uris: [String], now: Int64) throws(CollectionProblem) -> PhotoCollection {
        if let wrong = uris.first(where: { !Self.isFileURI($0) }) { throw .notAFileURI(wrong) }
        var present = Set(photos)
        let new = uris.filter { present.insert($0).inserted }
        if new.isEmpty { return self }
        if photos.count + new.count > Self.maximumPhotos { throw .tooManyPhotos }
        var changed = self
        changed.photos += new
        changed.modified = now
        return changed
    }

    /// This album without `uris` (those it does not hold are ignored), and what to give
    /// `restoring` to put them back where they were. Unchanged when it held none of them.
    public func removing(_ uris: some Sequence<String>, now: Int64) -> (PhotoCollection, CollectionRemoval) {
        let gone = Set(uris)
        var removed: [CollectionRemoval.Photo] = []
        var kept: [String] = []
        kept.reserveCapacity(photos.count)
        for (index, uri) in photos.enumerated() {
            if gone.contains(uri) {
                removed.append(CollectionRemoval.Photo(uri: uri, index: index))
            } else {
                kept.append(uri)
            }
        }
        let removal = CollectionRemoval(collectionID: id, photos: removed)
        if removed.isEmpty { return (self, removal) }
        var changed = self
        changed.photos = kept
        changed.modified = now
        return (changed, removal)
    }

    /// This album with each photo of `renamed` (`renamed[old URI] = new URI`: the app renamed
    /// its file) under its new URI, at the same place. Unchanged when it holds none of them; a
    /// new URI the album holds already stays where it is and the old one goes.
    public func renaming(_ renamed: [String: String], now: Int64) -> PhotoCollection {
        guard photos.contains(where: { renamed[$0] != nil }) else { return self }
        var present = Set(photos)
        var changed = self
        changed.photos = photos.compactMap { uri in
            guard let new = renamed[uri] else { return uri }
            present.remove(uri)
            return present.insert(new).inserted ? new : nil
        }
        changed.modified = now
        return changed
    }

    /// This album with the photos of `removal` back at the places they had (as far as the
    /// album still reaches), as if inserted one by one in their first order: undoing a
    /// removal returns the album as it was. A photo back under another URI (a file restored
    /// from the trash beside a newer one, "NAME (2).jpg") is given as `renamed[old] = new`.
    /// Photos the album holds again already are skipped. Refused when it would grow past
    /// `maximumPhotos`.
    public func restoring(_ removal: CollectionRemoval, renamed: [String: String] = [:], now: Int64) throws(CollectionProblem) -> PhotoCollection {
        var present = Set(photos)
        let back = removal.photos.sorted { $0.index < $1.index }.compactMap { photo -> CollectionRemoval.Photo? in
            let uri = renamed[photo.uri] ?? photo.uri
            guard Self.isFileURI(uri), present.insert(uri).inserted else { return nil }
            return CollectionRemoval.Photo(uri: uri, index: photo.index)
        }
        if back.isEmpty { return self }
        if photos.count + back.count > Self.maximumPhotos { throw .tooManyPhotos }
        var merged: [String] = []
        merged.reserveCapacity(photos.count + back.count)
        var rest = photos[...]
        for photo in back {
            while merged.count < photo.index, let next = rest.popFirst() { merged.append(next) }
            merged.append(photo.uri)
        }
        merged += rest
        var changed = self
        changed.photos = merged
        changed.modified = now
        return changed
    }

    /// This album under `title` (normalized), or why not (empty, too long, or another
    /// album's: `taken` are the others' titles). Unchanged when the title is the same.
    public func renamed(to title: String, among taken: some Sequence<String>, now: Int64) throws(CollectionProblem) -> PhotoCollection {
        let normalized = try CollectionTitle.validated(title)
        if normalized == self.title { return self }
        var changed = self
        changed.title = try CollectionTitle.validated(normalized, among: taken)
        changed.modified = now
        return changed
    }

    // MARK: - The switcher

    /// How the switcher lists it: its title, how many photos it lists (found or not), and
    /// as its cover the newest (date taken, else modified) of the photos `describe` knows.
    /// The album holds only URIs: `describe` gives what the app knows of a photo (from
    /// its listings, or a lookup), nil for one it does not know or that is missing.
    public func summary(describing describe: (String) -> Photo?) -> AlbumSummary {
        var cover: Photo?
        for uri in photos {
            guard let photo = describe(uri) else { continue }
            if cover.map({ photo.dateTakenOrModified > $0.dateTakenOrModified }) ?? true { cover = photo }
        }
        return AlbumSummary(id: .collection(id), title: title, count: photos.count, cover: cover, newest: cover?.dateTakenOrModified)
    }

    /// The switcher's order of these albums: by title as a person reads it ("Trip 2"
    /// before "Trip 10"), then by id.
    public static func switcherOrder(_ a: PhotoCollection, _ b: PhotoCollection) -> Bool {
        let (keyA, keyB) = (NaturalSortKey(a.title), NaturalSortKey(b.title))
        return keyA != keyB ? keyA < keyB : a.id < b.id
    }
}

/// Photos taken out of one album, each with the place it had, so that `restoring` can put
/// them back: the app removes a photo it moves to the trash from every album, and Undo
/// restores the file and these.
public struct CollectionRemoval: Sendable, Equatable {
    public struct Photo: Sendable, Equatable {
        public let uri: String
        /// Its index in the album before the removal.
        public let index: Int

        public init(uri: String, index: Int) {
            self.uri = uri
            self.index = index
        }
    }

    public let collectionID: String
    /// In the album's order.
    public let photos: [Photo]

    public init(collectionID: String, photos: [Photo]) {
        self.collectionID = collectionID
        self.photos = photos
    }

    public var isEmpty: Bool { photos.isEmpty }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }
}
