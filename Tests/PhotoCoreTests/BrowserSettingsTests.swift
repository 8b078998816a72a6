import PhotoCore
import Testing

@Suite struct BrowserSettingsTests {
    @Test func defaultsToNewestFirstByDateTaken() {
        #expect(BrowserSettings().order == PhotoOrder(key: .dateTaken, reversed: true))
        #expect(BrowserSettings(entries: [:]).order == .newestFirst)
    }

    @Test func roundTripsEveryOrder() {
        for key in SortKey.allCases {
            for reversed in [false, true] {
                let settings = BrowserSettings(order: PhotoOrder(key: key, reversed: reversed))
                #expect(BrowserSettings(entries: settings.entries) == settings)
            }
        }
    }

    @Test func unknownValuesKeepTheDefaults() {
        let settings = BrowserSettings(entries: ["sort-by": "colour", "sort-reversed": "maybe"])
        #expect(settings.order.key == .dateTaken)
        #expect(settings.order.reversed == false)
    }
}
