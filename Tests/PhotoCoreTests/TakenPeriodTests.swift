import Testing
@testable import PhotoCore

@Suite struct TakenPeriodTests {
    // 2026-12-03 13:00 on the photos' clock.
    let now: Int64 = 1_796_302_800

    @Test func choicesNameThisYearLastYearAndEveryYearBefore() {
        #expect(TakenPeriod.choices(now: now) == [.any, .last30Days, .last12Months, .year(2026), .year(2025), .before(2025)])
    }

    @Test func aYearRunsFromItsFirstSecondToTheNextYearsFirst() {
        let (from, before) = TakenPeriod.year(2025).bounds(now: now)
        #expect(from == 1_735_689_600)   // 2025-01-01 00:00
        #expect(before == 1_767_225_600) // 2026-01-01 00:00
        #expect(TakenPeriod.before(2025).bounds(now: now) == (nil, 1_735_689_600))
        #expect(TakenPeriod.any.bounds(now: now) == (nil, nil))
    }

    @Test func aSearchByPeriodKeepsOnlyPhotosTakenThen() {
        let (from, before) = TakenPeriod.year(2025).bounds(now: now)
        let matcher = PhotoSearch(takenFrom: from, takenBefore: before).matcher()
        #expect(matcher.matches(SearchablePhoto(name: "a.jpg", taken: 1_750_000_000)))
        #expect(!matcher.matches(SearchablePhoto(name: "b.jpg", taken: 1_767_225_600)))
        #expect(!matcher.matches(SearchablePhoto(name: "c.jpg")))
        let videos = PhotoSearch(kind: .videos).matcher()
        #expect(videos.matches(SearchablePhoto(name: "v.mp4", isVideo: true)))
        #expect(!videos.matches(SearchablePhoto(name: "a.jpg")))
    }
}
