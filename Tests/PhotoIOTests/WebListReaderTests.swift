import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// Web albums' lists read as the decoder processes read them: JSON, listing pages as real
/// servers write them, `text/uri-list`, and what is none of them.
@Suite struct WebListReaderTests {
    private let base = "https://photos.example.org/trips/kyoto.json"

    private func read(_ text: String, type: String?, base: String? = nil) -> Result<WebPhotoList, DecodeFailure> {
        WebListReader.read(Array(text.utf8), baseURL: base ?? self.base, contentType: type, cancellation: CancellationFlag())
    }

    @Test func theDocumentsJSONListWithRelativeAddressesAndAlbums() throws {
        let list = try read("""
            {"title": " Kyoto\\n2024 ", "photos": [{"url": "a.jpg", "thumbnail": "t/a.jpg", "title": "Gate",
             "taken": "2024-05-01T10:00:00+09:00", "camera": "ignored"}, "b.jpg", 42, {"title": "no url"}, "file:///etc/passwd"],
             "albums": [{"title": "Day 1", "photos": ["/c.jpg", "https://cdn.example.net/d.jpg#frag"]}, {"photos": ["e.jpg"]}]}
            """, type: "application/json; charset=utf-8").get()
        #expect(list.title == "Kyoto 2024")
        #expect(list.photos == [
            WebPhotoEntry(url: "https://photos.example.org/trips/a.jpg", thumbnail: "https://photos.example.org/trips/t/a.jpg",
                          title: "Gate", taken: 1_714_525_200_000_000),
            WebPhotoEntry(url: "https://photos.example.org/trips/b.jpg"),
        ])
        #expect(list.albums.map(\.title) == ["Day 1", "Album 2"])
        #expect(list.albums[0].photos.map(\.url) == ["https://photos.example.org/c.jpg", "https://cdn.example.net/d.jpg"])
        #expect(list.skipped == 3)
        #expect(!list.isTruncated)
    }

    @Test func aBareArrayAndADateWithoutAnOffset() throws {
        let list = try read(#"[{"url": "x y.png", "taken": "2024-05-01T10:00:00"}, "z.png"]"#, type: "text/plain").get()
        #expect(list.title == nil)
        #expect(list.photos.map(\.url) == ["https://photos.example.org/trips/x%20y.png", "https://photos.example.org/trips/z.png"])
        #expect(list.photos[0].taken == 1_714_557_600_000_000)
    }

    @Test func malformedOrDeeplyNestedJSONIsSaidNotCrashedOn() {
        #expect(read(#"{"photos": ["a.jpg",]"#, type: "application/json").failure?.kind == .corrupt)
        #expect(read(String(repeating: "[", count: 100_000), type: "application/json").failure?.kind == .corrupt)
        #expect(read(#""just a string""#, type: "application/json").failure?.kind == .corrupt)
    }

    @Test func aListOfMoreThanTheMostPhotosIsCut() throws {
        let entries = (0..<(WebPhotoList.maxPhotos + 5)).map { "\"\($0).jpg\"" }.joined(separator: ",")
        let list = try read("[\(entries)]", type: "application/json").get()
        #expect(list.photos.count == WebPhotoList.maxPhotos)
        #expect(list.isTruncated)
    }

    /// Python's http.server, Apache, nginx and lighttpd, as they write a folder's listing.
    @Test(arguments: [
        // Python 3.11 http.server
        """
        <!DOCTYPE HTML><html lang="en"><head><meta charset="utf-8"><title>Directory listing for /holiday/</title></head>
        <body><h1>Directory listing for /holiday/</h1><hr><ul>
        <li><a href="IMG%200001.JPG">IMG 0001.JPG</a></li><li><a href="notes.txt">notes.txt</a></li>
        <li><a href="sub/">sub/</a></li><li><a href="b.png">b.png</a></li></ul><hr></body></html>
        """,
        // Apache 2.4 mod_autoindex
        """
        <!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"><html><head><title>Index of /holiday</title></head><body>
        <h1>Index of /holiday</h1><table><tr><th valign="top"><img src="/icons/blank.gif" alt="[ICO]"></th>
        <th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th></tr>
        <tr><td valign="top"><img src="/icons/back.gif" alt="[PARENTDIR]"></td><td><a href="/">Parent Directory</a></td></tr>
        <tr><td valign="top"><img src="/icons/image2.gif" alt="[IMG]"></td><td><a href="IMG%200001.JPG">IMG 0001.JPG</a></td></tr>
        <tr><td valign="top"><img src="/icons/image2.gif" alt="[IMG]"></td><td><a href="b.png">b.png</a></td></tr>
        </table></body></html>
        """,
        // nginx autoindex
        """
        <html>
        <head><title>Index of /holiday/</title></head>
        <body>
        <h1>Index of /holiday/</h1><hr><pre><a href="../">../</a>
        <a href="sub/">sub/</a>                                               01-May-2024 10:00       -
        <a href="IMG%200001.JPG">IMG 0001.JPG</a>                              01-May-2024 10:00   1234567
        <a href="b.png">b.png</a>                                             01-May-2024 10:00     45678
        </pre><hr></body>
        </html>
        """,
        // lighttpd mod_dirlisting
        """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
        <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head><title>Index of /holiday/</title></head><body>
        <h2>Index of /holiday/</h2><div class="list"><table summary="Directory Listing" cellpadding="0" cellspacing="0">
        <thead><tr><th class="n">Name</th><th class="m">Last Modified</th></tr></thead><tbody>
        <tr class="d"><td class="n"><a href="../">Parent Directory</a>/</td></tr>
        <tr><td class="n"><a href="IMG%200001.JPG">IMG 0001.JPG</a></td></tr>
        <tr><td class="n"><a href="b.png">b.png</a></td></tr>
        </tbody></table></div></body></html>
        """,
    ])
    func aFolderListingPageGivesItsPhotoLinks(page: String) throws {
        let list = try read(page, type: "text/html", base: "http://127.0.0.1:8000/holiday/").get()
        #expect(list.photos.map(\.url) == ["http://127.0.0.1:8000/holiday/IMG%200001.JPG", "http://127.0.0.1:8000/holiday/b.png"])
        #expect(list.title?.hasSuffix("/holiday/") == true || list.title == "Index of /holiday")
    }

    @Test func aGalleryPageGivesItsLinkedImagesAsThumbnails() throws {
        let page = """
            <html><head><base href="https://cdn.example.org/g/"><title>Gallery</title></head><body>
            <a href="full/1.jpg"><img src="small/1.jpg"></a> <a href="full/1.jpg">1</a>
            <a href="full/2.webp"><span><img src="small/2.webp"></span></a><a href="about.html">About</a>
            """
        let list = try read(page, type: "text/html").get()
        #expect(list.photos == [
            WebPhotoEntry(url: "https://cdn.example.org/g/full/1.jpg", thumbnail: "https://cdn.example.org/g/small/1.jpg"),
            WebPhotoEntry(url: "https://cdn.example.org/g/full/2.webp", thumbnail: "https://cdn.example.org/g/small/2.webp"),
        ])
        let images = try read(#"<p><img src="a.gif"><img src="data:image/png;base64,xx"><img src="b.gif"></p>"#, type: "text/html").get()
        #expect(images.photos.map(\.url) == ["https://photos.example.org/trips/a.gif", "https://photos.example.org/trips/b.gif"])
    }

    /// Apache's listings with `IconsAreLinks` put the server's icon in each photo's link: the
    /// icon is no thumbnail (so each photo's own download makes its thumbnail), whatever marks
    /// it as an icon: its folder, its declared size, or its being every photo's image.
    @Test(arguments: [
        #"<a href="a.jpg"><img src="/icons/image2.gif" alt="[IMG]"></a> <a href="a.jpg">a.jpg</a><br><a href="b.png"><img src="/icons/image2.gif" alt="[IMG]"></a> <a href="b.png">b.png</a>"#,
        #"<a href="a.jpg"><img src="/static/img.gif" width="20" height="22"></a><a href="b.png"><img src="/static/png.gif" width="20"></a>"#,
        #"<a href="a.jpg"><img src="image.png"></a><a href="a.jpg">a.jpg</a><a href="b.png"><img src="image.png"></a>"#,
        #"<a href="a.jpg"><img src="/static/a.gif"></a><a href="b.png"><img src="/static/b.gif"></a>"#,
    ])
    func aServersIconInAPhotosLinkIsNoThumbnail(page: String) throws {
        let list = try read("<html><head><title>Index of /holiday</title></head><body>" + page, type: "text/html",
                            base: "http://127.0.0.1:8000/holiday/").get()
        #expect(list.photos == [WebPhotoEntry(url: "http://127.0.0.1:8000/holiday/a.jpg"), WebPhotoEntry(url: "http://127.0.0.1:8000/holiday/b.png")])
    }

    /// A photo linked first with an icon and then with its own small picture gets the picture.
    @Test func aPhotosOwnPictureIsItsThumbnailBesideAnIcon() throws {
        let page = #"<a href="a.jpg"><img src="/icons/image2.gif"></a><a href="a.jpg"><img src="thumbs/a.jpg"></a>"#
        let list = try read(page, type: "text/html", base: "http://127.0.0.1:8000/holiday/").get()
        #expect(list.photos == [WebPhotoEntry(url: "http://127.0.0.1:8000/holiday/a.jpg", thumbnail: "http://127.0.0.1:8000/holiday/thumbs/a.jpg")])
    }

    @Test func aURIListWithCommentsAndCRLF() throws {
        let list = try read("# photos\r\nhttps://e.org/1.jpg\r\n\r\n2.jpg\r\nmailto:someone@e.org\r\n", type: "text/uri-list").get()
        #expect(list.photos.map(\.url) == ["https://e.org/1.jpg", "https://photos.example.org/trips/2.jpg"])
        #expect(list.skipped == 1)
    }

    @Test func whatIsNoListIsSaid() {
        #expect(read("just some words\nand more", type: "text/plain").failure?.kind == .notAnImage)
        #expect(read("\u{0}\u{1}binary", type: "application/pdf").failure?.kind == .notAnImage)
        #expect(read("", type: nil).failure?.kind == .notAnImage)
    }

    @Test func theFormatIsTheServersTypeElseTheFirstBytes() {
        #expect(WebListReader.format(of: Array("<html>".utf8), contentType: "application/json") == .json)
        #expect(WebListReader.format(of: Array("\u{FEFF} [1]".utf8), contentType: nil) == .json)
        #expect(WebListReader.format(of: Array("  <!DOCTYPE html>".utf8), contentType: "application/octet-stream") == .html)
        #expect(WebListReader.format(of: Array("a.jpg".utf8), contentType: "text/plain") == .plainText)
        #expect(WebListReader.format(of: Array("a.jpg".utf8), contentType: "video/mp4") == nil)
    }

    /// The list read in a decoder process, through a sealed memory file, is the list read here;
    /// a file that crashes the process costs that list only.
    @Test func aListReadInADecoderProcessIsTheListReadHere() throws {
        let folder = TempFolder()
        let text = #"{"title": "Kyoto", "photos": [{"url": "a.jpg", "thumbnail": "t/a.jpg"}, "b.jpg"], "albums": [{"title": "Day 1", "photos": ["c.jpg"]}]}"#
        folder.file("kyoto.json", text: text)
        folder.file("crash.json", text: "GPHOTOBROWSE-TEST-CRASH")
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        settings.testModes = true
        let isolated = IsolatedDecoder(settings: settings)
        let there = try isolated.readWebList(path: folder.path("kyoto.json"), baseURL: base, contentType: "application/json",
                                             cancellation: CancellationFlag()).get()
        #expect(there == (try read(text, type: "application/json").get()))
        #expect(isolated.counts.started == 1)
        let crashed = isolated.readWebList(path: folder.path("crash.json"), baseURL: base, contentType: nil, cancellation: CancellationFlag())
        #expect(crashed.failure?.kind == .unsafe)
        #expect(isolated.counts.replaced == 1)
        #expect(isolated.readWebList(path: folder.path("kyoto.json"), baseURL: base, contentType: nil, cancellation: CancellationFlag())
            .map(\.photoCount) == .success(3))
    }
}
