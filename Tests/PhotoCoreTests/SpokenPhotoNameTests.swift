import PhotoCore
import Testing

@Suite struct SpokenPhotoNameTests {
    private func photo(taken: Int64? = nil) -> Photo {
        Photo(id: "file:///p/IMG_0042.jpg", displayName: "IMG_0042.jpg", modified: 0, size: 1, contentType: "image/jpeg", dateTaken: taken)
    }

    @Test func aPhotoNotYetDatedIsItsName() {
        #expect(SpokenPhotoName.of(photo()) == "IMG_0042.jpg")
    }

    @Test func theDateTakenSelectionAndPositionFollowTheName() {
        // 2024-05-01 10:00 wall clock, in microseconds.
        let taken: Int64 = 1_714_557_600 * 1_000_000
        #expect(SpokenPhotoName.of(photo(taken: taken)) == "IMG_0042.jpg, taken 1 May 2024, 10:00")
        #expect(SpokenPhotoName.of(photo(taken: taken), selected: true) == "IMG_0042.jpg, taken 1 May 2024, 10:00, selected")
        #expect(SpokenPhotoName.of(photo(), position: (index: 2, count: 12)) == "IMG_0042.jpg, photo 3 of 12")
    }
}
