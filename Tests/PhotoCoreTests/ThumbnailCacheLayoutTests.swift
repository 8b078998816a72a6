import Testing
@testable import PhotoCore

@Suite("Thumbnail cache layout and sizes")
struct ThumbnailCacheLayoutTests {
    @Test func sizesAndTheirFolders() {
        #expect(ThumbnailSize.allCases.map(\.edge) == [128, 256, 512, 1024])
        #expect(ThumbnailSize.allCases.map(\.directoryName) == ["normal", "large", "x-large", "xx-large"])
        for size in ThumbnailSize.allCases {
            #expect(ThumbnailSize(directoryName: size.directoryName) == size)
        }
        #expect(ThumbnailSize(directoryName: "huge") == nil)
        #expect(ThumbnailSize.large.larger == [.xLarge, .xxLarge])
        #expect(ThumbnailSize.xxLarge.larger.isEmpty)
    }

    @Test(arguments: [
        (1, ThumbnailSize.normal), (100, .normal), (128, .normal), (129, .large), (200, .large), (256, .large),
        (257, .xLarge), (512, .xLarge), (513, .xxLarge), (1024, .xxLarge), (1025, .xxLarge), (5000, .xxLarge), (0, .normal),
    ])
    func sizeForATile(edge: Int, size: ThumbnailSize) {
        #expect(ThumbnailSize.for(edge: edge) == size)
    }

    @Test func paths() {
        let layout = ThumbnailCacheLayout(cacheHome: "/home/ann/.cache/")
        let uri = "file:///home/jens/photos/me.png"
        #expect(layout.root == "/home/ann/.cache/thumbnails")
        #expect(layout.path(forURI: uri, size: .normal) == "/home/ann/.cache/thumbnails/normal/c6ee772d9e49320e97ec29a7eb5b1697.png")
        #expect(layout.path(forURI: uri, size: .large) == "/home/ann/.cache/thumbnails/large/c6ee772d9e49320e97ec29a7eb5b1697.png")
        #expect(layout.path(forURI: uri, size: .xLarge) == "/home/ann/.cache/thumbnails/x-large/c6ee772d9e49320e97ec29a7eb5b1697.png")
        #expect(layout.path(forURI: uri, size: .xxLarge) == "/home/ann/.cache/thumbnails/xx-large/c6ee772d9e49320e97ec29a7eb5b1697.png")
        #expect(AppInfo.version == "0.1.0")
        #expect(layout.failurePath(forURI: uri) == "/home/ann/.cache/thumbnails/fail/gphotobrowse-0.1.0/c6ee772d9e49320e97ec29a7eb5b1697.png")
    }

    @Test func cacheHomeFollowsGLib() {
        #expect(ThumbnailCacheLayout.defaultCacheHome(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/ann"]) == "/x/cache")
        #expect(ThumbnailCacheLayout.defaultCacheHome(environment: ["XDG_CACHE_HOME": "", "HOME": "/home/ann"]) == "/home/ann/.cache")
        #expect(ThumbnailCacheLayout.defaultCacheHome(environment: ["HOME": "/home/ann/"]) == "/home/ann/.cache")
        #expect(ThumbnailCacheLayout.defaultCacheHome(environment: [:], homeDirectory: { "/home/bob" }) == "/home/bob/.cache")
    }

    @Test func filesInsideTheCacheAreRecognized() {
        let layout = ThumbnailCacheLayout(cacheHome: "/home/ann/.cache")
        #expect(layout.contains(uri: "file:///home/ann/.cache/thumbnails/large/0123.png"))
        #expect(layout.contains(uri: "file:///home/ann/.cache/thumbnails"))
        #expect(layout.contains(uri: "file://localhost/home/ann/.cache/thumbnails/normal/x.png"))
        #expect(layout.contains(uri: "file:///home/ann//.cache/./thumbnails/fail/../large/x.png"))
        #expect(layout.contains(uri: "file:///home/ann/.cache/%74humbnails/large/x.png"))  // %74 is "t"
        #expect(layout.contains(uri: "file:///home/ann/Pictures/../.cache/thumbnails/large/x.png"))

        #expect(!layout.contains(uri: "file:///home/ann/.cache/thumbnails-old/x.png"))
        #expect(!layout.contains(uri: "file:///home/ann/.cache/x.png"))
        #expect(!layout.contains(uri: "file:///home/ann/Pictures/thumbnails/x.png"))
        #expect(!layout.contains(uri: "file:///home/ann/.cache/thumbnails/../photo.jpg"))
        #expect(!layout.contains(uri: "sftp://host/home/ann/.cache/thumbnails/large/x.png"))
        #expect(!layout.contains(uri: "file://otherhost/home/ann/.cache/thumbnails/large/x.png"))
    }

    @Test func localPathsOfURIs() {
        #expect(ThumbnailCacheLayout.localPath(ofURI: "file:///a%20b/caf%C3%A9.jpg") == Array("/a b/café.jpg".utf8))
        #expect(ThumbnailCacheLayout.localPath(ofURI: "file:///odd/%FF.jpg") == Array("/odd/".utf8) + [0xFF] + Array(".jpg".utf8))
        #expect(ThumbnailCacheLayout.localPath(ofURI: "file:///bad/%G1") == nil)
        #expect(ThumbnailCacheLayout.localPath(ofURI: "https://example.org/x.jpg") == nil)
    }

    @Test func requestsRoundModificationTimesDownToSeconds() {
        #expect(ThumbnailRequest(uri: "u", modifiedMicroseconds: 1_700_000_000_999_999, fileSize: 1, size: .large).modified == 1_700_000_000)
        #expect(ThumbnailRequest(uri: "u", modifiedMicroseconds: 5_000_000, fileSize: 1, size: .large).modified == 5)
        #expect(ThumbnailRequest(uri: "u", modifiedMicroseconds: -1_500_000, fileSize: 1, size: .large).modified == -2)
        let photo = Photo(id: "file:///p/a.jpg", displayName: "a.jpg", modified: 42_123_456, size: 99, contentType: "image/jpeg")
        let request = ThumbnailRequest(photo: photo, size: .normal)
        #expect(request == ThumbnailRequest(uri: "file:///p/a.jpg", modifiedSeconds: 42, fileSize: 99, size: .normal))
    }
}
