@testable import PhotoCore
import Testing

@Suite struct PhotoMarksTests {
    @Test func ratingsOutOfRangeAreClampedAndRejectedCountsAsNone() {
        #expect(PhotoMarks(rating: 7).rating == 5)
        #expect(PhotoMarks(rating: -1).rating == 0)
        var marks = PhotoMarks(rating: 3)
        marks.setRating(4)
        #expect(marks.rating == 4)
    }

    @Test func tagsAreTrimmedCleanedAndEachKeptOnce() {
        let marks = PhotoMarks(tags: [" beach ", "Beach", "", "sun\u{202E}set", "\u{7}dog", "Kyoto"])
        #expect(marks.tags == ["beach", "sunset", "dog", "Kyoto"])
    }

    @Test func changesApplyToTheMarksAPhotoHas() {
        let start = PhotoMarks(favourite: false, rating: 2, tags: ["a"])
        #expect(MarksChange.rating(4).applied(to: start) == PhotoMarks(rating: 4, tags: ["a"]))
        #expect(MarksChange.favourite(true).applied(to: start) == PhotoMarks(favourite: true, rating: 2, tags: ["a"]))
        #expect(MarksChange.tags(["b", "c"]).applied(to: start).tags == ["b", "c"])
    }

    @Test func sidecarsAreReadAsDarktableThenAsLightroomNamesThem() {
        #expect(SidecarNames.written(for: "IMG_1.jpg") == "IMG_1.jpg.xmp")
        #expect(SidecarNames.read(for: "IMG_1.jpg") == ["IMG_1.jpg.xmp", "IMG_1.xmp"])
        #expect(SidecarNames.read(for: "noext") == ["noext.xmp"])
        #expect(SidecarNames.read(for: ".hidden") == [".hidden.xmp"])
    }

    @Test func aSidecarAnotherAppWritesIsTracedToThePhotosThatReadIt() {
        let folder = "file:///home/me/Pictures/2024.05%20Kyoto/"
        let photos = ["IMG_1.jpg", "IMG_1.CR2", "IMG_10.jpg", "a%20b.jpg", "noext", "IMG_1.jpg.png"].map { folder + $0 }
        func found(_ sidecars: [String]) -> [String] {
            SidecarNames.photos(reading: Set(sidecars.map { folder + $0 }), among: photos).map { String($0.dropFirst(folder.count)) }
        }
        // darktable's and digiKam's name: the one photo; Lightroom's: every photo of that name.
        #expect(found(["IMG_1.jpg.xmp"]) == ["IMG_1.jpg", "IMG_1.jpg.png"])
        #expect(found(["IMG_1.xmp"]) == ["IMG_1.jpg", "IMG_1.CR2"])
        #expect(found(["a%20b.jpg.xmp", "noext.xmp"]) == ["a%20b.jpg", "noext"])
        #expect(found(["IMG_1.jpg.png.xmp"]) == ["IMG_1.jpg.png"])
        // In another folder, or not a sidecar the photos read.
        #expect(found(["other.xmp", "IMG_1.JPG.xmp"]).isEmpty)
        #expect(SidecarNames.photos(reading: ["file:///elsewhere/IMG_1.jpg.xmp"], among: photos).isEmpty)
        #expect(found([]).isEmpty)
    }

    @Test func aFreshSidecarNamesTheRatingTagsAndFavourite() {
        let text = XMPSidecarText.fresh(PhotoMarks(favourite: true, rating: 4, tags: ["a&b", "<c>"]))
        #expect(text.contains("xmp:Rating=\"4\""))
        #expect(text.contains("digiKam:PickLabel=\"3\""))
        #expect(text.contains("<rdf:li>a&amp;b</rdf:li>"))
        #expect(text.contains("<rdf:li>&lt;c&gt;</rdf:li>"))
        #expect(!XMPSidecarText.fresh(PhotoMarks(rating: 1)).contains("PickLabel"))
    }
}

@Suite struct EmbeddedMarkSegmentsTests {
    func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    func iptc(_ keywords: [String], datasets: [(UInt8, String)] = []) -> [UInt8] {
        var records: [UInt8] = [0x1C, 2, 0, 0, 2, 0, 4]  // the record version
        for (dataset, value) in keywords.map({ (UInt8(25), $0) }) + datasets {
            let bytes = Array(value.utf8)
            records += [0x1C, 2, dataset, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
        }
        var resource: [UInt8] = Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
        resource += [UInt8(records.count >> 24), UInt8((records.count >> 16) & 0xFF), UInt8((records.count >> 8) & 0xFF), UInt8(records.count & 0xFF)]
        resource += records
        if records.count % 2 == 1 { resource.append(0) }
        return EmbeddedMarkSegments.photoshopHeader + resource
    }

    @Test func findsTheXMPPacketAndTheIPTCKeywordsBeforeTheImageData() {
        let packet = Array("<x:xmpmeta/>".utf8)
        let jpeg: [UInt8] = [0xFF, 0xD8] + segment(0xE0, Array("JFIF\0".utf8)) + segment(0xE1, EmbeddedMarkSegments.xmpHeader + packet)
            + segment(0xED, iptc(["Kyoto", "Tempel"])) + [0xFF, 0xDA, 0, 2, 1, 2, 3]
        let found = EmbeddedMarkSegments.read(jpeg)
        #expect(found.xmp == packet)
        #expect(found.keywords == ["Kyoto", "Tempel"])
    }

    @Test func findsTheIPTCPlaceNames() {
        let jpeg: [UInt8] = [0xFF, 0xD8] + segment(0xED, iptc(["Tempel"], datasets: [(90, "Kyōto"), (101, "Japan"), (92, "Gion"), (95, "Kansai")]))
            + [0xFF, 0xDA, 0, 2, 1, 2, 3]
        let found = EmbeddedMarkSegments.read(jpeg)
        #expect(found.keywords == ["Tempel"])
        #expect(found.places == PlaceNames(location: "Gion", city: "Kyōto", state: "Kansai", country: "Japan"))
        #expect(found.places.names == ["Gion", "Kyōto", "Kansai", "Japan"])
        #expect(PlaceNames(lines: found.places.lines) == found.places)
        #expect(PlaceNames(city: "Line\nbreak").city == "Linebreak")
    }

    @Test func truncatedOrForeignBytesGiveNothing() {
        #expect(EmbeddedMarkSegments.read([0x89, 0x50]).xmp == nil)
        let cut: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, 1, 2]
        #expect(EmbeddedMarkSegments.read(cut).xmp == nil)
        #expect(EmbeddedMarkSegments.iptcDatasets([0x1C, 2, 25, 0xFF, 0xFF]) == [])
    }
}

@Suite struct PhotoSearchTests {
    let photos = [
        SearchablePhoto(name: "IMG_0001.jpg", folder: "2024/Kyoto", camera: "Canon EOS R5",
                        marks: PhotoMarks(favourite: true, rating: 5, tags: ["Tempel", "Herbst"]), taken: 1_700_000_000),
        SearchablePhoto(name: "beach.png", folder: "Summer", camera: "", marks: PhotoMarks(rating: 3, tags: ["Strand"]), taken: 1_600_000_000),
        SearchablePhoto(name: "clip.mp4", folder: "Summer", camera: "Pixel 7", marks: .none, taken: nil, isVideo: true),
        SearchablePhoto(name: "Café.jpg", folder: "Paris", camera: "", marks: PhotoMarks(rating: 1)),
    ]

    func names(_ search: PhotoSearch) -> [String] {
        let matcher = search.matcher()
        return photos.filter(matcher.matches).map(\.name)
    }

    @Test func anEmptySearchKeepsEveryPhoto() {
        #expect(PhotoSearch(text: "   ").isEmpty)
        #expect(names(PhotoSearch()).count == 4)
    }

    @Test func everyWordMatchesNameTagsCameraOrFolderWithoutCaseOrAccents() {
        #expect(names(PhotoSearch(text: "tempel")) == ["IMG_0001.jpg"])
        #expect(names(PhotoSearch(text: "kyoto canon")) == ["IMG_0001.jpg"])
        #expect(names(PhotoSearch(text: "summer")) == ["beach.png", "clip.mp4"])
        #expect(names(PhotoSearch(text: "cafe")) == ["Café.jpg"])
        #expect(names(PhotoSearch(text: "pixel strand")) == [])
    }

    @Test func chipsForFavouritesRatingKindAndDates() {
        #expect(names(PhotoSearch(favouritesOnly: true)) == ["IMG_0001.jpg"])
        #expect(names(PhotoSearch(minimumRating: 3)) == ["IMG_0001.jpg", "beach.png"])
        #expect(names(PhotoSearch(kind: .videos)) == ["clip.mp4"])
        #expect(names(PhotoSearch(kind: .photos)).count == 3)
        #expect(names(PhotoSearch(takenFrom: 1_650_000_000)) == ["IMG_0001.jpg"])
        #expect(names(PhotoSearch(takenBefore: 1_650_000_000)) == ["beach.png"])
        #expect(names(PhotoSearch(text: "summer", minimumRating: 1)) == ["beach.png"])
    }
}
