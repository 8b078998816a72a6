import CGdkPixbuf
import Foundation
import PhotoCore
import PhotoIO
import Testing

// MARK: - Hand-made EXIF with rationals and a GPS directory (`exifSegment`, TestFiles.swift)

/// The fields a camera's properties are read from, beside `ExifField`'s own (orientation,
/// dates taken).
private extension ExifField {
    static func make(_ s: String) -> ExifField { .ascii(0x010F, s, in: .ifd0) }
    static func model(_ s: String) -> ExifField { .ascii(0x0110, s, in: .ifd0) }
    static func exposureTime(_ n: UInt32, _ d: UInt32) -> ExifField { ExifField(tag: 0x829A, value: .rational([(n, d)]), directory: .exif) }
    static func fNumber(_ n: UInt32, _ d: UInt32) -> ExifField { ExifField(tag: 0x829D, value: .rational([(n, d)]), directory: .exif) }
    static func iso(_ v: UInt16) -> ExifField { ExifField(tag: 0x8827, value: .short(v), directory: .exif) }
    static func isoSpeed(_ v: UInt32) -> ExifField { ExifField(tag: 0x8833, value: .long(v), directory: .exif) }
    static func focalLength(_ n: UInt32, _ d: UInt32) -> ExifField { ExifField(tag: 0x920A, value: .rational([(n, d)]), directory: .exif) }
    static func pixelX(_ v: UInt32) -> ExifField { ExifField(tag: 0xA002, value: .long(v), directory: .exif) }
    static func pixelY(_ v: UInt16) -> ExifField { ExifField(tag: 0xA003, value: .short(v), directory: .exif) }
    static func focalLength35mm(_ v: UInt16) -> ExifField { ExifField(tag: 0xA405, value: .short(v), directory: .exif) }
    static func lensModel(_ s: String) -> ExifField { .ascii(0xA434, s, in: .exif) }
    static func latitudeRef(_ s: String) -> ExifField { .ascii(0x0001, s, in: .gps) }
    static func latitude(_ dms: [(UInt32, UInt32)]) -> ExifField { ExifField(tag: 0x0002, value: .rational(dms), directory: .gps) }
    static func longitudeRef(_ s: String) -> ExifField { .ascii(0x0003, s, in: .gps) }
    static func longitude(_ dms: [(UInt32, UInt32)]) -> ExifField { ExifField(tag: 0x0004, value: .rational(dms), directory: .gps) }
}

/// "59/10" as 5.9, "64" as 64; the first of a list ("43/1, 28/1, …"); nil for anything else.
private func rational(_ text: String) -> Double? {
    let parts = text.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let numerator = Double(parts[0]) else { return nil }
    if parts.count == 1 { return numerator }
    guard parts.count == 2, let denominator = Double(parts[1]), denominator != 0 else { return nil }
    return numerator / denominator
}

/// "43/1, 28/1, 281400000/100000000" as degrees.
private func degrees(_ text: String) -> Double? {
    let parts = text.split(separator: ",").map { rational(String($0)) }
    guard parts.count == 3, let d = parts[0], let m = parts[1], let s = parts[2] else { return nil }
    return d + m / 60 + s / 3600
}

@Suite struct PhotoPropertiesTests {
    private let folder = TempFolder()

    /// A 32×24 JPEG made by gdk-pixbuf, with `tags` in an EXIF segment after SOI.
    private func photo(_ name: String, _ tags: [ExifField], littleEndian: Bool = false) -> String {
        folder.image("plain-\(name)", width: 32, height: 24, type: "jpeg")
        let plain = folder.bytes("plain-\(name)")
        folder.file(name, bytes: Array(plain[0..<2]) + exifSegment(tags, littleEndian: littleEndian) + Array(plain[2...]))
        return folder.uri(name)
    }

    private static let everything: [ExifField] = [
        .make("Canon"), .model("Canon EOS 40D"), .orientation(1),
        .exposureTime(1, 250), .fNumber(56, 10), .iso(400), .focalLength(50, 1), .focalLength35mm(80),
        .lensModel("EF 50mm f/1.8 II"), .dateTimeOriginal("2026:11:29 14:05:00"), .offsetTimeOriginal("+01:00"),
        .pixelX(6000), .pixelY(4000),
        .latitudeRef("N"), .latitude([(48, 1), (51, 1), (3013, 100)]),
        .longitudeRef("E"), .longitude([(2, 1), (17, 1), (4013, 100)]),
    ]

    @Test(arguments: [false, true])
    func aJPEGGivesEverythingItRecords(littleEndian: Bool) throws {
        let uri = photo("IMG_0001.jpg", Self.everything, littleEndian: littleEndian)
        let details = PhotoProperties.read(uri: uri)
        #expect(details.uri == uri)
        #expect(details.name == "IMG_0001.jpg")
        #expect(details.folder == folder.path)
        #expect(details.size == Int64(folder.bytes("IMG_0001.jpg").count))
        #expect(details.contentType == "image/jpeg")
        #expect(details.typeDescription?.isEmpty == false)
        // The frame header's size, not EXIF's stale 6000×4000.
        #expect(details.dimensions == PixelSize(width: 32, height: 24))
        #expect(details.dateTaken == ExifDate.microseconds(dateTime: "2026:11:29 14:05:00", offset: "+01:00"))
        #expect(details.dateTakenOffset == 3600)
        #expect(details.camera == "Canon EOS 40D")
        #expect(details.lens == "EF 50mm f/1.8 II")
        #expect(details.exposureTime == 1.0 / 250)
        #expect(details.fNumber == 5.6)
        #expect(details.iso == 400)
        #expect(details.focalLength == 50)
        #expect(details.focalLength35mm == 80)
        let latitude = try #require(details.latitude), longitude = try #require(details.longitude)
        #expect(abs(latitude - (48 + 51.0 / 60 + 30.13 / 3600)) < 1e-9)
        #expect(abs(longitude - (2 + 17.0 / 60 + 40.13 / 3600)) < 1e-9)

        let rows = details.rows(utcOffset: { _ in 0 })
        #expect(rows.map(\.label) == ["Name", "Folder", "Size", "Dimensions", "Date Taken", "Camera", "Lens",
                                      "Exposure", "Aperture", "ISO", "Focal Length", "Location", "Type"])
        let values = Dictionary(uniqueKeysWithValues: rows.map { ($0.label, $0.value) })
        #expect(values["Date Taken"] == "29 Nov 2026, 13:05")
        #expect(values["Exposure"] == "1/250 s")
        #expect(values["Aperture"] == "ƒ/5.6")
        #expect(values["Focal Length"] == "50 mm (80 mm in 35 mm terms)")
        #expect(values["Location"] == "48.8584° N, 2.2945° E")
    }

    @Test func southAndWestAreNegative() {
        let uri = photo("rio.jpg", [.latitudeRef("S"), .latitude([(22, 1), (57, 1), (7, 1)]),
                                    .longitudeRef("W"), .longitude([(43, 1), (12, 1), (38, 1)])])
        let details = PhotoProperties.read(uri: uri)
        #expect(details.latitude.map { abs($0 + (22 + 57.0 / 60 + 7.0 / 3600)) < 1e-9 } == true)
        #expect(details.longitude.map { abs($0 + (43 + 12.0 / 60 + 38.0 / 3600)) < 1e-9 } == true)
        #expect(details.locationText == "22.9519° S, 43.2106° W")
        // On the equator, or on the prime meridian, is a place.
        let equator = PhotoProperties.read(uri: photo("equator.jpg", [.latitudeRef("N"), .latitude([(0, 1), (0, 1), (0, 1)]),
                                                                      .longitudeRef("W"), .longitude([(78, 1), (27, 1), (0, 1)])]))
        #expect(equator.locationText == "0.0000° N, 78.4500° W")
    }

    @Test func incompleteOrImpossibleCoordinatesAreLeftOut() {
        let cases: [[ExifField]] = [
            [.latitude([(48, 1), (51, 1), (30, 1)]), .longitudeRef("E"), .longitude([(2, 1), (17, 1), (40, 1)])],  // no N/S
            [.latitudeRef("N"), .latitude([(48, 1), (51, 1), (30, 1)])],                                            // no longitude
            [.latitudeRef("X"), .latitude([(48, 1), (0, 1), (0, 1)]), .longitudeRef("E"), .longitude([(2, 1), (0, 1), (0, 1)])],
            [.latitudeRef("N"), .latitude([(95, 1), (0, 1), (0, 1)]), .longitudeRef("E"), .longitude([(2, 1), (0, 1), (0, 1)])],
            [.latitudeRef("N"), .latitude([(48, 0), (0, 1), (0, 1)]), .longitudeRef("E"), .longitude([(2, 1), (0, 1), (0, 1)])],
            [.latitudeRef("N"), .latitude([(0, 1), (0, 1), (0, 1)]), .longitudeRef("E"), .longitude([(0, 1), (0, 1), (0, 1)])],  // no fix
        ]
        for (i, tags) in cases.enumerated() {
            let details = PhotoProperties.read(uri: photo("gps\(i).jpg", tags))
            #expect(details.locationText == nil, "case \(i)")
        }
    }

    @Test func theOrientationTurnsTheDimensions() {
        #expect(PhotoProperties.read(uri: photo("turned6.jpg", [.orientation(6)])).dimensions == PixelSize(width: 24, height: 32))
        #expect(PhotoProperties.read(uri: photo("turned3.jpg", [.orientation(3)])).dimensions == PixelSize(width: 32, height: 24))
    }

    @Test func exifDimensionsStandInWhenNoFrameHeaderIsFound() {
        // SOI, EXIF, then the end: no frame header at all.
        let bytes = [0xFF, 0xD8] + exifSegment([.orientation(8), .pixelX(6000), .pixelY(4000)], littleEndian: true) + [0xFF, 0xD9]
        folder.file("headless.jpg", bytes: bytes)
        #expect(PhotoProperties.read(uri: folder.uri("headless.jpg")).dimensions == PixelSize(width: 4000, height: 6000))
    }

    @Test func aFrameHeaderAfterLargeSegmentsIsFound() {
        let filler = (0..<3).flatMap { _ in [0xFF, 0xE2, 0xEA, 0x62] + [UInt8](repeating: 0x20, count: 60_000) }
        folder.image("base.jpg", width: 40, height: 30, type: "jpeg")
        let base = folder.bytes("base.jpg")
        folder.file("padded.jpg", bytes: Array(base[0..<2]) + filler + Array(base[2...]))
        #expect(PhotoProperties.read(uri: folder.uri("padded.jpg")).dimensions == PixelSize(width: 40, height: 30))
    }

    @Test func aHugeISOFallsBackToTheISOSpeedTag() {
        #expect(PhotoProperties.read(uri: photo("dark.jpg", [.iso(65535), .isoSpeed(102_400)])).iso == 102_400)
        #expect(PhotoProperties.read(uri: photo("zero.jpg", [.iso(0)])).iso == nil)
    }

    @Test func nonsenseValuesAreLeftOut() {
        let details = PhotoProperties.read(uri: photo("odd.jpg", [
            .make("   "), .model("\u{1}\u{2}"), .exposureTime(1, 0), .fNumber(0, 10), .focalLength(0, 0), .lensModel(""),
            .focalLength35mm(0), .dateTimeOriginal("0000:00:00 00:00:00"),
        ]))
        #expect(details.camera == nil)
        #expect(details.lens == nil)
        #expect(details.exposureTime == nil)
        #expect(details.fNumber == nil)
        #expect(details.focalLength == nil)
        #expect(details.focalLength35mm == nil)
        #expect(details.dateTaken == nil)
        #expect(details.rows.map(\.label) == ["Name", "Folder", "Size", "Dimensions", "Type"])
    }

    @Test func aPictureWithoutExifHasOnlyFileFacts() {
        folder.image("picture.png", width: 8, height: 8)
        let details = PhotoProperties.read(uri: folder.uri("picture.png"))
        #expect(details.name == "picture.png")
        #expect(details.contentType == "image/png")
        #expect(details.size == Int64(folder.bytes("picture.png").count))
        #expect(details.dimensions == nil)
        #expect(details.camera == nil && details.dateTaken == nil && details.latitude == nil)
    }

    @Test func aMissingFileStillHasANameAndAFolder() {
        let details = PhotoProperties.read(uri: folder.uri("gone.jpg"))
        #expect(details.name == "gone.jpg")
        #expect(details.folder == folder.path)
        #expect(details.size == nil && details.contentType == nil && details.dimensions == nil)
        #expect(details.rows.map(\.label) == ["Name", "Folder"])
    }

    @Test func anOddFileNameIsShownReadably() {
        let uri = photo("été #1 %.jpg", [.model("X100")])
        let details = PhotoProperties.read(uri: uri)
        #expect(details.name == "été #1 %.jpg")
        #expect(details.camera == "X100")
    }

    @Test func aFIFONamedLikeAPhotoDoesNotBlock() {
        folder.fifo("pipe.jpg")
        let uri = folder.uri("pipe.jpg")
        let details = runOnThread { PhotoProperties.read(uri: uri) }
        #expect(details?.name == "pipe.jpg")
        #expect(details?.contentType == "inode/fifo")
        #expect(details?.dimensions == nil)
    }

    @Test func damagedExifNeverCrashes() {
        var rng = SeededGenerator(seed: 7)
        let segment = exifSegment(Self.everything, littleEndian: true)
        folder.image("base.jpg", width: 16, height: 16, type: "jpeg")
        let rest = folder.bytes("base.jpg")[2...]
        for round in 0..<400 {
            var damaged = segment
            for _ in 0..<(1 + round % 8) {
                let i = Int.random(in: 4..<damaged.count, using: &rng)
                damaged[i] = round % 3 == 0 ? 0xFF : UInt8.random(in: 0...255, using: &rng)
            }
            folder.file("damaged.jpg", bytes: [0xFF, 0xD8] + damaged + rest)
            let details = PhotoProperties.read(uri: folder.uri("damaged.jpg"))
            #expect(details.name == "damaged.jpg")
            if let latitude = details.latitude { #expect(abs(latitude) <= 90) }
            if let longitude = details.longitude { #expect(abs(longitude) <= 180) }
        }
    }

    // MARK: - The shared corpus

    @Test(.enabled(if: SharedCorpus.isPresent, SharedCorpus.absent))
    func everyCorpusFileIsReadWithoutCrashingOrBlocking() {
        let files = ["bad", "cameras"].flatMap { SharedCorpus.files(under: SharedCorpus.root + "/" + $0) }
        #expect(!files.isEmpty)
        let finished = runOnThread { () -> Int in
            var count = 0
            for path in files {
                let details = PhotoProperties.read(uri: fileURI(path))
                _ = details.rows
                count += 1
            }
            return count
        }
        #expect(finished == files.count)
    }

    /// Model, exposure, aperture, ISO, focal lengths and the frame size, against ImageMagick.
    @Test(.enabled(if: SharedCorpus.isPresent, SharedCorpus.absent), .enabled(if: ImageMagick.identify != nil, ImageMagick.absent))
    func cameraPhotosGiveWhatImageMagickReads() throws {
        let identify = try #require(ImageMagick.identify)
        let photos = SharedCorpus.files(under: SharedCorpus.root + "/cameras").filter { $0.lowercased().hasSuffix(".jpg") || $0.lowercased().hasSuffix(".jpeg") }
        #expect(photos.count > 10)
        var compared = (model: 0, settings: 0, size: 0)
        for path in photos {
            let f = ImageMagick.fields(identify, of: path, ["%[EXIF:Model]", "%[EXIF:ExposureTime]", "%[EXIF:FNumber]",
                                                 "%[EXIF:PhotographicSensitivity]", "%[EXIF:FocalLength]",
                                                 "%[EXIF:FocalLengthIn35mmFilm]", "%[EXIF:Orientation]", "%w", "%h"])
            let details = PhotoProperties.read(uri: fileURI(path))
            if let model = f[0] {
                let words = model.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
                #expect(details.camera?.hasSuffix(words) == true, "\(path): ImageMagick reads Model \(model), camera \(details.camera ?? "nil")")
                compared.model += 1
            }
            func same(_ ours: Double?, _ theirs: String?, _ name: String) {
                guard let theirs, let want = rational(theirs), want > 0 else { return }
                #expect(ours.map { abs($0 - want) <= 1e-9 * want } == true, "\(path): \(name) \(ours.map { "\($0)" } ?? "nil"), ImageMagick \(theirs)")
                compared.settings += 1
            }
            same(details.exposureTime, f[1], "ExposureTime")
            same(details.fNumber, f[2], "FNumber")
            same(details.iso.map(Double.init), f[3], "ISO")
            same(details.focalLength, f[4], "FocalLength")
            same(details.focalLength35mm.map(Double.init), f[5], "FocalLengthIn35mmFilm")
            if let width = f[7].flatMap({ Int($0) }), let height = f[8].flatMap({ Int($0) }) {
                let turned = f[6].flatMap { Int($0) }.map { (5...8).contains($0) } ?? false
                let want = turned ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
                #expect(details.dimensions == want, "\(path): \(details.dimensions.map { "\($0)" } ?? "nil"), ImageMagick \(want)")
                compared.size += 1
            }
        }
        #expect(compared.model > 10 && compared.settings > 50 && compared.size > 10, "\(compared)")
    }

    @Test(.enabled(if: SharedCorpus.has("cameras/exif-samples/gps"), SharedCorpus.missing("cameras/exif-samples/gps")),
          .enabled(if: ImageMagick.identify != nil, ImageMagick.absent))
    func gpsPhotosGiveTheCoordinatesImageMagickReads() throws {
        let gps = SharedCorpus.root + "/cameras/exif-samples/gps"
        let identify = try #require(ImageMagick.identify)
        let photos = SharedCorpus.files(under: gps).filter { $0.lowercased().hasSuffix(".jpg") }
        #expect(!photos.isEmpty)
        for path in photos {
            let f = ImageMagick.fields(identify, of: path, ["%[EXIF:GPSLatitude]", "%[EXIF:GPSLatitudeRef]",
                                                 "%[EXIF:GPSLongitude]", "%[EXIF:GPSLongitudeRef]"])
            let latitude = try #require(f[0].flatMap(degrees)), longitude = try #require(f[2].flatMap(degrees))
            let wantLatitude = f[1]?.hasPrefix("S") == true ? -latitude : latitude
            let wantLongitude = f[3]?.hasPrefix("W") == true ? -longitude : longitude
            let details = PhotoProperties.read(uri: fileURI(path))
            #expect(details.latitude.map { abs($0 - wantLatitude) < 1e-9 } == true, "\(path): \(details.latitude ?? .nan) vs \(wantLatitude)")
            #expect(details.longitude.map { abs($0 - wantLongitude) < 1e-9 } == true, "\(path): \(details.longitude ?? .nan) vs \(wantLongitude)")
            #expect(details.rows.contains { $0.label == "Location" })
        }
    }
}
