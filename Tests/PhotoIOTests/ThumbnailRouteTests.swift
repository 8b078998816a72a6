import PhotoCore
import PhotoIO
import Testing

/// Which workers make a photo's thumbnail, in which server's lane, at what priority.
@Suite struct ThumbnailRouteTests {
    @Test func aLocalPhotoIsDecodedOnTheProcessorsWorkersInNoLane() {
        let route = ThumbnailRoute(uri: "file:///home/me/a.jpg", priority: 42)
        #expect(route == ThumbnailRoute(uri: "file:///home/me/a.jpg", priority: 42))
        #expect(route.work == .decode && route.lane == nil && route.priority == 42)
        #expect(!route.waitsOnServer)
    }

    @Test func aWebPhotoDownloadsItsListsThumbnailInThatServersLane() {
        let route = ThumbnailRoute(uri: "https://photos.example.org/big/a.jpg", priority: 7) { _ in
            "http://thumbs.example.net/a.jpg"
        }
        #expect(route.work == .download(address: "http://thumbs.example.net/a.jpg"))
        #expect(route.lane == DecodePool.downloadLane(of: "http://thumbs.example.net/other.jpg"))
        #expect(route.lane != DecodePool.downloadLane(of: "https://photos.example.org/big/a.jpg"))
        #expect(route.priority == 7 && route.waitsOnServer)
        let itself = ThumbnailRoute(uri: "https://photos.example.org/big/b.jpg", priority: 7) { $0 }
        #expect(itself.work == .download(address: "https://photos.example.org/big/b.jpg"))
        #expect(itself.lane == DecodePool.downloadLane(of: "https://photos.example.org/"))
    }

    @Test func aPhotoOnAnotherMachineLooksFirstAheadOfEveryWholeFile() {
        let route = ThumbnailRoute(uri: "sftp://me@nas:2222/photos/a.jpg", priority: ThumbnailPriority.prefetchBand)
        #expect(route.work == .firstLook)
        #expect(route.lane == "sftp://nas:2222")
        // Its preview comes before the most urgent tile's whole file.
        #expect(route.priority > ThumbnailPriority.visibleBand + 999_999)
        // Boosting never wraps around.
        #expect(ThumbnailRoute(uri: "smb://nas/photos/a.jpg", priority: .max).priority == .max)
    }
}
