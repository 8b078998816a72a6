import PhotoCore
import Testing

@Suite struct AlbumIDTests {
    @Test(arguments: [AlbumID.allPhotos, .folder("file:///photos/2024/Kyoto"), .folder("file:///a%3Ab"), .collection("8F2A")])
    func keysNameTheAlbumBack(album: AlbumID) {
        #expect(AlbumID(key: album.key) == album)
    }

    @Test func otherStringsNameNoAlbum() {
        #expect(AlbumID(key: "") == nil)
        #expect(AlbumID(key: "heading") == nil)
        #expect(AlbumID(key: "All") == nil)
    }
}
