import Foundation

/// The periods the search bar offers for when photos were taken: any date, the last 30
/// days, the last 12 months, this year, last year, and every year before.
public enum TakenPeriod: Sendable, Equatable {
    case any
    case last30Days
    case last12Months
    /// A calendar year of the photo's own clock.
    case year(Int)
    /// Before this year began.
    case before(Int)

    /// The choices, in the order the bar lists them, `now` being seconds since 1970 on the
    /// photos' clock (local time read as UTC, as EXIF dates are).
    public static func choices(now: Int64) -> [TakenPeriod] {
        let year = Self.year(of: now)
        return [.any, .last30Days, .last12Months, .year(year), .year(year - 1), .before(year - 1)]
    }

    /// Taken on or after `from`, and before `before` (seconds since 1970, the photo's clock).
    public func bounds(now: Int64) -> (from: Int64?, before: Int64?) {
        switch self {
        case .any: return (nil, nil)
        case .last30Days: return (now - 30 * 86_400, nil)
        case .last12Months: return (now - 365 * 86_400, nil)
        case .year(let year): return (Self.start(of: year), Self.start(of: year + 1))
        case .before(let year): return (nil, Self.start(of: year))
        }
    }

    /// 00:00 on 1 January of `year`, seconds since 1970 (UTC).
    static func start(of year: Int) -> Int64 {
        var components = DateComponents()
        components.year = year
        components.month = 1
        components.day = 1
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return Int64(calendar.date(from: components)!.timeIntervalSince1970)
    }

    static func year(of seconds: Int64) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Now on the photos' clock: the local time, read as UTC.
    public static var localNow: Int64 {
        let now = Date()
        return Int64(now.timeIntervalSince1970) + Int64(TimeZone.current.secondsFromGMT(for: now))
    }
}
