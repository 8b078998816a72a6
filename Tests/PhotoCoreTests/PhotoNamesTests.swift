import Testing
@testable import PhotoCore

@Suite struct PhotoNamesTests {
    @Test func aPlainNameIsTheEndOfItsURI() {
        let photo = Photo(id: "file:///p/photo-000123-long.jpg", displayName: "photo-000123-long.jpg",
                          modified: 0, size: 1, contentType: "image/jpeg")
        #expect(photo.displayName == "photo-000123-long.jpg")
    }

    @Test func aNameHoldingASlashIsShownWhole() {
        // A web album's title naming the photo by its path: the URI ends with it, after a "/".
        let photo = Photo(id: "https://example.org/2024/holiday-by-the-sea.jpg", displayName: "2024/holiday-by-the-sea.jpg",
                          modified: 0, size: 0, contentType: "image/jpeg")
        #expect(photo.displayName == "2024/holiday-by-the-sea.jpg")
    }

    @Test func aNameOtherThanTheURIsEndIsKept() {
        let photo = Photo(id: "file:///p/IMG%201%20of%20a%20long%20name.jpg", displayName: "IMG 1 of a long name.jpg",
                          modified: 0, size: 1, contentType: "image/jpeg")
        #expect(photo.displayName == "IMG 1 of a long name.jpg")
    }
}
