import Foundation
import PhotoCore
import Testing

@Suite struct LocalizationTests {
    @Test func fillsPlaceholdersInOrder() {
        #expect(fillPlaceholders("Delete “%s” Permanently?", ["a.jpg"]) == "Delete “a.jpg” Permanently?")
        #expect(fillPlaceholders("Exporting %d of %d…", [3, 12]) == "Exporting 3 of 12…")
    }

    @Test func positionalPlaceholdersMayBeReordered() {
        #expect(fillPlaceholders("%2$s, %1$s", ["first", "second"]) == "second, first")
        #expect(fillPlaceholders("%3$s年%2$s%1$s日", ["29", "11月", "2026"]) == "2026年11月29日")
    }

    @Test func percentSignsAndMissingValuesAreKept() {
        #expect(fillPlaceholders("Reading dates… %d%%", [40]) == "Reading dates… 40%")
        #expect(fillPlaceholders("%s and %s", ["one"]) == "one and %s")
        #expect(fillPlaceholders("100% sure", []) == "100% sure")
        #expect(fillPlaceholders("50%x", ["unused"]) == "50%x")
    }

    @Test func numbersAreWrittenWithDigitGrouping() {
        #expect(fillPlaceholders("%d photos", [1234]) == "\(1234.formatted()) photos")
    }

    @Test func untranslatedMessagesAreTheirOwnText() {
        #expect(tr("A message with no catalog") == "A message with no catalog")
        #expect(trn("%d thing", "%d things", 1, 1) == "1 thing")
        #expect(trn("%d thing", "%d things", 5, 5) == "5 things")
        #expect(tr("x") == "x")  // a one-character literal has no pointer of its own
    }

    @Test func catalogsAreLookedForBesideTheExecutableThenInstalled() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("catalogs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("bin"), executable = bin.appendingPathComponent("gphotobrowse")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        #expect(Localization.catalogDirectory(executable: executable, environment: [:]) == nil)

        let installed = root.appendingPathComponent("share/locale")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        #expect(Localization.catalogDirectory(executable: executable, environment: [:]) == installed.path)

        let mesonTree = bin.appendingPathComponent("po")
        try FileManager.default.createDirectory(at: mesonTree, withIntermediateDirectories: true)
        #expect(Localization.catalogDirectory(executable: executable, environment: [:]) == mesonTree.path)

        let beside = bin.appendingPathComponent("locale")
        try FileManager.default.createDirectory(at: beside, withIntermediateDirectories: true)
        #expect(Localization.catalogDirectory(executable: executable, environment: [:]) == beside.path)
        #expect(Localization.catalogDirectory(executable: executable, environment: ["GPHOTOBROWSE_LOCALEDIR": "/given"]) == "/given")
    }
}
