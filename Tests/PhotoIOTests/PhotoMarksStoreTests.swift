import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// Marks written beside real photos and read back through real decoder processes.
@Suite(.serialized) struct PhotoMarksStoreTests {
    private let folder = TempFolder()
    private let dataHome = TempFolder()

    private static let decoder: IsolatedDecoder = {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        return IsolatedDecoder(settings: settings)
    }()

    private var store: PhotoMarksStore { PhotoMarksStore(dataHome: dataHome.path, decoder: Self.decoder) }

    @Test func aRatingGoesIntoASidecarBesideThePhotoWhichIsNotTouched() throws {
        folder.image("a.jpg", width: 40, height: 30, type: "jpeg")
        let before = folder.bytes("a.jpg")
        let place = try store.write(PhotoMarks(rating: 4, tags: ["sea"]), for: folder.uri("a.jpg")).get()
        #expect(place == .beside(folder.path("a.jpg.xmp")))
        #expect(folder.bytes("a.jpg") == before)
        #expect(store.marks(of: folder.uri("a.jpg")) == PhotoMarks(rating: 4, tags: ["sea"]))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(names) == ["a.jpg", "a.jpg.xmp"])
    }

    @Test func anExistingSidecarIsMergedIntoAndKeepsItsOtherFields() throws {
        folder.image("b.jpg", width: 40, height: 30, type: "jpeg")
        folder.file("b.jpg.xmp", text: """
        <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
        <rdf:Description rdf:about='' xmlns:darktable='http://darktable.sf.net/' xmlns:xmp='http://ns.adobe.com/xap/1.0/' darktable:xmp_version='5' xmp:Rating='1'/>
        </rdf:RDF></x:xmpmeta>
        """)
        try store.write(PhotoMarks(favourite: true, rating: 3), for: folder.uri("b.jpg")).get()
        let text = String(decoding: folder.bytes("b.jpg.xmp"), as: UTF8.self)
        #expect(text.contains("darktable:xmp_version=\"5\""))
        #expect(store.marks(of: folder.uri("b.jpg")) == PhotoMarks(favourite: true, rating: 3))
    }

    @Test func aSidecarThatIsNotXMPIsLeftAlone() {
        folder.image("c.jpg", width: 40, height: 30, type: "jpeg")
        folder.file("c.jpg.xmp", text: "not xml at all")
        guard case .failure = store.write(PhotoMarks(rating: 2), for: folder.uri("c.jpg")) else {
            Issue.record("a broken sidecar was overwritten")
            return
        }
        #expect(String(decoding: folder.bytes("c.jpg.xmp"), as: UTF8.self) == "not xml at all")
    }

    @Test func lightroomsSidecarIsReadWhenThereIsNoOther() {
        folder.image("d.jpg", width: 40, height: 30, type: "jpeg")
        folder.file("d.xmp", text: XMPSidecarText.fresh(PhotoMarks(rating: 2, tags: ["lr"])))
        #expect(store.marks(of: folder.uri("d.jpg")) == PhotoMarks(rating: 2, tags: ["lr"]))
    }

    @Test func marksEmbeddedInTheJPEGAreRead() {
        folder.image("e.jpg", width: 40, height: 30, type: "jpeg")
        let photo = folder.bytes("e.jpg")
        let packet = EmbeddedMarkSegments.xmpHeader + Array(XMPSidecarText.fresh(PhotoMarks(rating: 5, tags: ["inside"])).utf8)
        let length = packet.count + 2
        let embedded = Array(photo[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + packet + Array(photo[2...])
        folder.file("e.jpg", bytes: embedded)
        #expect(store.marks(of: folder.uri("e.jpg")) == PhotoMarks(rating: 5, tags: ["inside"]))
    }

    /// Which photos have a sidecar is found from each folder's names, read once: those beside
    /// (either name, any case of `.xmp`, names a URI escapes), those in the app's own store, and
    /// no photo without one.
    @Test func photosWithSidecarsAreFoundFromTheFoldersNames() throws {
        for name in ["a.jpg", "b.jpg", "c.jpg", "été x.jpg", "d.JPG"] { folder.file(name, text: "") }
        folder.file("a.jpg.xmp", text: "")
        folder.file("b.xmp", text: "")
        folder.file("été x.jpg.xmp", text: "")
        folder.file("d.JPG.XMP", text: "")
        let remote = "https://example.org/photos/x.jpg"
        try store.write(PhotoMarks(favourite: true), for: remote).get()
        let uris = ["a.jpg", "b.jpg", "c.jpg", "été x.jpg", "d.JPG"].map { folder.uri($0) } + [remote, "https://example.org/y.jpg"]
        // d.JPG.XMP is not a name the sidecars are looked for by: found here, then looked at
        // (and not read) as before.
        #expect(store.withSidecars(among: uris) == Set(["a.jpg", "b.jpg", "été x.jpg"].map { folder.uri($0) } + [remote]))
        #expect(PhotoMarksStore(dataHome: folder.path + "/none", decoder: Self.decoder).withSidecars(among: [folder.uri("c.jpg")]).isEmpty)
    }

    @Test func aPhotoNotInALocalFolderIsMarkedInTheAppsOwnStore() throws {
        let uri = "https://example.org/photos/x.jpg"
        let place = try store.write(PhotoMarks(favourite: true), for: uri).get()
        #expect(place == .appStore(dataHome.path + "/gphotobrowse/marks/" + MD5.hex(uri) + ".xmp"))
        #expect(store.marks(of: uri).favourite)
    }
}
