import Foundation

/// What the viewer's Properties panel shows about one photo: facts about the file, and what
/// its camera recorded (EXIF). `PhotoProperties.read(uri:)` in PhotoIO fills it on a worker
/// thread; everything here is pure formatting.
///
/// Every fact is optional but the URI and name: a file that is gone still has a name, and
/// most files record only some of the camera's settings. `rows` lists what is known, in
/// the order the panel shows it, and leaves the rest out.
///
/// Numbers are formatted with plain Swift in a fixed, English form ("2.4 MB", "ƒ/5.6",
/// "1/250 s", "29 Nov 2026, 14:05"), the same whatever the locale.
public struct PhotoDetails: Sendable, Equatable {
    /// The file's URI, to match the details with the photo they were read for.
    public var uri: String
    /// The name to show (GIO's display name).
    public var name: String
    /// The folder the file is in, as a path to show (GIO's parse name: `/home/…/Photos`,
    /// or `sftp://host/…` for a remote folder).
    public var folder: String?
    /// Size in bytes.
    public var size: Int64?
    /// The image's size in pixels as shown, after orientation (a portrait photo stored
    /// sideways is taller than wide).
    public var dimensions: PixelSize?
    /// When the photo was taken, in µs since the epoch, as `Photo.dateTaken`: the true
    /// instant when `dateTakenOffset` is known, else the camera's wall-clock time read as
    /// UTC (see `ExifDate`).
    public var dateTaken: Int64?
    /// The camera's offset from UTC when the photo was taken, in seconds east, when recorded.
    public var dateTakenOffset: Int?
    /// The camera: make and model, the make left out where the model repeats it.
    public var camera: String?
    /// The lens model.
    public var lens: String?
    /// Exposure time in seconds.
    public var exposureTime: Double?
    /// The aperture's f-number (5.6 for ƒ/5.6).
    public var fNumber: Double?
    /// ISO speed.
    public var iso: Int?
    /// The lens's focal length in millimetres.
    public var focalLength: Double?
    /// The focal length a 35 mm film camera would need for the same field of view.
    public var focalLength35mm: Int?
    /// Where the photo was taken: latitude in degrees, negative south of the equator.
    public var latitude: Double?
    /// Where the photo was taken: longitude in degrees, negative west of Greenwich.
    public var longitude: Double?
    /// The content type (`image/jpeg`).
    public var contentType: String?
    /// The content type in words (`JPEG image`), as the desktop describes it.
    public var typeDescription: String?
    /// The files shown as part of this photo (the RAW beside a JPEG, a Live Photo's movie:
    /// `Photo.companions`).
    public var companions: [Photo] = []

    public init(uri: String, name: String, folder: String? = nil, size: Int64? = nil, dimensions: PixelSize? = nil,
                dateTaken: Int64? = nil, dateTakenOffset: Int? = nil, camera: String? = nil, lens: String? = nil,
                exposureTime: Double? = nil, fNumber: Double? = nil, iso: Int? = nil,
                focalLength: Double? = nil, focalLength35mm: Int? = nil,
                latitude: Double? = nil, longitude: Double? = nil,
                contentType: String? = nil, typeDescription: String? = nil) {
        self.uri = uri
        self.name = name
        self.folder = folder
        self.size = size
        self.dimensions = dimensions
        self.dateTaken = dateTaken
        self.dateTakenOffset = dateTakenOffset
        self.camera = camera
        self.lens = lens
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.focalLength = focalLength
        self.focalLength35mm = focalLength35mm
        self.latitude = latitude
        self.longitude = longitude
        self.contentType = contentType
        self.typeDescription = typeDescription
    }

    /// Takes what `other` read from a file's content (dimensions, date, camera, place),
    /// keeping this one's facts about the file itself.
    public mutating func takeContent(of other: PhotoDetails) {
        dimensions = other.dimensions
        dateTaken = other.dateTaken
        dateTakenOffset = other.dateTakenOffset
        camera = other.camera
        lens = other.lens
        exposureTime = other.exposureTime
        fNumber = other.fNumber
        iso = other.iso
        focalLength = other.focalLength
        focalLength35mm = other.focalLength35mm
        latitude = other.latitude
        longitude = other.longitude
    }

    // MARK: - The panel's lines

    /// The labelled lines to show, in order, without the facts not known. Dates with an
    /// offset are shown in the computer's time zone.
    public var rows: [(label: String, value: String)] {
        rows(utcOffset: Self.localUTCOffset)
    }

    /// The lines, with `utcOffset` giving the local offset from UTC (seconds east) at an
    /// instant (seconds since the epoch).
    public func rows(utcOffset: (Int64) -> Int) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { rows.append((label: label, value: value)) }
        }
        add(tr("Name"), name)
        add(tr("Folder"), folder)
        add(tr("Size"), size.map(Self.sizeText))
        // TRANSLATORS: the RAW file that goes with a JPEG (a camera recording RAW+JPEG): its name and size.
        let movies = companions.filter { PairedFiles.isLiveMovie(name: $0.displayName) }
        add(tr("RAW File"), companions.filter { !PairedFiles.isLiveMovie(name: $0.displayName) }
            .map { tr("%1$s (%2$s)", $0.displayName, Self.sizeText($0.size)) }.joined(separator: "\n"))
        // TRANSLATORS: the movie that goes with a Live Photo's still (an iPhone's IMG_0042.MOV beside IMG_0042.HEIC): its name and size.
        add(tr("Live Photo Movie"), movies.map { tr("%1$s (%2$s)", $0.displayName, Self.sizeText($0.size)) }.joined(separator: "\n"))
        add(tr("Dimensions"), dimensions.flatMap(Self.dimensionsText))
        add(tr("Date Taken"), dateTakenText(utcOffset: utcOffset))
        add(tr("Camera"), camera)
        add(tr("Lens"), lens)
        add(tr("Exposure"), exposureTime.flatMap(Self.exposureText))
        add(tr("Aperture"), fNumber.flatMap(Self.apertureText))
        // TRANSLATORS: the film speed a photo was taken at.
        add(tr("ISO"), iso.flatMap { $0 > 0 ? String($0) : nil })
        add(tr("Focal Length"), focalLengthText)
        add(tr("Location"), locationText)
        add(tr("Type"), typeText)
        return rows
    }

    /// The date taken as "29 Nov 2026, 14:05": in the local time zone when the offset is
    /// known, else the wall-clock time the camera wrote.
    public func dateTakenText(utcOffset: (Int64) -> Int = PhotoDetails.localUTCOffset) -> String? {
        guard let dateTaken else { return nil }
        var seconds = dateTaken >= 0 ? dateTaken / 1_000_000 : -((-dateTaken + 999_999) / 1_000_000)
        if dateTakenOffset != nil { seconds += Int64(utcOffset(seconds)) }
        return Self.dateText(wallClockSeconds: seconds)
    }

    /// "50 mm", or "50 mm (75 mm in 35 mm terms)" when the 35 mm equivalent is known and
    /// differs.
    public var focalLengthText: String? {
        guard let focalLength, focalLength.isFinite, focalLength > 0 else { return nil }
        let length = Self.decimal(focalLength, maxPlaces: 1)
        guard let equivalent = focalLength35mm, equivalent > 0, String(equivalent) != length else {
            return tr("%s mm", length)
        }
        // TRANSLATORS: a lens's focal length, then what it equals on a 35 mm film camera.
        return tr("%1$s mm (%2$s mm in 35 mm terms)", length, String(equivalent))
    }

    /// "48.8584° N, 2.2945° E", when both coordinates are known.
    public var locationText: String? {
        guard let latitude, let longitude else { return nil }
        return Self.locationText(latitude: latitude, longitude: longitude)
    }

    /// "JPEG image (image/jpeg)", or whichever of the two is known.
    public var typeText: String? {
        switch (typeDescription, contentType) {
        // TRANSLATORS: a file type's description, then its MIME type: "JPEG image (image/jpeg)".
        case let (description?, type?) where !description.isEmpty && description != type: return tr("%1$s (%2$s)", description, type)
        case let (description?, _) where !description.isEmpty: return description
        default: return contentType
        }
    }

    // MARK: - Formatting

    /// The local time zone's offset from UTC (seconds east) at `seconds` since the epoch.
    public static func localUTCOffset(_ seconds: Int64) -> Int {
        TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// A size as GNOME shows it, in decimal units: "512 bytes", "1 byte", "2.4 MB".
    public static func sizeText(_ bytes: Int64) -> String {
        guard bytes >= 1000 else {
            let count = Int(max(bytes, 0))
            return trn("%d byte", "%d bytes", count, count)
        }
        let units = ["kB", "MB", "GB", "TB", "PB", "EB"]
        var value = Double(bytes) / 1000
        var unit = 0
        // Move up a unit when the number would round to 1000.0 in this one.
        while unit < units.count - 1, (value * 10).rounded() >= 10_000 {
            value /= 1000
            unit += 1
        }
        return fixed(value, places: 1) + " " + units[unit]
    }

    /// "6000 × 4000 (24.0 MP)"; the megapixels left out for images under 0.05 MP.
    public static func dimensionsText(_ size: PixelSize) -> String? {
        guard size.width > 0, size.height > 0 else { return nil }
        // TRANSLATORS: an image's width and height in pixels.
        let text = tr("%1$s × %2$s", String(size.width), String(size.height))
        let megapixels = Double(size.width) * Double(size.height) / 1_000_000
        guard megapixels >= 0.05 else { return text }
        // TRANSLATORS: an image's dimensions, then its size in megapixels.
        return tr("%1$s (%2$s MP)", text, fixed(megapixels, places: 1))
    }

    /// An exposure time as a photographer writes it: "1/250 s" below a second (when the
    /// time is one over a whole number, or shorter than ¼ s), "0.8 s" for other fractions,
    /// "2 s", "2.5 s" from a second up.
    public static func exposureText(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds > 0 else { return nil }
        if seconds < 1 {
            let reciprocal = 1 / seconds
            let whole = reciprocal.rounded()
            if whole >= 2, seconds <= 0.25 || abs(reciprocal - whole) <= 0.02 * reciprocal {
                // TRANSLATORS: an exposure time in seconds, "1/250 s".
                return tr("%s s", "1/" + fixed(whole, places: 0))
            }
        }
        return tr("%s s", decimal(seconds, maxPlaces: 1))
    }

    /// "ƒ/5.6", "ƒ/8".
    public static func apertureText(_ fNumber: Double) -> String? {
        guard fNumber.isFinite, fNumber > 0 else { return nil }
        return "ƒ/" + decimal(fNumber, maxPlaces: 1)
    }

    /// "48.8584° N, 2.2945° E" for signed degrees; nil outside the globe.
    public static func locationText(latitude: Double, longitude: Double) -> String? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        let north = fixed(abs(latitude), places: 4), east = fixed(abs(longitude), places: 4)
        let latitudeText = latitude < 0 ? tr("%s° S", north) : tr("%s° N", north)
        let longitudeText = longitude < 0 ? tr("%s° W", east) : tr("%s° E", east)
        // TRANSLATORS: a place as latitude, then longitude: "48.8584° N, 2.2945° E".
        return tr("%1$s, %2$s", latitudeText, longitudeText)
    }

    /// The months' short names, in the language of the interface.
    private static func monthName(_ month: Int) -> String {
        switch month {
        case 1: tr("Jan")
        case 2: tr("Feb")
        case 3: tr("Mar")
        case 4: tr("Apr")
        case 5: tr("May")
        case 6: tr("Jun")
        case 7: tr("Jul")
        case 8: tr("Aug")
        case 9: tr("Sep")
        case 10: tr("Oct")
        case 11: tr("Nov")
        default: tr("Dec")
        }
    }

    /// "29 Nov 2026, 14:05" for a wall-clock time given as seconds since 1970-01-01 00:00.
    public static func dateText(wallClockSeconds seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60
        // TRANSLATORS: a date and time, "29 Nov 2026, 14:05": 1 the day, 2 the month's short
        // name, 3 the year, 4 the time.
        return tr("%1$s %2$s %3$s, %4$s", String(day), monthName(month), String(year), padded(hour) + ":" + padded(minute))
    }

    /// The camera's name from EXIF's Make and Model, without the make where the model
    /// already names it ("Canon" + "Canon EOS 40D" is "Canon EOS 40D", "NIKON CORPORATION"
    /// + "NIKON D70" is "NIKON D70"), and without a company's legal suffix
    /// ("OLYMPUS IMAGING CORP." + "E-M5" is "OLYMPUS E-M5").
    public static func camera(make: String?, model: String?) -> String? {
        let model = model.map(collapsedSpaces) ?? ""
        var makeWords = make.map(collapsedSpaces)?.split(separator: " ").map(String.init) ?? []
        // Legal suffixes, then the words that only ever come before one ("Electric Co., Ltd.").
        var strippedLegal = false
        while makeWords.count > 1, legalSuffixes.contains(makeWords.last!.lowercased()) {
            makeWords.removeLast()
            strippedLegal = true
        }
        while strippedLegal, makeWords.count > 1, companyDescriptors.contains(makeWords.last!.lowercased()) {
            makeWords.removeLast()
        }
        let make = makeWords.joined(separator: " ")
        if model.isEmpty { return make.isEmpty ? nil : make }
        if make.isEmpty { return model }
        let modelLower = model.lowercased(), makeLower = make.lowercased()
        if modelLower == makeLower || modelLower.hasPrefix(makeLower + " ") { return model }
        // The model starts with a word of the make: "EASTMAN KODAK" + "KODAK DC240".
        let firstModelWord = modelLower.split(separator: " ").first.map(String.init) ?? modelLower
        if makeWords.contains(where: { $0.lowercased() == firstModelWord }) { return model }
        return make + " " + model
    }

    private static let legalSuffixes: Set<String> = [
        "corporation", "corp.", "corp", "co.", "co", "co.,", "co.,ltd.", "co.,ltd", "co.ltd.", "co.ltd", "ltd.", "ltd",
        "inc.", "inc", "company", "gmbh", "ag", "s.a.", "llc",
    ]
    private static let companyDescriptors: Set<String> = ["imaging", "optical", "electric", "computer", "electronics"]

    /// Runs of white space as one space, none at either end.
    private static func collapsedSpaces(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    // MARK: - Numbers

    /// `value` rounded to `places` decimals, always that many: fixed(2.45, 1) is "2.5".
    public static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "?" : (value < 0 ? "-∞" : "∞") }
        var scale: Int64 = 1
        for _ in 0..<max(places, 0) { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else { return value < 0 ? "-∞" : "∞" }
        let units = Int64(scaled)
        var text = (value < 0 && units != 0 ? "-" : "") + String(units / scale)
        if places > 0 {
            let fraction = String(units % scale)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }

    /// `value` with up to `maxPlaces` decimals, trailing zeros dropped: 5.6 is "5.6", 8.0 is "8".
    public static func decimal(_ value: Double, maxPlaces: Int) -> String {
        var text = fixed(value, places: maxPlaces)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func padded(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`, the inverse of `ExifDate.daysFromCivil`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension ExifDate {
    /// An EXIF offset (`+HH:MM`, `-HH:MM`, `+HHMM`, `+HH`, `Z`) in seconds east of UTC, or
    /// nil when it does not parse (and `microseconds(dateTime:offset:)` ignores it).
    public static func utcOffsetSeconds(_ text: String) -> Int? {
        offsetSeconds(text)
    }
}
