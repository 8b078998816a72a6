import Foundation
@testable import PhotoCore
import Testing

@Suite struct SearchCorpusTests {
    static let top = "file:///home/me/Pictures"

    struct Known {
        var photo: Photo
        var marks: PhotoMarks
        var facts: ExifFacts?
    }

    static func photo(_ path: String, type: String = "image/jpeg", taken: Int64? = nil) -> Photo {
        let name = String(path.split(separator: "/").last!)
        let uri = top + "/" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
        return Photo(id: uri, displayName: name, modified: 1, size: 1, contentType: type, dateTaken: taken)
    }

    /// The photos of `PhotoSearchTests`, with a few more whose words sit across fields.
    static let known: [Known] = [
        Known(photo: photo("2024/Kyoto/IMG_0001.jpg", taken: 1_700_000_000_000_000),
              marks: PhotoMarks(favourite: true, rating: 5, tags: ["Tempel", "Herbst"]), facts: ExifFacts(camera: "Canon EOS R5", taken: nil)),
        Known(photo: photo("Summer/beach.png", type: "image/png"), marks: PhotoMarks(rating: 3, tags: ["Strand"]),
              facts: ExifFacts(camera: "", taken: 1_600_000_000_000_000)),
        Known(photo: photo("Summer/clip.mp4", type: "video/mp4"), marks: .none, facts: ExifFacts(camera: "Pixel 7", taken: nil)),
        Known(photo: photo("Paris/Café.jpg"), marks: PhotoMarks(rating: 1), facts: nil),
        Known(photo: photo("Ärger/ÉTÉ Straße.JPG"), marks: PhotoMarks(tags: ["Ｆｕｌｌ width", "naïve"]), facts: nil),
        Known(photo: photo("xab.jpg"), marks: PhotoMarks(tags: ["cd"]), facts: nil),
    ]

    static func corpus(_ known: [Known] = known, album: ObjectIdentifier = ObjectIdentifier(SearchCorpusTests.self)) -> SearchCorpus {
        var corpus = SearchCorpus(top: top)
        corpus.apply([.album(album, generation: 1, photos: known.map(\.photo),
                             marks: Dictionary(uniqueKeysWithValues: known.map { ($0.photo.id, $0.marks) }),
                             facts: Dictionary(uniqueKeysWithValues: known.compactMap { k in k.facts.map { (k.photo.id, $0) } }))])
        return corpus
    }

    static let album = ObjectIdentifier(SearchCorpusTests.self)

    func names(_ search: PhotoSearch, in corpus: SearchCorpus = corpus()) -> [String] {
        let found = corpus.search(search, in: Self.album)!
        return zip(found.photos, found.kept).filter(\.1).map(\.0.displayName)
    }

    /// What the matcher of one photo at a time says, for the same photos.
    func matcherNames(_ search: PhotoSearch, _ known: [Known] = known) -> [String] {
        let matcher = search.matcher()
        return known.filter { k in
            matcher.matches(SearchablePhoto(name: k.photo.displayName, folder: SearchCorpus.folderPath(of: k.photo.id, under: Self.top),
                                            camera: k.facts?.camera ?? "", marks: k.marks,
                                            taken: (k.photo.dateTaken ?? k.facts?.taken).map { $0 / 1_000_000 },
                                            isVideo: k.photo.contentType.hasPrefix("video/")))
        }.map(\.photo.displayName)
    }

    static let searches: [PhotoSearch] = [
        PhotoSearch(), PhotoSearch(text: "tempel"), PhotoSearch(text: "kyoto canon"), PhotoSearch(text: "summer"),
        PhotoSearch(text: "cafe"), PhotoSearch(text: "CAFÉ"), PhotoSearch(text: "pixel strand"), PhotoSearch(text: "arger"),
        PhotoSearch(text: "ete strasse"), PhotoSearch(text: "full naive"), PhotoSearch(text: "2024/kyoto"), PhotoSearch(text: "abcd"),
        PhotoSearch(text: "ab cd"), PhotoSearch(text: "jpg"), PhotoSearch(text: "p"), PhotoSearch(text: "eos r5"),
        PhotoSearch(favouritesOnly: true), PhotoSearch(minimumRating: 3), PhotoSearch(kind: .videos), PhotoSearch(kind: .photos),
        PhotoSearch(takenFrom: 1_650_000_000), PhotoSearch(takenBefore: 1_650_000_000),
        PhotoSearch(text: "summer", minimumRating: 1), PhotoSearch(text: "jpg", kind: .photos),
    ]

    @Test func aCorpusKeepsWhatTheMatcherOfEachPhotoKeeps() {
        for search in Self.searches {
            #expect(names(search) == matcherNames(search), "\(search.text)")
        }
        #expect(names(PhotoSearch(text: "ete")) == ["ÉTÉ Straße.JPG"])
        #expect(names(PhotoSearch(text: "full naive")) == ["ÉTÉ Straße.JPG"])
        #expect(names(PhotoSearch(text: "kyoto canon")) == ["IMG_0001.jpg"])
        // A word is never found across two fields or two photos.
        #expect(names(PhotoSearch(text: "abcd")) == [])
        #expect(names(PhotoSearch(text: "ab cd")) == ["xab.jpg"])
    }

    @Test func aPhotoIsFoundByThePlaceItsXMPNames() {
        var corpus = Self.corpus()
        let beach = Self.known[1].photo.id
        #expect(names(PhotoSearch(text: "kyōto"), in: corpus) == ["IMG_0001.jpg"])
        corpus.apply([.marks(uri: beach, PhotoMarks(rating: 3, tags: ["Strand"], places: PlaceNames(city: "Kyōto", country: "Japan")))])
        #expect(names(PhotoSearch(text: "kyoto"), in: corpus) == ["IMG_0001.jpg", "beach.png"])
        #expect(names(PhotoSearch(text: "japan strand"), in: corpus) == ["beach.png"])
        // What a photo-at-a-time matcher says, too.
        var known = Self.known
        known[1].marks = PhotoMarks(rating: 3, tags: ["Strand"], places: PlaceNames(city: "Kyōto", country: "Japan"))
        #expect(matcherNames(PhotoSearch(text: "japan strand"), known) == ["beach.png"])
    }

    @Test func asciiIsFoldedAsFoldingDoes() {
        let ascii = String((0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) })
        var bytes: [UInt8] = []
        PhotoSearch.appendFolded(ascii, to: &bytes)
        #expect(bytes == Array(PhotoSearch.folded(ascii).utf8))
    }

    @Test func marksAndFactsReadLaterChangeWhatIsFound() {
        var corpus = Self.corpus()
        let clip = Self.known[2].photo.id, cafe = Self.known[3].photo.id
        #expect(names(PhotoSearch(text: "harbour"), in: corpus) == [])
        corpus.apply([.marks(uri: clip, PhotoMarks(favourite: true, rating: 4, tags: ["Harbour"]))])
        #expect(names(PhotoSearch(text: "harbour"), in: corpus) == ["clip.mp4"])
        #expect(names(PhotoSearch(favouritesOnly: true, minimumRating: 4), in: corpus) == ["IMG_0001.jpg", "clip.mp4"])
        corpus.apply([.marks(uri: clip, .none)])
        #expect(names(PhotoSearch(text: "harbour"), in: corpus) == [])
        #expect(names(PhotoSearch(text: "pixel"), in: corpus) == ["clip.mp4"])
        corpus.apply([.facts([(uri: cafe, facts: ExifFacts(camera: "Leica Q", taken: 1_700_000_000_000_000))])])
        #expect(names(PhotoSearch(text: "leica", takenFrom: 1_650_000_000), in: corpus) == ["Café.jpg"])
        // Photos no album holds are not placed; what was told of them is theirs once one does,
        // the album told without marks (they were handed over once).
        let elsewhere = Self.photo("elsewhere.jpg")
        corpus.apply([.marks(uri: elsewhere.id, PhotoMarks(tags: ["harbour"])),
                      .facts([(uri: elsewhere.id, facts: ExifFacts(camera: "Ricoh GR", taken: nil))])])
        #expect(corpus.count == Self.known.count)
        corpus.apply([.album(Self.album, generation: 5, photos: Self.known.map(\.photo) + [elsewhere], marks: [:], facts: [:])])
        #expect(names(PhotoSearch(text: "harbour ricoh"), in: corpus) == ["elsewhere.jpg"])
        corpus.apply([.album(Self.album, generation: 6, photos: Self.known.map(\.photo), marks: [:], facts: [:])])
        // Text written again and again, then the buffer made again without what is left over.
        for n in 0..<50 { corpus.apply([.marks(uri: clip, PhotoMarks(tags: ["tag \(n)"]))]) }
        corpus.compact()
        #expect(names(PhotoSearch(text: "tag 49"), in: corpus) == ["clip.mp4"])
        #expect(names(PhotoSearch(text: "tag 48"), in: corpus) == [])
        #expect(names(PhotoSearch(text: "leica"), in: corpus) == ["Café.jpg"])
        #expect(names(PhotoSearch(text: "kyoto"), in: corpus) == ["IMG_0001.jpg"])
    }

    @Test func marksToldWithTheFirstAlbumOfPhotosElsewhereAreKeptForTheAlbumThatHoldsThem() {
        let elsewhere = Self.photo("Other/elsewhere.jpg")
        var corpus = SearchCorpus(top: Self.top)
        corpus.apply([.album(Self.album, generation: 1, photos: Self.known.map(\.photo),
                             marks: Dictionary(uniqueKeysWithValues: Self.known.map { ($0.photo.id, $0.marks) } + [(elsewhere.id, PhotoMarks(tags: ["harbour"]))]),
                             facts: [elsewhere.id: ExifFacts(camera: "Ricoh GR", taken: nil)])])
        #expect(names(PhotoSearch(text: "tempel"), in: corpus) == ["IMG_0001.jpg"])
        #expect(names(PhotoSearch(text: "harbour"), in: corpus) == [])
        let other = ObjectIdentifier(Known.self)
        corpus.apply([.album(other, generation: 2, photos: [Self.known[0].photo, elsewhere], marks: [:], facts: [:])])
        let found = corpus.search(PhotoSearch(text: "harbour ricoh"), in: other)!
        #expect(zip(found.photos, found.kept).filter(\.1).map(\.0.displayName) == ["elsewhere.jpg"])
        #expect(corpus.count == Self.known.count + 1)
    }

    @Test func anAlbumToldAgainIsSearchedInItsNewOrderWithItsNewPhotos() {
        var corpus = Self.corpus()
        // The same photos listed again (other values), reordered, one gone, one new, a date read.
        var photos = Self.known.reversed().map { k in
            Photo(id: k.photo.id, displayName: k.photo.displayName, modified: 2, size: 2, contentType: k.photo.contentType, dateTaken: k.photo.dateTaken)
        }
        photos.removeFirst()
        photos[0].dateTaken = 1_690_000_000_000_000
        photos.append(Self.photo("Summer/new.jpg"))
        corpus.apply([.album(Self.album, generation: 2, photos: photos,
                             marks: [photos.last!.id: PhotoMarks(tags: ["summer"])], facts: [:])])
        #expect(corpus.count == Self.known.count + 1)
        #expect(names(PhotoSearch(text: "summer"), in: corpus) == ["clip.mp4", "beach.png", "new.jpg"])
        #expect(names(PhotoSearch(takenFrom: 1_650_000_000), in: corpus) == ["ÉTÉ Straße.JPG", "IMG_0001.jpg"])
        // Marks known before the new listing still hold.
        #expect(names(PhotoSearch(text: "tempel"), in: corpus) == ["IMG_0001.jpg"])
        // An album never told keeps nothing.
        #expect(corpus.search(PhotoSearch(text: "a"), in: ObjectIdentifier(Known.self))?.photos.isEmpty == true)
    }

    @Test func anAlbumToldAgainWithItsPhotosWhereTheyWereKeepsTheirPlacesAndTakesWhatChanged() {
        var corpus = Self.corpus()
        // Its places by URI made ahead, as a folder's corpus is: photos added after are
        // found by URI too.
        corpus.indexURIs()
        // The same values: a date read for one, two swapped, one found after them.
        var photos = Self.known.map(\.photo)
        photos[1].dateTaken = 1_690_000_000_000_000
        photos.swapAt(3, 4)
        photos.append(Self.photo("Summer/found.jpg"))
        corpus.apply([.album(Self.album, generation: 2, photos: photos, marks: [photos.last!.id: PhotoMarks(tags: ["late"])], facts: [:])])
        #expect(corpus.count == Self.known.count + 1)
        #expect(names(PhotoSearch(takenFrom: 1_650_000_000), in: corpus) == ["IMG_0001.jpg", "beach.png"])
        #expect(names(PhotoSearch(minimumRating: 1), in: corpus) == ["IMG_0001.jpg", "beach.png", "Café.jpg"])
        #expect(names(PhotoSearch(text: "naive"), in: corpus) == ["ÉTÉ Straße.JPG"])
        #expect(names(PhotoSearch(text: "summer"), in: corpus) == ["beach.png", "clip.mp4", "found.jpg"])
        #expect(names(PhotoSearch(text: "late"), in: corpus) == ["found.jpg"])
        corpus.apply([.marks(uri: photos.last!.id, PhotoMarks(tags: ["later"]))])
        #expect(names(PhotoSearch(text: "later"), in: corpus) == ["found.jpg"])
        // Told again at the same places, marks read meanwhile are still theirs.
        corpus.apply([.marks(uri: photos[4].id, PhotoMarks(rating: 4))])
        corpus.apply([.album(Self.album, generation: 3, photos: photos, marks: [:], facts: [:])])
        #expect(names(PhotoSearch(minimumRating: 4), in: corpus) == ["IMG_0001.jpg", "Café.jpg"])
        #expect(corpus.count == Self.known.count + 1)
    }

    @Test func aSearchCancelledGivesNothing() {
        #expect(Self.corpus().search(PhotoSearch(text: "summer"), in: Self.album) { true } == nil)
    }

    @Test func aFolderIsSearchedByItsPathBelowTheFolderOpened() {
        #expect(SearchCorpus.folderPath(of: Self.top + "/Kyoto/Day%201/a.jpg", under: Self.top) == "Kyoto/Day 1")
        #expect(SearchCorpus.folderPath(of: "file:///elsewhere/Trip/a.jpg", under: Self.top) == "Trip")
    }
}

@MainActor @Suite struct AlbumContentsSearchTests {
    func photo(_ name: String, date: Int64? = nil) -> Photo {
        Photo(id: "file:///p/" + name, displayName: name, modified: 1, size: 1, contentType: "image/jpeg", dateTaken: date)
    }

    @Test func aFilterByIdentityShowsTheKeptPhotosInTheAlbumsOrder() {
        let album = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        let photos = ["d.jpg", "a.jpg", "c.jpg", "b.jpg"].map { photo($0) }
        album.insert(photos)
        var splices: [PhotoList.Splice] = []
        album.observeChanges { splices.append($0) }
        let before = album.generation
        let kept = Set([photos[0].identity, photos[1].identity])
        album.setFilter { kept.contains($0.identity) }
        #expect(album.photos.all.map(\.displayName) == ["a.jpg", "d.jpg"])
        #expect(album.photos.index(of: photos[0].id) == 1 && album.photos.index(of: photos[2].id) == nil)
        #expect(splices.count == 1)
        #expect(album.generation == before)
        // All kept: the album's own list again, in one splice.
        album.setFilter { _ in true }
        #expect(album.photos.all.map(\.displayName) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        #expect(album.photos.index(of: photos[3].id) == 1)
        album.setFilter { kept.contains($0.identity) }
        // While filtered: a sort, dates read and photos gone change the whole album too.
        album.sort(by: PhotoOrder(key: .dateTaken))
        album.setDatesTaken([photos[2].id: 5, photos[3].id: 1, photos[0].id: 9, photos[1].id: 3])
        #expect(album.generation != before)
        #expect(album.photos.all.map(\.displayName) == ["a.jpg", "d.jpg"])
        album.remove([photos[1].id])
        #expect(album.allPhotos.map(\.displayName) == ["b.jpg", "c.jpg", "d.jpg"])
        album.setFilter(nil)
        #expect(album.photos.all.map(\.displayName) == ["b.jpg", "c.jpg", "d.jpg"])
        #expect(album.photos.index(of: photos[0].id) == 2)
        #expect(!album.isFiltered)
    }
}
