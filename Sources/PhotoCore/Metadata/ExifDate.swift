/// Turns EXIF date strings into microseconds since the Unix epoch.
///
/// EXIF writes dates as `YYYY:MM:DD HH:MM:SS`: the wall-clock time of the camera, with no
/// time zone. Newer cameras and phones add the offset from UTC in a separate tag
/// (`OffsetTimeOriginal`, `+HH:MM`), and some add fractions of a second
/// (`SubSecTimeOriginal`, digits).
///
/// The choice made here, so that every date means the same thing wherever it is computed:
/// - With an offset, the result is the true instant: the wall-clock time minus the offset.
/// - Without one, the wall-clock time is read as if it were UTC ("floating" time). It does
///   not depend on the time zone of the computer reading it, so a cached date stays valid
///   when that zone changes, and photos from one camera keep the order they were shot in.
///   The price: against a true instant (a modification time, or a date with an offset) it
///   is off by the camera's offset from UTC, at most a few hours, which only matters for
///   photos of different origins taken within hours of each other.
///
/// Dates a camera writes when it knows none (`0000:00:00 00:00:00`, blanks) and dates out
/// of range (month 13, 31 February, hour 24) are refused: nil.
public enum ExifDate {
    /// Earliest year accepted: older dates are garbage, not photographs.
    public static let earliestYear = 1800

    /// Parses `dateTime` (`YYYY:MM:DD HH:MM:SS`) with an optional `offset` (`+HH:MM` or
    /// `-HH:MM`) and `subseconds` (digits, a decimal fraction of the second).
    ///
    /// Tolerated: `-` or `/` between date fields, `T` between date and time, surrounding
    /// spaces and NULs. An offset or a fraction that does not parse is ignored (the date
    /// itself still counts); a date that does not parse makes the result nil.
    public static func microseconds(dateTime: String, offset: String? = nil, subseconds: String? = nil) -> Int64? {
        let bytes = trimmed(Array(dateTime.utf8))
        // YYYY:MM:DD HH:MM:SS is 19 bytes; some cameras leave the seconds out.
        guard bytes.count == 19 || bytes.count == 16 else { return nil }
        let dateSeparators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "/")]
        guard dateSeparators.contains(bytes[4]), bytes[7] == bytes[4],
              bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"),
              bytes.count == 16 || bytes[16] == UInt8(ascii: ":") else { return nil }
        guard let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
              let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]) else { return nil }
        var second = 0
        if bytes.count == 19 {
            guard let s = number(bytes[17..<19]) else { return nil }
            second = s
        }
        guard year >= earliestYear, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        second = min(second, 59)  // a leap second, as the last second of its minute

        var seconds = Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
        if let offset, let offsetSeconds = offsetSeconds(offset) { seconds -= Int64(offsetSeconds) }
        return seconds * 1_000_000 + (subseconds.flatMap(fractionMicroseconds) ?? 0)
    }

    /// `+HH:MM` or `-HH:MM` (also `+HHMM`, `+HH`, `Z`) in seconds east of UTC, or nil.
    static func offsetSeconds(_ text: String) -> Int? {
        let bytes = trimmed(Array(text.utf8))
        if bytes == [UInt8(ascii: "Z")] { return 0 }
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let rest = Array(bytes.dropFirst())
        let hours: Int?, minutes: Int?
        switch rest.count {
        case 5 where rest[2] == UInt8(ascii: ":"):
            hours = number(rest[0..<2]); minutes = number(rest[3..<5])
        case 4:
            hours = number(rest[0..<2]); minutes = number(rest[2..<4])
        case 2:
            hours = number(rest[0..<2]); minutes = 0
        default:
            return nil
        }
        guard let hours, let minutes, hours <= 18, minutes <= 59 else { return nil }
        let magnitude = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -magnitude : magnitude
    }

    /// Digits of a decimal fraction ("5" is half a second, "123" is 123 ms) in µs.
    static func fractionMicroseconds(_ text: String) -> Int64? {
        let digits = trimmed(Array(text.utf8))
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        var micros: Int64 = 0
        for i in 0..<6 {
            micros = micros * 10 + (i < digits.count ? Int64(digits[i] - UInt8(ascii: "0")) : 0)
        }
        return micros
    }

    /// A run of ASCII digits as a number; nil for anything else (a blank, a sign).
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for d in digits {
            guard d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(d - UInt8(ascii: "0"))
        }
        return value
    }

    /// Without surrounding spaces and NULs (EXIF strings end in NUL; some are padded).
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        let junk: Set<UInt8> = [0, UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
        guard let first = bytes.firstIndex(where: { !junk.contains($0) }),
              let last = bytes.lastIndex(where: { !junk.contains($0) }) else { return [] }
        return Array(bytes[first...last])
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's
    /// `days_from_civil`), with no calendar or time zone involved.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
