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

@Suite struct SlideshowSettingsTests {
    @Test func defaultsToFiveSecondsLooping() {
        #expect(BrowserSettings().slideshowInterval == 5)
        #expect(BrowserSettings().slideshowEnding == .loop)
        #expect(BrowserSettings(entries: [:]).slideshowInterval == 5)
    }

    @Test func roundTripsEveryChoice() {
        for interval in SlideshowModel.intervals {
            for ending in SlideshowModel.Ending.allCases {
                let settings = BrowserSettings(slideshowInterval: interval, slideshowEnding: ending)
                #expect(BrowserSettings(entries: settings.entries) == settings)
            }
        }
    }

    @Test func anIntervalNotOfferedKeepsTheDefault() {
        #expect(BrowserSettings(entries: ["slideshow-interval": "7"]).slideshowInterval == 5)
        #expect(BrowserSettings(entries: ["slideshow-interval": "soon"]).slideshowInterval == 5)
        #expect(BrowserSettings(entries: ["slideshow-ending": "bounce"]).slideshowEnding == .loop)
    }
}
