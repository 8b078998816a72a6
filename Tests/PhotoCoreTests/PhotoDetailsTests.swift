import Testing
@testable import PhotoCore

@Suite struct PhotoDetailsTests {
    // MARK: - Exposure, aperture, focal length

    @Test func exposureTimesReadAsAPhotographerWritesThem() {
        let cases: [(Double, String)] = [
            (1.0 / 250, "1/250 s"), (0.5, "1/2 s"), (2, "2 s"), (30, "30 s"), (1, "1 s"),
            (4.0 / 300, "1/75 s"), (1.0 / 3, "1/3 s"), (0.25, "1/4 s"), (1.0 / 8000, "1/8000 s"),
            (0.0056, "1/179 s"), (560_852.0 / 100_000_000, "1/178 s"),
            (0.8, "0.8 s"), (0.3, "0.3 s"), (0.4, "0.4 s"), (2.5, "2.5 s"), (1.3, "1.3 s"),
        ]
        for (seconds, text) in cases {
            #expect(PhotoDetails.exposureText(seconds) == text, "\(seconds)")
        }
        for nonsense in [0, -1, Double.nan, Double.infinity] {
            #expect(PhotoDetails.exposureText(nonsense) == nil)
        }
    }

    @Test func fNumbersShowOneDecimalAtMost() {
        #expect(PhotoDetails.apertureText(5.6) == "ƒ/5.6")
        #expect(PhotoDetails.apertureText(8) == "ƒ/8")
        #expect(PhotoDetails.apertureText(11) == "ƒ/11")
        #expect(PhotoDetails.apertureText(59.0 / 10) == "ƒ/5.9")
        #expect(PhotoDetails.apertureText(1.75) == "ƒ/1.8")
        #expect(PhotoDetails.apertureText(0) == nil)
    }

    @Test func focalLengthsAddThe35mmEquivalentWhenItDiffers() {
        func text(_ length: Double?, _ equivalent: Int?) -> String? {
            PhotoDetails(uri: "file:///a.jpg", name: "a.jpg", focalLength: length, focalLength35mm: equivalent).focalLengthText
        }
        #expect(text(50, 75) == "50 mm (75 mm in 35 mm terms)")
        #expect(text(50, nil) == "50 mm")
        #expect(text(50, 0) == "50 mm")
        #expect(text(50, 50) == "50 mm")
        #expect(text(166.0 / 10, 77) == "16.6 mm (77 mm in 35 mm terms)")
        #expect(text(24005.0 / 421, nil) == "57 mm")
        #expect(text(nil, 75) == nil)
    }

    // MARK: - Location

    @Test func coordinatesAreSignedDegreesWithTheirHemispheres() {
        #expect(PhotoDetails.locationText(latitude: 48.858_37, longitude: 2.294_48) == "48.8584° N, 2.2945° E")
        #expect(PhotoDetails.locationText(latitude: -33.856_8, longitude: 151.215_3) == "33.8568° S, 151.2153° E")
        #expect(PhotoDetails.locationText(latitude: 40.689_2, longitude: -74.044_5) == "40.6892° N, 74.0445° W")
        #expect(PhotoDetails.locationText(latitude: -22.951_9, longitude: -43.210_5) == "22.9519° S, 43.2105° W")
        #expect(PhotoDetails.locationText(latitude: 0, longitude: 0) == "0.0000° N, 0.0000° E")
        #expect(PhotoDetails.locationText(latitude: 91, longitude: 0) == nil)
        #expect(PhotoDetails.locationText(latitude: 0, longitude: -180.5) == nil)
        #expect(PhotoDetails.locationText(latitude: .nan, longitude: 0) == nil)
    }

    @Test func aLocationNeedsBothCoordinates() {
        #expect(PhotoDetails(uri: "u", name: "n", latitude: 48.8584).locationText == nil)
        #expect(PhotoDetails(uri: "u", name: "n", latitude: 48.8584, longitude: 2.2945).locationText == "48.8584° N, 2.2945° E")
    }

    // MARK: - Camera

    @Test func theMakeIsLeftOutWhereTheModelRepeatsIt() {
        let cases: [(String?, String?, String?)] = [
            ("Canon", "Canon EOS 40D", "Canon EOS 40D"),
            ("NIKON CORPORATION", "NIKON D70", "NIKON D70"),
            ("PENTAX Corporation ", "PENTAX K10D        ", "PENTAX K10D"),
            ("EASTMAN KODAK COMPANY", "KODAK CX7530 ZOOM DIGITAL CAMERA", "KODAK CX7530 ZOOM DIGITAL CAMERA"),
            ("Jolla", "Jolla", "Jolla"),
            ("canon", "Canon PowerShot G9", "Canon PowerShot G9"),
            ("Apple", "iPhone 13 mini", "Apple iPhone 13 mini"),
            ("NIKON", "COOLPIX P6000", "NIKON COOLPIX P6000"),
            ("OLYMPUS IMAGING CORP.  ", "E-P3            ", "OLYMPUS E-P3"),
            ("SANYO Electric Co.,Ltd.", "SX113 ", "SANYO SX113"),
            ("CASIO COMPUTER CO.,LTD.", "EX-M2  ", "CASIO EX-M2"),
            ("KONICA MINOLTA ", "DiMAGE Z3", "KONICA MINOLTA DiMAGE Z3"),
            ("Canonical", "Canon 5", "Canonical Canon 5"),
            ("Canon", nil, "Canon"),
            (nil, "EOS 40D", "EOS 40D"),
            ("  ", "", nil),
            (nil, nil, nil),
        ]
        for (make, model, camera) in cases {
            #expect(PhotoDetails.camera(make: make, model: model) == camera, "\(make ?? "nil") + \(model ?? "nil")")
        }
    }

    // MARK: - Size and dimensions

    @Test func sizesUseDecimalUnitsAsGNOMEDoes() {
        let cases: [(Int64, String)] = [
            (0, "0 bytes"), (1, "1 byte"), (999, "999 bytes"), (1000, "1.0 kB"), (1536, "1.5 kB"),
            (2_400_000, "2.4 MB"), (2_449_999, "2.4 MB"), (999_949, "999.9 kB"), (999_999, "1.0 MB"),
            (1_500_000_000, "1.5 GB"), (3_000_000_000_000, "3.0 TB"), (-5, "0 bytes"),
        ]
        for (bytes, text) in cases {
            #expect(PhotoDetails.sizeText(bytes) == text, "\(bytes)")
        }
    }

    @Test func dimensionsShowTheMegapixels() {
        #expect(PhotoDetails.dimensionsText(PixelSize(width: 6000, height: 4000)) == "6000 × 4000 (24.0 MP)")
        #expect(PhotoDetails.dimensionsText(PixelSize(width: 4032, height: 3024)) == "4032 × 3024 (12.2 MP)")
        #expect(PhotoDetails.dimensionsText(PixelSize(width: 640, height: 480)) == "640 × 480 (0.3 MP)")
        #expect(PhotoDetails.dimensionsText(PixelSize(width: 100, height: 75)) == "100 × 75")
        #expect(PhotoDetails.dimensionsText(PixelSize(width: 0, height: 75)) == nil)
    }

    // MARK: - Dates

    private let utcPlus9: (Int64) -> Int = { _ in 9 * 3600 }
    private let utc: (Int64) -> Int = { _ in 0 }

    @Test func aDateWithoutOffsetShowsTheWallClockAsWritten() {
        let date = ExifDate.microseconds(dateTime: "2026:11:29 14:05:59")!
        let details = PhotoDetails(uri: "u", name: "n", dateTaken: date)
        #expect(details.dateTakenText(utcOffset: utcPlus9) == "29 Nov 2026, 14:05")
        #expect(details.dateTakenText(utcOffset: utc) == "29 Nov 2026, 14:05")
    }

    @Test func aDateWithAnOffsetIsShownInTheLocalZone() {
        // 14:05 at UTC+1 is 13:05 UTC, 22:05 at UTC+9.
        let date = ExifDate.microseconds(dateTime: "2026:11:29 14:05:00", offset: "+01:00")!
        let details = PhotoDetails(uri: "u", name: "n", dateTaken: date, dateTakenOffset: 3600)
        #expect(details.dateTakenText(utcOffset: utc) == "29 Nov 2026, 13:05")
        #expect(details.dateTakenText(utcOffset: utcPlus9) == "29 Nov 2026, 22:05")
        #expect(details.dateTakenText(utcOffset: { _ in -14 * 3600 }) == "28 Nov 2026, 23:05")
        // The local zone's offset is asked for the instant itself.
        var asked: Int64?
        _ = details.dateTakenText(utcOffset: { asked = $0; return 0 })
        #expect(asked == date / 1_000_000)
    }

    @Test func datesAreWrittenWithFixedEnglishNames() {
        let cases: [(String, String)] = [
            ("2020:01:05 09:03:00", "5 Jan 2020, 09:03"),
            ("2024:02:29 00:00:00", "29 Feb 2024, 00:00"),
            ("1999:12:31 23:59:59", "31 Dec 1999, 23:59"),
            ("1969:07:20 20:17:40", "20 Jul 1969, 20:17"),
            ("1900:03:01 12:30:00", "1 Mar 1900, 12:30"),
        ]
        for (exif, text) in cases {
            let details = PhotoDetails(uri: "u", name: "n", dateTaken: ExifDate.microseconds(dateTime: exif)!)
            #expect(details.dateTakenText(utcOffset: utc) == text, "\(exif)")
        }
        // Fractions of a second before 1970 belong to the second they are in.
        let before = ExifDate.microseconds(dateTime: "1969:12:31 23:59:59", subseconds: "5")!
        #expect(PhotoDetails(uri: "u", name: "n", dateTaken: before).dateTakenText(utcOffset: utc) == "31 Dec 1969, 23:59")
    }

    @Test func exifOffsetsParseAsTheDateCodeReadsThem() {
        #expect(ExifDate.utcOffsetSeconds("+01:00") == 3600)
        #expect(ExifDate.utcOffsetSeconds("-05:30") == -19_800)
        #expect(ExifDate.utcOffsetSeconds("Z") == 0)
        #expect(ExifDate.utcOffsetSeconds("   :  ") == nil)
    }

    // MARK: - Rows

    private var everything: PhotoDetails {
        PhotoDetails(uri: "file:///home/ada/Photos/IMG_0001.jpg", name: "IMG_0001.jpg", folder: "/home/ada/Photos",
                     size: 2_400_000, dimensions: PixelSize(width: 6000, height: 4000),
                     dateTaken: ExifDate.microseconds(dateTime: "2026:11:29 14:05:00"),
                     camera: "Canon EOS 40D", lens: "EF 50mm f/1.8", exposureTime: 1.0 / 250, fNumber: 5.6, iso: 400,
                     focalLength: 50, focalLength35mm: 80, latitude: 48.858_37, longitude: 2.294_48,
                     contentType: "image/jpeg", typeDescription: "JPEG image")
    }

    @Test func rowsListEveryKnownFactInOrder() {
        let rows = everything.rows(utcOffset: utc)
        #expect(rows.map(\.label) == ["Name", "Folder", "Size", "Dimensions", "Date Taken", "Camera", "Lens",
                                      "Exposure", "Aperture", "ISO", "Focal Length", "Location", "Type"])
        #expect(rows.map(\.value) == ["IMG_0001.jpg", "/home/ada/Photos", "2.4 MB", "6000 × 4000 (24.0 MP)",
                                      "29 Nov 2026, 14:05", "Canon EOS 40D", "EF 50mm f/1.8", "1/250 s", "ƒ/5.6", "400",
                                      "50 mm (80 mm in 35 mm terms)", "48.8584° N, 2.2945° E", "JPEG image (image/jpeg)"])
    }

    @Test func rowsOmitWhatIsNotKnown() {
        let bare = PhotoDetails(uri: "file:///tmp/x", name: "x")
        #expect(bare.rows.map(\.label) == ["Name"])
        #expect(bare.rows.map(\.value) == ["x"])

        var some = everything
        some.lens = nil
        some.exposureTime = nil
        some.iso = 0
        some.longitude = nil
        some.dimensions = nil
        some.typeDescription = nil
        let rows = some.rows(utcOffset: utc)
        #expect(rows.map(\.label) == ["Name", "Folder", "Size", "Date Taken", "Camera", "Aperture", "Focal Length", "Type"])
        #expect(rows.last?.value == "image/jpeg")
    }

    @Test func theDefaultRowsUseTheLocalZoneOnlyForDatesWithAnOffset() {
        // Without an offset the computer's zone plays no part.
        #expect(everything.rows.map(\.value) == everything.rows(utcOffset: utc).map(\.value))
    }

    // MARK: - Numbers

    @Test func fixedDecimalsRoundHalfAwayFromZero() {
        #expect(PhotoDetails.fixed(2.25, places: 1) == "2.3")
        #expect(PhotoDetails.fixed(0.04, places: 1) == "0.0")
        #expect(PhotoDetails.fixed(-0.04, places: 1) == "0.0")
        #expect(PhotoDetails.fixed(-1.5, places: 0) == "-2")
        #expect(PhotoDetails.fixed(48.858_37, places: 4) == "48.8584")
        #expect(PhotoDetails.fixed(3.000_04, places: 4) == "3.0000")
        #expect(PhotoDetails.decimal(5.0, maxPlaces: 1) == "5")
        #expect(PhotoDetails.decimal(5.04, maxPlaces: 1) == "5")
        #expect(PhotoDetails.decimal(5.06, maxPlaces: 1) == "5.1")
    }
}
