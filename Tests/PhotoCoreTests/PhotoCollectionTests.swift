@testable import PhotoCore
import Testing

/// A collection of `photos` (names in /photos) made at time 10.
private func collection(_ names: [String], title: String = "Kyoto", id: String = "album1") throws -> PhotoCollection {
    try PhotoCollection.make(title: title, photos: names.map(uri), among: [], now: 10, id: id)
}

private func uri(_ name: String) -> String { "file:///photos/\(name)" }

@Suite struct PhotoCollectionTests {
    @Test func aNewCollectionHasItsTitleTrimmedAndItsPhotosOnceEach() throws {
        let made = try PhotoCollection.make(title: "  Kyoto\n2024 ", photos: [uri("a"), uri("b"), uri("a")], among: ["Osaka"], now: 42)
        #expect(made.title == "Kyoto 2024")
        #expect(made.photos == [uri("a"), uri("b")])
        #expect(made.created == 42 && made.modified == 42)
        #expect(PhotoCollection.isValidID(made.id))
    }

    @Test func aRenamedPhotoKeepsItsPlaceUnderItsNewURI() throws {
        let album = try collection(["a", "b", "c"])
        let renamed = album.renaming([uri("b"): uri("B"), uri("zz"): uri("y")], now: 20)
        #expect(renamed.photos == [uri("a"), uri("B"), uri("c")] && renamed.modified == 20)
        // A photo it does not hold: unchanged, its time too.
        #expect(album.renaming([uri("zz"): uri("y")], now: 20) == album)
        // Renamed to one it holds already: once, where that one was.
        #expect(album.renaming([uri("c"): uri("a")], now: 20).photos == [uri("a"), uri("b")])
    }

    @Test func aNewCollectionIsRefusedForABadTitleOrPhoto() {
        #expect(throws: CollectionProblem.emptyTitle) { try PhotoCollection.make(title: " \t", among: [], now: 0) }
        #expect(throws: CollectionProblem.titleTaken("Kyoto")) { try PhotoCollection.make(title: "Kyoto ", among: ["Kyoto"], now: 0) }
        #expect(throws: CollectionProblem.notAFileURI("https://example.com/a.jpg")) {
            try PhotoCollection.make(title: "Web", photos: ["https://example.com/a.jpg"], among: [], now: 0)
        }
    }

    @Test func newIDsAreRandomHexadecimalAndSafeAsFileNames() {
        let ids = (0..<1000).map { _ in PhotoCollection.newID() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.utf8.count == 32)
            #expect(id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(PhotoCollection.isValidID(id))
        }
    }

    @Test func onlyShortPlainNamesAreIDs() {
        for good in ["a", "abc-DEF_09", String(repeating: "x", count: 64)] { #expect(PhotoCollection.isValidID(good)) }
        for bad in ["", ".", "..", ".hidden", "a/b", "a b", "a.json", "é", String(repeating: "x", count: 65)] {
            #expect(!PhotoCollection.isValidID(bad), "\(bad)")
        }
    }

    @Test func onlyLocalFileURIsAsGLibWritesThemArePhotos() {
        for good in ["file:///a.jpg", "file:///home/me/My%20Photos/%E6%97%85.jpg", "file:///%C3%A9t%C3%A9.png"] {
            #expect(PhotoCollection.isFileURI(good), "\(good)")
        }
        for bad in ["", "/home/me/a.jpg", "http://example.com/a.jpg", "file://host/a.jpg", "FILE:///a.jpg",
                    "file:///a b.jpg", "file:///été.jpg", "file:///a%2", "file:///a%zz.jpg", "file:///a\".jpg",
                    "file:///a\\b.jpg", "file:///a\n.jpg", "file:///" + String(repeating: "a", count: 65_536)] {
            #expect(!PhotoCollection.isFileURI(bad), "\(bad.prefix(40))")
        }
    }

    @Test func addingAppendsInOrderAndIgnoresPhotosAlreadyThere() throws {
        let album = try collection(["a", "b"])
        let added = try album.adding([uri("c"), uri("a"), uri("d"), uri("c")], now: 20)
        #expect(added.photos == [uri("a"), uri("b"), uri("c"), uri("d")])
        #expect(added.modified == 20 && added.created == 10)
        #expect(album.photos == [uri("a"), uri("b")])  // a value: the original is as it was

        let again = try added.adding([uri("b"), uri("d")], now: 30)
        #expect(again == added)  // nothing new: not even the time changes
    }

    @Test func addingIsRefusedWholeForAPhotoThatIsNotALocalFile() throws {
        let album = try collection(["a"])
        #expect(throws: CollectionProblem.notAFileURI("smb://server/b.jpg")) {
            try album.adding([uri("b"), "smb://server/b.jpg"], now: 20)
        }
    }

    @Test func aCollectionHoldsAtMostAMillionPhotos() throws {
        let full = PhotoCollection(id: "big", title: "Big", photos: (0..<PhotoCollection.maximumPhotos - 1).map { "file:///\($0)" },
                                   created: 0, modified: 0)
        let oneMore = try full.adding(["file:///new"], now: 1)
        #expect(oneMore.photos.count == PhotoCollection.maximumPhotos)
        #expect(throws: CollectionProblem.tooManyPhotos) { try full.adding(["file:///x", "file:///y"], now: 1) }
        #expect(throws: CollectionProblem.tooManyPhotos) { try oneMore.adding(["file:///x"], now: 1) }
        #expect(try oneMore.adding(["file:///0"], now: 1) == oneMore)  // already there: no growth
    }

    @Test func removingSaysWhatItRemovedAndFromWhere() throws {
        let album = try collection(["a", "b", "c", "d", "e"])
        let (changed, removal) = album.removing([uri("d"), uri("b"), uri("zz")], now: 20)
        #expect(changed.photos == [uri("a"), uri("c"), uri("e")])
        #expect(changed.modified == 20)
        #expect(removal == CollectionRemoval(collectionID: "album1", photos: [.init(uri: uri("b"), index: 1), .init(uri: uri("d"), index: 3)]))

        let (same, nothing) = album.removing([uri("zz")], now: 30)
        #expect(same == album)
        #expect(nothing.isEmpty)
    }

    @Test func restoringARemovalGivesBackTheCollectionAsItWas() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let names = (0..<Int.random(in: 0...40, using: &generator)).map { "p\($0)" }
            let album = try collection(names)
            let gone = names.filter { _ in Bool.random(using: &generator) }.map(uri).shuffled(using: &generator)
            let (removed, removal) = album.removing(gone, now: 20)
            #expect(removal.photos.count == gone.count)
            let restored = try removed.restoring(removal, now: 30)
            #expect(restored.photos == album.photos)
        }
    }

    @Test func restoringPutsPhotosBackAtTheirPlacesAroundLaterChanges() throws {
        let album = try collection(["a", "b", "c", "d"])
        let (removed, removal) = album.removing([uri("a"), uri("c")], now: 20)
        // Since then: "e" added at the end, "b" removed, "c" added back by hand.
        let later = try removed.adding([uri("e"), uri("c")], now: 21).removing([uri("b")], now: 22).0
        #expect(later.photos == [uri("d"), uri("e"), uri("c")])
        let restored = try later.restoring(removal, now: 30)
        #expect(restored.photos == [uri("a"), uri("d"), uri("e"), uri("c")])
    }

    @Test func aPhotoRestoredUnderAnotherNameComesBackAtItsPlace() throws {
        let album = try collection(["a", "b", "c"])
        let (removed, removal) = album.removing([uri("b")], now: 20)
        let restored = try removed.restoring(removal, renamed: [uri("b"): uri("b%20(2)")], now: 30)
        #expect(restored.photos == [uri("a"), uri("b%20(2)"), uri("c")])
    }

    @Test func trashingAPhotoRemovesItFromEveryCollectionAndUndoPutsItBack() throws {
        let albums = [try collection(["x", "a", "b"], id: "one"), try collection(["a", "b"], title: "Two", id: "two"),
                      try collection(["b", "c", "x"], title: "Three", id: "three")]
        let changes = albums.map { $0.removing([uri("x")], now: 20) }
        let removals = changes.map(\.1).filter { !$0.isEmpty }
        #expect(removals.map(\.collectionID) == ["one", "three"])
        #expect(changes.map(\.0.photos) == [[uri("a"), uri("b")], [uri("a"), uri("b")], [uri("b"), uri("c")]])
        let undone = try changes.map(\.0).map { album in
            try removals.filter { $0.collectionID == album.id }.reduce(album) { try $0.restoring($1, now: 30) }
        }
        #expect(undone.map(\.photos) == albums.map(\.photos))
    }

    @Test func renamingTrimsAndRefusesAnotherAlbumsTitle() throws {
        let album = try collection(["a"])
        let renamed = try album.renamed(to: "  Kyoto in Spring ", among: ["Osaka"], now: 20)
        #expect(renamed.title == "Kyoto in Spring" && renamed.modified == 20)
        #expect(try album.renamed(to: " Kyoto", among: ["Kyoto"], now: 20) == album)  // its own title: unchanged
        #expect(throws: CollectionProblem.titleTaken("Osaka")) { try album.renamed(to: "Osaka", among: ["Osaka"], now: 20) }
        #expect(throws: CollectionProblem.emptyTitle) { try album.renamed(to: "\n", among: [], now: 20) }
    }

    @Test func theSummaryCountsEveryPhotoAndCoversWithTheNewestKnownOne() throws {
        let album = try collection(["old", "taken", "missing", "new"])
        let known = [
            uri("old"): photo("old", modified: 100, id: uri("old")),
            uri("new"): photo("new", modified: 300, id: uri("new")),
            uri("taken"): {
                var taken = photo("taken", modified: 50, id: uri("taken"))
                taken.dateTaken = 400
                return taken
            }(),
        ]
        let summary = album.summary { known[$0] }
        #expect(summary.id == .collection("album1"))
        #expect(summary.title == "Kyoto")
        #expect(summary.count == 4)
        #expect(summary.cover?.id == uri("taken"))
        #expect(summary.newest == 400)

        let unknown = album.summary { _ in nil }
        #expect(unknown.cover == nil && unknown.newest == nil && unknown.count == 4)
    }

    @Test func theSwitcherListsCollectionsByTitleAsAPersonReadsIt() throws {
        let albums = [try collection([], title: "Trip 10", id: "a"), try collection([], title: "Trip 2", id: "b"),
                      try collection([], title: "Birthday", id: "c"), try collection([], title: "Trip 2", id: "0")]
        #expect(albums.sorted(by: PhotoCollection.switcherOrder).map(\.id) == ["c", "0", "b", "a"])
    }
}

@Suite struct CollectionTitleTests {
    @Test func titlesAreTrimmedWithControlCharactersAsSpaces() {
        #expect(CollectionTitle.normalized("  Kyoto\n2024\t") == "Kyoto 2024")
        #expect(CollectionTitle.normalized("\u{3000}京都\u{00A0}") == "京都")
        #expect(CollectionTitle.normalized("a\u{0}b") == "a b")
        #expect(CollectionTitle.normalized(" \n ") == "")
    }

    @Test func titlesAreAtMostTwoHundredCharacters() throws {
        let longest = String(repeating: "é", count: CollectionTitle.maximumLength)
        #expect(try CollectionTitle.validated(longest, among: []) == longest)
        #expect(throws: CollectionProblem.titleTooLong) { try CollectionTitle.validated(longest + "e", among: []) }
        // Characters, not bytes: 200 flags of 8 bytes each are fine.
        #expect(try CollectionTitle.validated(String(repeating: "🇯🇵", count: 200), among: []).count == 200)
    }

    @Test func titlesAreUniqueExactlyAsShotwellsTagsAre() throws {
        #expect(throws: CollectionProblem.titleTaken("Café")) { try CollectionTitle.validated("Café", among: ["Cafe\u{301}"]) }
        #expect(throws: CollectionProblem.titleTaken("Kyoto")) { try CollectionTitle.validated("Kyoto", among: [" Kyoto\n"]) }
        #expect(try CollectionTitle.validated("kyoto", among: ["Kyoto"]) == "kyoto")  // case-sensitive
    }

    @Test func aNewAlbumGetsTheFirstUnusedTitle() {
        #expect(CollectionTitle.unused(among: []) == "New Album")
        #expect(CollectionTitle.unused(among: ["New Album"]) == "New Album 2")
        #expect(CollectionTitle.unused(among: ["New Album", "New Album 2", "New Album 4"]) == "New Album 3")
    }
}
