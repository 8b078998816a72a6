import Foundation

/// What a photo's EXIF says that a search looks at: the camera ("" for none) and the date
/// taken (µs, `ExifDate`; nil for none).
public struct ExifFacts: Sendable, Equatable {
    public var camera: String
    public var taken: Int64?

    public init(camera: String, taken: Int64?) {
        self.camera = camera
        self.taken = taken
    }

    /// No camera, no date: what a corpus takes a photo whose facts are not known for.
    public static let none = ExifFacts(camera: "", taken: nil)
}

/// What searches look at of every photo of a folder, kept on the search worker from one key
/// to the next: each photo's name, folder, camera, tags and place names folded (no case, no accents) into
/// one buffer of UTF-8 bytes, and its favourite, stars, kind and date in arrays, all by the
/// photo's place in the corpus. A search is a scan of the buffer for each word and a pass
/// over the arrays: no photo is looked up by its URI. Made once, when a folder is first
/// searched, then kept up to date by the changes the main thread saw, in their order
/// (`apply`): the album's photos as a search found them, marks and facts read or set.
public struct SearchCorpus: Sendable {
    /// A change, in the order the main thread saw it.
    public enum Change: Sendable {
        /// An album's photos now (`generation`: `AlbumContents.generation`), in its order,
        /// with marks and facts known (every photo's, the first time; none after): photos
        /// new to the corpus take theirs from what it was told, changes after come as
        /// `marks` and `facts`.
        case album(ObjectIdentifier, generation: Int, photos: [Photo], marks: [String: PhotoMarks], facts: [String: ExifFacts])
        case marks(uri: String, PhotoMarks)
        case facts([(uri: String, facts: ExifFacts)])
    }

    /// An album as a search sees it: its photos in its order, and the place of each in the corpus.
    struct Album: Sendable {
        let id: ObjectIdentifier
        let generation: Int
        let photos: [Photo]
        let positions: [Int32]
    }

    /// What a search keeps of an album: its photos (as told last, in its order) and, for
    /// each, whether the search keeps it.
    public struct Found: Sendable {
        public let photos: [Photo]
        public let kept: [Bool]
        /// The album's `generation` when its photos were told.
        public let generation: Int

        /// The identities (`Photo.identity`) of the photos kept (`keep`), or of those left out.
        public func identities(kept keep: Bool, count: Int) -> Set<ObjectIdentifier> {
            var identities = Set<ObjectIdentifier>(minimumCapacity: count)
            photos.withUnsafeBufferPointer { photos in
                for n in photos.indices where kept[n] == keep { identities.insert(photos[n].identity) }
            }
            return identities
        }
    }

    /// The folder opened: a photo's folder is searched by its path below it.
    public let top: String
    /// The albums told last, the latest first (a few: the window's pages).
    private var albums: [Album] = []
    /// How many albums it keeps; the one told longest ago goes first.
    public static let albumsKept = 4

    // By place in the corpus. A photo gone stays (its place is never reused): searches are
    // of an album's photos, each found by its place.
    private var photos: [Photo] = []
    private var favourite: [Bool] = []
    private var rating: [UInt8] = []
    private var isVideo: [Bool] = []
    /// The date taken the EXIF facts say (µs; `noDate`), when the photo's own is not known.
    private var factsTaken: [Int64] = []
    private var camera: [String] = []
    private var tags: [[String]] = []
    /// The place names of the few photos that have them (64 bytes a photo, kept for all,
    /// would be 6 MB on 100,000).
    private var placesOf: [Int32: PlaceNames] = [:]
    private var segmentOf: [Int32] = []
    /// The place of each photo by its URI, for the marks and facts told by URI: made after
    /// the photos are added (`indexURIs`, or as such a change first comes), not as they are,
    /// so that a search asked meanwhile does not wait for 100,000 URIs hashed. Holds the
    /// photos below `uriIndexed`.
    private var placeOfURI: [String: Int32] = [:]
    private var uriIndexed = 0
    /// The place of each photo by its identity, for an album told again in another order:
    /// made then (`place(of:)`), not as photos are added, like `placeOfURI`. Holds the
    /// photos below `identitiesIndexed`.
    private var placeOfPhoto: [ObjectIdentifier: Int32] = [:]
    private var identitiesIndexed = 0
    /// Marks and facts told of photos no album told held then, for when one does: the main
    /// thread hands every photo's over once, not at each album told.
    private var marksOfUnplaced: [String: PhotoMarks] = [:]
    private var factsOfUnplaced: [String: ExifFacts] = [:]
    /// How many of those the photos added by the changes applied now took.
    private var marksPlaced = 0
    private var factsPlaced = 0

    // The folded text: each photo's in a segment of `text` ending in "\n" (a word holds no
    // whitespace, so no word is found across two photos). A photo's text that changes is
    // written anew at the end; its old segment is left, owned by no one, until they are
    // more than the rest (`compact`).
    private var text: [UInt8] = []
    private var segmentStart: [Int32] = []
    private var segmentOwner: [Int32] = []
    private var unownedBytes = 0

    private static let noDate = Int64.min
    /// `PhotoSearch.folded` of the folder last made into text, while photos of one folder follow each other.
    private var lastFolder: (parent: Substring, folded: [UInt8])?

    public init(top: String) {
        self.top = top
    }

    /// How many photos the corpus holds (those gone included).
    public var count: Int { photos.count }

    // MARK: Changes

    public mutating func apply(_ changes: [Change]) {
        let placedBefore = photos.count
        // Of several snapshots of one album, the last says all that the others did.
        var lastOfAlbum: [ObjectIdentifier: Int] = [:]
        for (n, change) in changes.enumerated() {
            if case .album(let id, _, _, _, _) = change { lastOfAlbum[id] = n }
        }
        for (n, change) in changes.enumerated() {
            switch change {
            case .album(let id, let generation, let photos, let marks, let facts):
                // Every photo's, once: taken as they are, those of photos placed already
                // left out below.
                if marksOfUnplaced.isEmpty, self.photos.isEmpty { marksOfUnplaced = marks } else {
                    for (uri, marks) in marks where place(ofURI: uri) == nil { marksOfUnplaced[uri] = marks }
                }
                if factsOfUnplaced.isEmpty, self.photos.isEmpty { factsOfUnplaced = facts } else {
                    for (uri, facts) in facts where place(ofURI: uri) == nil { factsOfUnplaced[uri] = facts }
                }
                guard lastOfAlbum[id] == n else { continue }
                sync(id, generation: generation, photos: photos)
            case .marks(let uri, let marks):
                if let place = place(ofURI: uri) { set(marks, at: Int(place)) } else { marksOfUnplaced[uri] = marks }
            case .facts(let read):
                for (uri, facts) in read {
                    if let place = place(ofURI: uri) { set(facts, at: Int(place)) } else { factsOfUnplaced[uri] = facts }
                }
            }
        }
        // What was told of photos placed now is theirs already (never looked up again: a
        // place is never given to another photo). All of it, as a whole album is told.
        if photos.count != placedBefore {
            if marksOfUnplaced.count == marksPlaced { marksOfUnplaced = [:] } else if !marksOfUnplaced.isEmpty {
                indexURIs()
                marksOfUnplaced = marksOfUnplaced.filter { placeOfURI[$0.key] == nil }
            }
            if factsOfUnplaced.count == factsPlaced { factsOfUnplaced = [:] } else if !factsOfUnplaced.isEmpty {
                indexURIs()
                factsOfUnplaced = factsOfUnplaced.filter { placeOfURI[$0.key] == nil }
            }
        }
        marksPlaced = 0
        factsPlaced = 0
        if unownedBytes > 1 << 20, unownedBytes > text.count / 2 { compact() }
    }

    /// The album's photos as they are now: each where it was when the album was told last
    /// (no look-up), else found by its identity (a value listed before), else by its URI
    /// (listed again), else added with the marks and facts told.
    private mutating func sync(_ id: ObjectIdentifier, generation: Int, photos list: [Photo]) {
        // Generations are never reused, whatever album is at the same address.
        if albums.contains(where: { $0.id == id && $0.generation == generation }) { return }
        // A new generation mostly keeps the photos where they were (a date read, photos
        // found after them): those take their places again, in a pass that compares identities.
        let before = albums.first { $0.id == id }
        var positions: [Int32] = []
        positions.reserveCapacity(list.count)
        // A first album: every photo new, none looked up, and room for all of them at once
        // rather than the tables grown again and again (photos told later are few).
        let isNew = photos.isEmpty
        if isNew { reserveCapacity(list.count) }
        for (n, photo) in list.enumerated() {
            if isNew {
                positions.append(add(photo))
            } else if let before, n < before.photos.count, before.photos[n].identity == photo.identity {
                let place = before.positions[n]
                if photos[Int(place)].dateTaken != photo.dateTaken { photos[Int(place)] = photo }
                positions.append(place)
            } else if let place = place(of: photo) {
                // The same file; its date taken may have been read since.
                if photos[Int(place)].dateTaken != photo.dateTaken { photos[Int(place)] = photo }
                positions.append(place)
            } else if let place = place(ofURI: photo.id) {
                let p = Int(place)
                placeOfPhoto[photos[p].identity] = nil
                placeOfPhoto[photo.identity] = place
                let renamed = photos[p].displayName != photo.displayName
                photos[p] = photo
                isVideo[p] = photo.contentType.hasPrefix("video/")
                if renamed { writeText(at: p) }
                positions.append(place)
            } else {
                positions.append(add(photo))
            }
        }
        albums.removeAll { $0.id == id }
        albums.insert(Album(id: id, generation: generation, photos: list, positions: positions), at: 0)
        if albums.count > Self.albumsKept { albums.removeLast() }
    }

    /// Room for `count` photos in every table.
    private mutating func reserveCapacity(_ count: Int) {
        photos.reserveCapacity(count)
        favourite.reserveCapacity(count)
        rating.reserveCapacity(count)
        isVideo.reserveCapacity(count)
        factsTaken.reserveCapacity(count)
        camera.reserveCapacity(count)
        tags.reserveCapacity(count)
        segmentOf.reserveCapacity(count)
        segmentStart.reserveCapacity(count)
        segmentOwner.reserveCapacity(count)
    }

    /// The place of the photo whose URI this is, the photos added since the last look
    /// indexed first.
    private mutating func place(ofURI uri: String) -> Int32? {
        indexURIs()
        return placeOfURI[uri]
    }

    /// The place of the photo whose identity this is, the photos added since the last look
    /// indexed first.
    private mutating func place(of photo: Photo) -> Int32? {
        if identitiesIndexed < photos.count {
            placeOfPhoto.reserveCapacity(photos.count)
            for p in identitiesIndexed..<photos.count { placeOfPhoto[photos[p].identity] = Int32(p) }
            identitiesIndexed = photos.count
        }
        return placeOfPhoto[photo.identity]
    }

    /// `placeOfURI` told the photos added since it last was: by `place(ofURI:)`, or ahead of
    /// the marks and facts told by URI (as a folder's corpus is made: the marks the index
    /// holds come seconds later, by URI, and a key typed then would wait for 100,000 URIs).
    public mutating func indexURIs() {
        guard uriIndexed < photos.count else { return }
        placeOfURI.reserveCapacity(photos.count)
        for p in uriIndexed..<photos.count { placeOfURI[photos[p].id] = Int32(p) }
        uriIndexed = photos.count
    }

    /// Adds a photo new to the corpus, with the marks and facts told of it.
    private mutating func add(_ photo: Photo) -> Int32 {
        let marks = marksOfUnplaced.isEmpty ? nil : marksOfUnplaced[photo.id]
        let facts = factsOfUnplaced.isEmpty ? nil : factsOfUnplaced[photo.id]
        if marks != nil { marksPlaced += 1 }
        if facts != nil { factsPlaced += 1 }
        return add(photo, marks: marks ?? .none, facts: facts)
    }

    private mutating func add(_ photo: Photo, marks: PhotoMarks, facts: ExifFacts?) -> Int32 {
        let place = Int32(photos.count)
        photos.append(photo)
        favourite.append(marks.favourite)
        rating.append(UInt8(marks.rating))
        isVideo.append(photo.contentType.hasPrefix("video/"))
        factsTaken.append(facts?.taken ?? Self.noDate)
        camera.append(facts?.camera ?? "")
        tags.append(marks.tags)
        if !marks.places.isEmpty { placesOf[place] = marks.places }
        segmentOf.append(-1)
        writeText(at: Int(place))
        return place
    }

    private mutating func set(_ marks: PhotoMarks, at p: Int) {
        favourite[p] = marks.favourite
        rating[p] = UInt8(marks.rating)
        if tags[p] != marks.tags || placesOf[Int32(p)] ?? .none != marks.places {
            tags[p] = marks.tags
            placesOf[Int32(p)] = marks.places.isEmpty ? nil : marks.places
            writeText(at: p)
        }
    }

    private mutating func set(_ facts: ExifFacts, at p: Int) {
        factsTaken[p] = facts.taken ?? Self.noDate
        if camera[p] != facts.camera {
            camera[p] = facts.camera
            writeText(at: p)
        }
    }

    /// Writes the photo's folded text at the end of the buffer, leaving its old segment.
    private mutating func writeText(at p: Int) {
        let old = Int(segmentOf[p])
        if old >= 0 {
            segmentOwner[old] = -1
            unownedBytes += segmentEnd(old) - Int(segmentStart[old])
        }
        segmentOf[p] = Int32(segmentStart.count)
        segmentStart.append(Int32(text.count))
        segmentOwner.append(Int32(p))
        let photo = photos[p]
        PhotoSearch.appendFolded(photo.displayName, to: &text)
        text.append(0x0A)
        let uri = photo.id
        let parent = uri[..<(uri.utf8.lastIndex(of: UInt8(ascii: "/")) ?? uri.startIndex)]
        if let lastFolder, lastFolder.parent == parent {
            text.append(contentsOf: lastFolder.folded)
        } else {
            var folded: [UInt8] = []
            PhotoSearch.appendFolded(Self.folderPath(of: uri, under: top), to: &folded)
            text.append(contentsOf: folded)
            lastFolder = (parent, folded)
        }
        text.append(0x0A)
        PhotoSearch.appendFolded(camera[p], to: &text)
        text.append(0x0A)
        for tag in tags[p] {
            PhotoSearch.appendFolded(tag, to: &text)
            text.append(0x0A)
        }
        for place in placesOf.isEmpty ? [] : placesOf[Int32(p)]?.names ?? [] {
            PhotoSearch.appendFolded(place, to: &text)
            text.append(0x0A)
        }
    }

    private func segmentEnd(_ segment: Int) -> Int {
        segment + 1 < segmentStart.count ? Int(segmentStart[segment + 1]) : text.count
    }

    /// Writes the buffer again without the segments no photo owns.
    mutating func compact() {
        var newText: [UInt8] = []
        newText.reserveCapacity(text.count - unownedBytes)
        var newStart: [Int32] = [], newOwner: [Int32] = []
        for segment in segmentStart.indices where segmentOwner[segment] >= 0 {
            let owner = Int(segmentOwner[segment])
            segmentOf[owner] = Int32(newStart.count)
            newStart.append(Int32(newText.count))
            newOwner.append(Int32(owner))
            newText.append(contentsOf: text[Int(segmentStart[segment])..<segmentEnd(segment)])
        }
        text = newText
        segmentStart = newStart
        segmentOwner = newOwner
        unownedBytes = 0
    }

    // MARK: Searching

    /// What `search` keeps of the album `id` (as told last); nil when `isCancelled` says so
    /// first. An album never told keeps nothing.
    public func search(_ search: PhotoSearch, in id: ObjectIdentifier, isCancelled: () -> Bool = { false }) -> Found? {
        guard let album = albums.first(where: { $0.id == id }) else { return Found(photos: [], kept: [], generation: -1) }
        var found: [Bool]?
        for word in search.words {
            var bytes: [UInt8] = []
            PhotoSearch.appendFolded(word, to: &bytes)
            guard !bytes.isEmpty else { continue }
            let hits = places(holding: bytes)
            if isCancelled() { return nil }
            if found == nil { found = hits } else {
                for p in hits.indices where !hits[p] { found![p] = false }
            }
        }
        let rated = UInt8(search.minimumRating)
        let from = search.takenFrom, before = search.takenBefore
        var kept = [Bool](repeating: false, count: album.positions.count)
        for (n, place) in album.positions.enumerated() {
            let p = Int(place)
            if let found, !found[p] { continue }
            if search.favouritesOnly, !favourite[p] { continue }
            if rating[p] < rated { continue }
            switch search.kind {
            case .all: break
            case .photos: if isVideo[p] { continue }
            case .videos: if !isVideo[p] { continue }
            }
            if from != nil || before != nil {
                let micro = photos[p].dateTaken ?? (factsTaken[p] == Self.noDate ? nil : factsTaken[p])
                guard let taken = micro.map({ $0 / 1_000_000 }) else { continue }
                if let from, taken < from { continue }
                if let before, taken >= before { continue }
            }
            kept[n] = true
        }
        return Found(photos: album.photos, kept: kept, generation: album.generation)
    }

    /// The places of the photos whose text holds `word` (folded UTF-8, not empty).
    func places(holding word: [UInt8]) -> [Bool] {
        var hits = [Bool](repeating: false, count: photos.count)
        let first = Int32(word[0])
        text.withUnsafeBufferPointer { buffer in
            word.withUnsafeBufferPointer { needle in
                guard let base = buffer.baseAddress, let needleBase = needle.baseAddress else { return }
                let end = buffer.count, length = needle.count
                var at = 0, segment = 0
                while at + length <= end {
                    guard let found = memchr(base + at, first, end - length + 1 - at) else { break }
                    let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if length > 1, memcmp(base + offset + 1, needleBase + 1, length - 1) != 0 {
                        at = offset + 1
                        continue
                    }
                    // The photo whose text this is; its other matches are of no more use.
                    while segmentEnd(segment) <= offset { segment += 1 }
                    let owner = segmentOwner[segment]
                    if owner >= 0 { hits[Int(owner)] = true }
                    at = segmentEnd(segment)
                    segment += 1
                }
            }
        }
        return hits
    }

    /// The folders a photo is in below the folder opened, as words to search ("Kyoto/Day 1"
    /// for a photo in Pictures/Kyoto/Day 1 when Pictures is opened); the folder's own name
    /// when the photo is elsewhere (an album of the person's own).
    public static func folderPath(of uri: String, under top: String) -> String {
        let parent = uri[..<(uri.lastIndex(of: "/") ?? uri.startIndex)]
        let prefix = top.hasSuffix("/") ? top : top + "/"
        let below = parent.hasPrefix(prefix) ? parent.dropFirst(prefix.count) : parent[(parent.lastIndex(of: "/").map { parent.index(after: $0) } ?? parent.startIndex)...]
        return String(below).removingPercentEncoding ?? String(below)
    }
}

extension PhotoSearch {
    /// `folded(text)` as UTF-8 in canonical composition (NFC), what a corpus holds and
    /// searches for: ASCII lowered byte by byte, as folding does it, anything else folded.
    public static func appendFolded(_ text: String, to bytes: inout [UInt8]) {
        let start = bytes.count
        var text = text
        let ascii = text.withUTF8 { utf8 in
            for byte in utf8 {
                guard byte < 0x80 else { return false }
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            }
            return true
        }
        if !ascii {
            bytes.removeSubrange(start...)
            bytes.append(contentsOf: folded(text).precomposedStringWithCanonicalMapping.utf8)
        }
    }
}
