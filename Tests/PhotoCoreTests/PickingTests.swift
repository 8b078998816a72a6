import PhotoCore
import Testing

/// `gphotobrowse --pick`'s command line, and what it writes for the photos chosen.
@Suite struct PickOptionsTests {
    @Test func optionsAndTheFolderInAnyOrder() throws {
        let options = try #require(try PickOptions.parse(["--multiple", "~/Pictures/Trip", "--pick", "--null", "--uri", "--title", "Choose a cover"]))
        #expect(options.multiple && options.nullSeparated && options.uris)
        #expect(options.title == "Choose a cover")
        #expect(options.location == "~/Pictures/Trip")
        #expect(try PickOptions.parse(["--pick", "--title=Cover", "--", "-odd name"])?.title == "Cover")
        #expect(try PickOptions.parse(["--pick", "--", "-odd name"])?.location == "-odd name")
        #expect(try PickOptions.parse(["--pick"]) == PickOptions())
    }

    @Test func withoutPickThereIsNothingToPick() throws {
        #expect(try PickOptions.parse(["/home/me/Pictures"]) == nil)
        #expect(try PickOptions.parse([]) == nil)
    }

    @Test func badArgumentsAreSaid() {
        #expect(throws: PickOptions.Problem.self) { try PickOptions.parse(["--pick", "--frobnicate"]) }
        #expect(throws: PickOptions.Problem.self) { try PickOptions.parse(["--pick", "--title"]) }
        #expect(throws: PickOptions.Problem.self) { try PickOptions.parse(["--pick", "a", "b"]) }
    }
}

@Suite struct PickedOutputTests {
    @Test func oneEntryALineOrNULAfterEach() {
        let entries = [Array("/p/a.jpg".utf8), Array("/p/two\nlines.jpg".utf8)]
        #expect(PickedOutput.bytes(entries, nullSeparated: false) == Array("/p/a.jpg\n/p/two\nlines.jpg\n".utf8))
        #expect(PickedOutput.bytes(entries, nullSeparated: true) == Array("/p/a.jpg\u{0}/p/two\nlines.jpg\u{0}".utf8))
        #expect(PickedOutput.bytes([], nullSeparated: true).isEmpty)
    }

    @Test func bytesSurviveTheTripAsText() {
        let bytes: [UInt8] = Array("/p/100% ".utf8) + [0xFF, 0xFE, 0x00, 0x0A] + Array("京.jpg".utf8) + [0]
        let text = PickedOutput.printable(bytes)
        #expect(!text.utf8.contains(0))
        #expect(PickedOutput.decodedPrint(text) == bytes)
        #expect(PickedOutput.decodedPrint("just some text\n") == nil)
    }
}

/// `--help` and `--version`, answered by the process started.
@Suite struct CommandLineInfoTests {
    @Test func helpAndVersionWhereverTheyStand() {
        #expect(CommandLineInfo.asked(in: ["--help"]) == .help)
        #expect(CommandLineInfo.asked(in: ["-h"]) == .help)
        #expect(CommandLineInfo.asked(in: ["--pick", "--multiple", "--help"]) == .help)
        #expect(CommandLineInfo.asked(in: ["--version"]) == .version)
        #expect(CommandLineInfo.asked(in: ["~/Pictures", "--version"]) == .version)
    }

    @Test func valuesAndOperandsAreNotQuestions() {
        #expect(CommandLineInfo.asked(in: ["--pick", "--title", "--help"]) == nil)
        #expect(CommandLineInfo.asked(in: ["--draw", "--size", "--version"]) == nil)
        #expect(CommandLineInfo.asked(in: ["--pick", "--", "--help"]) == nil)
        #expect(CommandLineInfo.asked(in: ["~/Pictures"]) == nil)
        #expect(CommandLineInfo.asked(in: []) == nil)
    }

    @Test func theVersionIsOneLine() {
        #expect(CommandLineInfo.version.text == "gphotobrowse \(AppInfo.version)\n")
        #expect(CommandLineInfo.help.text.hasSuffix("\n"))
    }
}
