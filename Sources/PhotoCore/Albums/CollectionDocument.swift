import Foundation

/// An album of the person's own as a document: JSON a person can read, one file per album,
/// named by its id (`ID.json`; the id is the file's name, not written inside).
///
/// ```json
/// {
///   "version": 1,
///   "title": "Kyoto",
///   "created": "2026-05-01T09:30:00.000000Z",
///   "modified": "2026-05-02T18:04:51.250000Z",
///   "photos": [
///     "file:///home/me/Pictures/2026/IMG_0001.jpg",
///     "file:///home/me/Pictures/Phone/PXL_20260501.jpg"
///   ]
/// }
/// ```
///
/// Parsing is strict and bounded: a document over `maximumSize`, not JSON (or nested past
/// Foundation's 512 levels), of another version, without one of these fields or with one
/// of the wrong kind, with an empty or too long title, times that are not RFC 3339 dates
/// and times, a photo that is not a local file's URI or more than
/// `PhotoCollection.maximumPhotos` photos is refused with the reason. Unknown fields are
/// ignored (and not written back). A photo listed twice is listed once. Times are written
/// in UTC with microseconds; an offset (`+09:00`) and fewer digits are read too.
public enum CollectionDocument {
    public static let version = 1
    /// The largest document read: 16 MiB.
    public static let maximumSize = 16 << 20

    /// The document of `collection`, as UTF-8 bytes.
    public static func encode(_ collection: PhotoCollection) -> [UInt8] {
        var text = "{\n"
        text += "  \"version\": \(version),\n"
        text += "  \"title\": \(quoted(collection.title)),\n"
        text += "  \"created\": \(quoted(timestamp(collection.created))),\n"
        text += "  \"modified\": \(quoted(timestamp(collection.modified))),\n"
        if collection.photos.isEmpty {
            text += "  \"photos\": []\n"
        } else {
            text += "  \"photos\": [\n"
            for (index, uri) in collection.photos.enumerated() {
                text += "    \(quoted(uri))\(index == collection.photos.count - 1 ? "" : ",")\n"
            }
            text += "  ]\n"
        }
        text += "}\n"
        return Array(text.utf8)
    }

    /// The album `bytes` describe, under `id` (the file's name without `.json`), or why
    /// they do not describe one.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, id: String) -> Result<PhotoCollection, CollectionProblem> {
        guard bytes.count <= maximumSize else { return .failure(.documentTooLarge) }
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: Data(bytes))
        } catch let problem as CollectionProblem {
            return .failure(problem)
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty,
                DecodingError.valueNotFound(_, let context) where !context.codingPath.isEmpty {
            return .failure(.documentField(context.codingPath[0].stringValue))
        } catch DecodingError.keyNotFound(let key, _) {
            return .failure(.documentField(key.stringValue))
        } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
            return .failure(.documentNotAnAlbum)
        } catch {
            return .failure(.documentNotJSON)
        }
        return stored.collection(id: id)
    }

    /// The document's fields as JSON has them, checked in `collection(id:)`.
    private struct Stored: Decodable {
        enum Key: String, CodingKey {
            case version, title, created, modified, photos
        }

        let title: String
        let created: String
        let modified: String
        let photos: [String]

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: Key.self)
            // The version first: a later version may have other fields.
            guard fields.contains(.version) else { throw CollectionProblem.documentWithoutVersion }
            let version = try fields.decode(Int.self, forKey: .version)
            guard version == CollectionDocument.version else { throw CollectionProblem.documentVersion(version) }
            title = try fields.decode(String.self, forKey: .title)
            created = try fields.decode(String.self, forKey: .created)
            modified = try fields.decode(String.self, forKey: .modified)
            photos = try fields.decode([String].self, forKey: .photos)
        }

        func collection(id: String) -> Result<PhotoCollection, CollectionProblem> {
            let title: String
            do {
                title = try CollectionTitle.validated(self.title)
            } catch {
                return .failure(.documentTitle)
            }
            guard let created = CollectionDocument.time(created) else { return .failure(.documentTime(Key.created.rawValue)) }
            guard let modified = CollectionDocument.time(modified) else { return .failure(.documentTime(Key.modified.rawValue)) }
            guard photos.count <= PhotoCollection.maximumPhotos else { return .failure(.documentTooManyPhotos) }
            if let wrong = photos.firstIndex(where: { !PhotoCollection.isFileURI($0) }) {
                return .failure(.documentPhoto(wrong + 1, String(photos[wrong].prefix(200))))
            }
            var seen = Set<String>()
            let unique = photos.filter { seen.insert($0).inserted }
            return .success(PhotoCollection(id: id, title: title, photos: unique, created: created, modified: modified))
        }
    }

    // MARK: - JSON strings

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, the
    /// rest as it is (UTF-8).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: - Times

    /// `microseconds` since the epoch as an RFC 3339 UTC date and time with microseconds:
    /// `2026-05-01T09:30:00.000000Z`. Times before year 1 or after 9999 (a clock gone
    /// wrong) are written as the nearest time `time` reads back.
    public static func timestamp(_ microseconds: Int64) -> String {
        let microseconds = min(max(microseconds, -62_135_596_800_000_000), 253_402_300_799_999_999)
        let seconds = microseconds.floorDiv(1_000_000)
        let fraction = microseconds - seconds * 1_000_000
        let days = seconds.floorDiv(86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        func padded(_ n: Int64, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
            + "T\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
            + ".\(padded(fraction, 6))Z"
    }

    /// The microseconds since the epoch `text` says, an RFC 3339 date and time
    /// (`YYYY-MM-DDTHH:MM:SS`, optional fraction, `Z` or `±HH:MM`), years 1 to 9999; nil
    /// for anything else.
    public static func time(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is characters: String) -> Bool { characters.utf8.contains(bytes[index]) }
        guard let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"),
              let day = number(8..<10), byte(10, is: "Tt"), let hour = number(11..<13), byte(13, is: ":"),
              let minute = number(14..<16), byte(16, is: ":"), let second = number(17..<19) else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var micros: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            let digits = index - start
            guard digits >= 1, digits <= 9 else { return nil }
            let kept = min(digits, 6)
            micros = number(start..<start + kept)! * [1, 100_000, 10_000, 1000, 100, 10, 1][kept]
        }
        guard index < bytes.count else { return nil }
        var offset: Int64 = 0
        if byte(index, is: "Zz"), index + 1 == bytes.count {
            offset = 0
        } else if byte(index, is: "+-"), index + 6 == bytes.count, let oh = number(index + 1..<index + 3),
                  byte(index + 3, is: ":"), let om = number(index + 4..<index + 6), oh < 24, om < 60 {
            offset = (oh * 3600 + om * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return seconds * 1_000_000 + micros
    }

    // Days and civil dates in the proleptic Gregorian calendar (Howard Hinnant's algorithms).

    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDiv(400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = z.floorDiv(146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int64 {
    /// The quotient rounded towards minus infinity.
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
