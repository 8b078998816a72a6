import Foundation
import PhotoCore
import Testing

@Suite struct BrowserSettingsTests {
    @Test func defaultsToNewestFirstByDateTakenInMiddleSizedTiles() {
        let settings = BrowserSettings()
        #expect(settings.order == PhotoOrder(key: .dateTaken, reversed: true))
        #expect(settings.tileSize.edge == 160)
        #expect(settings.window == WindowState(width: 1024, height: 768, maximized: false))
        #expect(settings.lastFolder == nil)
        #expect(settings.slideshowInterval.seconds == 5)
    }

    @Test func theSettingsFileOfEarlierVersionsGivesItsOrder() {
        for key in SortKey.allCases {
            for reversed in [false, true] {
                let entries = ["sort-by": key.rawValue, "sort-reversed": reversed ? "true" : "false"]
                #expect(BrowserSettings().applyingSettingsFile(entries).order == PhotoOrder(key: key, reversed: reversed))
            }
        }
        // A key alone reads ascending, as those versions read it.
        #expect(BrowserSettings().applyingSettingsFile(["sort-by": "name"]).order == .byName)
    }

    @Test func theSettingsFileChangesNothingElse() {
        let mine = BrowserSettings(tileSize: TileSize(edge: 320), lastFolder: "file:///photos", slideshowInterval: SlideshowInterval(seconds: 9))
        let migrated = mine.applyingSettingsFile(["sort-by": "modified", "sort-reversed": "true"])
        #expect(migrated.tileSize == mine.tileSize)
        #expect(migrated.lastFolder == mine.lastFolder)
        #expect(migrated.slideshowInterval == mine.slideshowInterval)
        #expect(BrowserSettings().applyingSettingsFile([:]) == BrowserSettings())
    }

    @Test func unknownValuesInTheSettingsFileKeepTheOrder() {
        let settings = BrowserSettings().applyingSettingsFile(["sort-by": "colour", "sort-reversed": "maybe"])
        #expect(settings.order.key == .dateTaken)
        #expect(settings.order.reversed == false)
    }

    @Test func sortKeysHaveTheirSettingsNames() {
        #expect(SortKey.allCases.map(\.settingsName) == ["name", "modified", "date-taken"])
        for key in SortKey.allCases { #expect(SortKey(settingsName: key.settingsName) == key) }
        #expect(SortKey(settingsName: "dateTaken") == nil)
    }

    @Test func windowSizesStayUsable() {
        #expect(WindowState(width: 10, height: -5, maximized: true) == WindowState(width: 360, height: 300, maximized: true))
        #expect(WindowState(width: 99_999, height: 20_000, maximized: false).width == 16384)
        #expect(WindowState(width: 800, height: 600, maximized: false).height == 600)
    }

    @Test func slideshowIntervalsStayBetweenOneSecondAndAMinute() {
        #expect(SlideshowInterval(seconds: 0).seconds == 1)
        #expect(SlideshowInterval(seconds: 61).seconds == 60)
        #expect(SlideshowInterval(seconds: 12).seconds == 12)
    }

    @Test func theSchemaIsFoundBesideTheProgramFirst() {
        let program = URL(fileURLWithPath: "/opt/app/bin/gphotobrowse")
        let everywhere: Set<String> = ["/opt/app/bin/schemas/gschemas.compiled", "/opt/app/bin/data/gschemas.compiled",
                                       "/opt/app/share/glib-2.0/schemas/gschemas.compiled"]
        #expect(SettingsSchema.directory(executable: program, fileExists: everywhere.contains) == "/opt/app/bin/schemas")
        // Meson's build tree: build/gphotobrowse beside build/data/.
        #expect(SettingsSchema.directory(executable: program, fileExists: { $0.hasSuffix("/bin/data/gschemas.compiled") }) == "/opt/app/bin/data")
        #expect(SettingsSchema.directory(executable: program, fileExists: { $0.hasPrefix("/opt/app/share/") }) == "/opt/app/share/glib-2.0/schemas")
        #expect(SettingsSchema.directory(executable: program, fileExists: { _ in false }) == nil)
    }
}

@Suite struct SlideshowSettingsTests {
    @Test func defaultsToFiveSecondsLooping() {
        #expect(BrowserSettings().slideshowInterval.seconds == SlideshowModel.defaultInterval)
        #expect(BrowserSettings().slideshowEnding == .loop)
    }

    @Test func everyIntervalTheSlideshowOffersIsInTheSettingsRange() {
        for interval in SlideshowModel.intervals {
            #expect(SlideshowInterval(seconds: interval).seconds == interval)
        }
    }
}
