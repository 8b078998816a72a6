@testable import PhotoCore
import Testing

@Suite struct AlbumSearchTests {
    let titles = ["Kyoto 2024", "Tokyo", "Café Noir", "Trip"]

    @Test func nothingTypedListsEveryAlbumAndOffersNoNewOne() {
        let search = AlbumSearch(query: "  ", titles: titles)
        #expect(search.matches == [0, 1, 2, 3])
        #expect(search.exact == nil && search.newTitle == nil && search.problem == nil)
        #expect(search.firstChoice == .existing(0))
    }

    @Test func everyWordMustMatchInAnyCaseWithOrWithoutAccents() {
        #expect(AlbumSearch(query: "kyo", titles: titles).matches == [0, 1])
        #expect(AlbumSearch(query: "kyo 24", titles: titles).matches == [0])
        #expect(AlbumSearch(query: "TOKYO", titles: titles).matches == [1])
        #expect(AlbumSearch(query: "cafe noir", titles: titles).matches == [2])
        #expect(AlbumSearch(query: "kyoto 2023", titles: titles).matches == [])
    }

    @Test func aNewTitleIsOfferedAndChosenByEnterWhenNoAlbumHasIt() {
        let search = AlbumSearch(query: " Kyo\t", titles: titles)
        #expect(search.newTitle == "Kyo")
        #expect(search.exact == nil && search.problem == nil)
        #expect(search.firstChoice == .new("Kyo"))
    }

    @Test func theAlbumWithTheTitleTypedIsChosenAndNoDuplicateIsOffered() {
        let search = AlbumSearch(query: "Trip ", titles: titles)
        #expect(search.exact == 3)
        #expect(search.newTitle == nil)
        #expect(search.problem == CollectionProblem.titleTaken("Trip"))
        #expect(search.firstChoice == .existing(3))
        // Titles are compared exactly, as Shotwell's: "trip" is another title.
        #expect(AlbumSearch(query: "trip", titles: titles).firstChoice == .new("trip"))
    }

    @Test func aTitleTooLongSaysWhyAndOffersNoNewAlbum() {
        let long = String(repeating: "k", count: CollectionTitle.maximumLength + 1)
        let search = AlbumSearch(query: long, titles: titles)
        #expect(search.newTitle == nil)
        #expect(search.problem == CollectionProblem.titleTooLong)
        #expect(search.firstChoice == nil)
        // Enter then takes the first album that matches, if one does.
        #expect(AlbumSearch(query: long, titles: titles + [long + "!"]).firstChoice == .existing(4))
    }
}
