import Testing
@testable import PhotoCore

/// µs since the epoch of a UTC wall-clock time, computed independently of `ExifDate`.
private func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Int64 {
    var days = 0
    if y >= 1970 {
        for year in 1970..<y { days += ExifDateLeap.isLeap(year) ? 366 : 365 }
    } else {
        for year in y..<1970 { days -= ExifDateLeap.isLeap(year) ? 366 : 365 }
    }
    let monthDays = [31, ExifDateLeap.isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    days += monthDays[0..<(mo - 1)].reduce(0, +) + d - 1
    return (Int64(days) * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1_000_000
}

private enum ExifDateLeap {
    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
}

@Suite struct DateTakenParsingTests {
    @Test func aCameraDateIsReadAsWallClockTimeWithoutAZone() {
        #expect(ExifDate.microseconds(dateTime: "2021:07:14 09:30:05") == utc(2021, 7, 14, 9, 30, 5))
        #expect(ExifDate.microseconds(dateTime: "1970:01:01 00:00:00") == 0)
    }

    @Test func theEpochArithmeticHoldsAcrossCenturiesAndLeapDays() {
        for (y, mo, d) in [(1800, 1, 1), (1900, 3, 1), (1969, 12, 31), (2000, 2, 29), (2024, 2, 29), (2100, 12, 31), (9999, 12, 31)] {
            let text = pad4(y) + ":" + pad2(mo) + ":" + pad2(d) + " 12:00:00"
            #expect(ExifDate.microseconds(dateTime: text) == utc(y, mo, d, 12), "\(text)")
        }
    }

    @Test func anOffsetMakesTheDateATrueInstant() {
        // 17:08:26 at UTC-7 is 00:08:26 UTC the next day.
        #expect(ExifDate.microseconds(dateTime: "2020:10:01 17:08:26", offset: "-07:00") == utc(2020, 10, 2, 0, 8, 26))
        #expect(ExifDate.microseconds(dateTime: "2026:01:07 15:20:14", offset: "+01:00") == utc(2026, 1, 7, 14, 20, 14))
        #expect(ExifDate.microseconds(dateTime: "2026:01:07 15:20:14", offset: "+05:30") == utc(2026, 1, 7, 9, 50, 14))
        #expect(ExifDate.microseconds(dateTime: "2026:01:07 15:20:14", offset: "+0530") == utc(2026, 1, 7, 9, 50, 14))
        #expect(ExifDate.microseconds(dateTime: "2026:01:07 15:20:14", offset: "Z") == utc(2026, 1, 7, 15, 20, 14))
    }

    @Test func aBlankOrBrokenOffsetIsIgnoredButTheDateStillCounts() {
        let plain = utc(2026, 1, 7, 15, 20, 14)
        for offset in ["", "   :  ", "+99:00", "+01:75", "01:00", "+1", "garbage", "\0\0\0\0\0\0"] {
            #expect(ExifDate.microseconds(dateTime: "2026:01:07 15:20:14", offset: offset) == plain, "\(offset.debugDescription)")
        }
    }

    @Test func subsecondsAddAFractionOfASecond() {
        let base = utc(2022, 8, 24, 20, 7, 42)
        #expect(ExifDate.microseconds(dateTime: "2022:08:24 20:07:42", subseconds: "023000") == base + 23_000)
        #expect(ExifDate.microseconds(dateTime: "2022:08:24 20:07:42", subseconds: "930") == base + 930_000)
        #expect(ExifDate.microseconds(dateTime: "2022:08:24 20:07:42", subseconds: "5") == base + 500_000)
        #expect(ExifDate.microseconds(dateTime: "2022:08:24 20:07:42", subseconds: "12345678") == base + 123_456)
        #expect(ExifDate.microseconds(dateTime: "2022:08:24 20:07:42", subseconds: "  ") == base)
        #expect(ExifDate.microseconds(dateTime: "2022:08:24 20:07:42", subseconds: "-5") == base)
    }

    @Test func commonVariationsOfTheFormatAreAccepted() {
        let want = utc(2019, 5, 4, 3, 2, 1)
        for text in ["2019:05:04 03:02:01\0", " 2019:05:04 03:02:01 ", "2019-05-04 03:02:01", "2019/05/04 03:02:01",
                     "2019:05:04T03:02:01", "2019-05-04T03:02:01"] {
            #expect(ExifDate.microseconds(dateTime: text) == want, "\(text.debugDescription)")
        }
        #expect(ExifDate.microseconds(dateTime: "2019:05:04 03:02") == utc(2019, 5, 4, 3, 2))
    }

    @Test(arguments: [
        "", " ", "0000:00:00 00:00:00", "    :  :     :  :  ", "\0\0\0\0", "2019:00:10 10:00:00", "2019:13:01 10:00:00",
        "2019:02:29 10:00:00", "2100:02:29 10:00:00", "2019:04:31 10:00:00", "2019:01:00 10:00:00",
        "2019:01:01 24:00:00", "2019:01:01 10:60:00", "2019:01:01 10:00:61", "1799:12:31 23:59:59",
        "2019:01:01", "2019:1:1 10:00:00", "2019:01:01 10:00:00 PM", "2019:01-01 10:00:00", "2019:01:01_10:00:00",
        "2019:01:01 10-00-00", "abcd:ef:gh ij:kl:mn", "+019:01:01 10:00:00", "2019:01:01 10:00:0x", "２０１９:01:01 10:00:00",
    ])
    func garbageIsRefused(_ text: String) {
        #expect(ExifDate.microseconds(dateTime: text) == nil)
        #expect(ExifDate.microseconds(dateTime: text, offset: "+01:00", subseconds: "5") == nil)
    }

    @Test func aLeapSecondCountsAsTheLastSecondOfItsMinute() {
        #expect(ExifDate.microseconds(dateTime: "2016:12:31 23:59:60") == utc(2016, 12, 31, 23, 59, 59))
    }

    @Test func leapDaysAreValidOnlyInLeapYears() {
        #expect(ExifDate.microseconds(dateTime: "2000:02:29 00:00:00") != nil)
        #expect(ExifDate.microseconds(dateTime: "2024:02:29 00:00:00") != nil)
        #expect(ExifDate.microseconds(dateTime: "1900:02:29 00:00:00") == nil)
        #expect(ExifDate.microseconds(dateTime: "2023:02:29 00:00:00") == nil)
    }

    @Test func laterTextMeansALaterNumber() {
        var rng = SeededGenerator(seed: 11)
        var samples: [(String, Int64)] = []
        for _ in 0..<300 {
            let y = Int.random(in: 1850...2200, using: &rng), mo = Int.random(in: 1...12, using: &rng)
            let d = Int.random(in: 1...ExifDate.daysIn(month: mo, year: y), using: &rng)
            let text = "\(pad4(y)):\(pad2(mo)):\(pad2(d)) \(pad2(Int.random(in: 0...23, using: &rng))):\(pad2(Int.random(in: 0...59, using: &rng))):\(pad2(Int.random(in: 0...59, using: &rng)))"
            samples.append((text, ExifDate.microseconds(dateTime: text)!))
        }
        // The text sorts like the time it names, so the numbers must sort the same way.
        let byText = samples.sorted { $0.0 < $1.0 }.map(\.1)
        #expect(byText == byText.sorted())
    }
}

private func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

private func pad4(_ value: Int) -> String {
    let digits = "\(value)"
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
