import Foundation
import PhotoIO
import Testing

/// `gphotobrowse-bench`, which `swift build` and `swift test` put beside the test bundle;
/// `GPHOTOBROWSE_BENCH` names another.
private let benchPath: String? = {
    if let given = ProcessInfo.processInfo.environment["GPHOTOBROWSE_BENCH"] { return given }
    let places = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.executableURL, Bundle.main.bundleURL]
        .compactMap { $0?.resolvingSymlinksInPath().deletingLastPathComponent() }
    return places.map { $0.appendingPathComponent("gphotobrowse-bench").path }.first(where: FileManager.default.isExecutableFile)
}()

/// One line of `gphotobrowse-bench trash` output.
private struct Line: Decodable {
    var trash: String?
    var uri: String?
    var outcome: String?
    var item: TrashedItem?
    var restored: String?
    var supported: Bool?
    var deleted: Bool?
    var kind: String?
    var reason: String?
}

/// A home folder and a trash of the test's own, used by `gphotobrowse-bench trash` in a child
/// process: GLib reads `XDG_DATA_HOME` once per process, so the trash code never runs in the
/// test process, and the real user's trash is never touched.
private final class PrivateTrash {
    let root = TempFolder()
    var home: String { root.path("home") }
    var data: String { root.path("data") }
    var trash: String { data + "/Trash" }
    var photos: TempFolderView { TempFolderView(path: root.path("photos")) }

    init() {
        // GLib trashes to the home trash only when HOME exists (it compares their disks).
        for name in ["home", "data", "photos", "cache", "config"] { root.folder(name) }
    }

    /// Runs `gphotobrowse-bench trash ARGUMENTS` with `input` on standard input.
    func run(_ arguments: [String], input: String = "") throws -> (status: Int32, lines: [Line]) {
        let bench = try #require(benchPath, "gphotobrowse-bench is not built beside the tests (swift build, or set GPHOTOBROWSE_BENCH)")
        let environment = [
            "HOME": home, "XDG_DATA_HOME": data, "XDG_CACHE_HOME": root.path("cache"), "XDG_CONFIG_HOME": root.path("config"),
            "GIO_USE_VFS": "local", "GSETTINGS_BACKEND": "memory", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
        ]
        let finished = runOnThread { () -> (Int32, Data)? in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: bench)
            process.arguments = ["trash"] + arguments
            process.environment = environment
            let output = Pipe(), feed = Pipe()
            process.standardOutput = output
            process.standardInput = feed
            guard (try? process.run()) != nil else { return nil }
            feed.fileHandleForWriting.write(Data(input.utf8))
            try? feed.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, data)
        }
        let started = try #require(finished, "gphotobrowse-bench trash hung")
        let (status, data) = try #require(started, "gphotobrowse-bench did not start")
        let lines = try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
        return (status, lines)
    }

    /// Checks the child's trash is ours before anything is trashed.
    func requirePrivate() throws {
        let line = try #require(run(["where"]).lines.first)
        try #require(line.trash == fileURI(trash), "the child would use \(line.trash ?? "?"), not the test's trash")
    }

    /// Trashes `names` from the photos folder and returns the output lines.
    func move(_ names: [String]) throws -> (status: Int32, lines: [Line]) {
        try requirePrivate()
        return try run(["move"] + names.map { photos.path($0) })
    }

    /// The `move` output lines, as `restore` reads them.
    func restore(_ items: [TrashedItem]) throws -> (status: Int32, lines: [Line]) {
        let encoder = JSONEncoder()
        let input = try items.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n")
        return try run(["restore"], input: input + "\n")
    }

    func names(in folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }
}

/// The photos folder inside a `PrivateTrash`'s root.
private struct TempFolderView {
    let path: String
    func path(_ name: String) -> String { path + "/" + name }
    func uri(_ name: String) -> String { fileURI(path(name)) }
    func write(_ name: String, _ bytes: [UInt8]) {
        precondition(FileManager.default.createFile(atPath: path(name), contents: Data(bytes)))
    }
    func bytes(_ name: String) -> [UInt8]? { FileManager.default.contents(atPath: path(name)).map(Array.init) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }
}

private func content(_ text: String) -> [UInt8] { Array(text.utf8) + (0...255).map(UInt8.init) }

/// The `.trashinfo` fields.
private func record(_ path: String) -> [String: String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
        if line == "[Trash Info]" { fields["group"] = "Trash Info"; continue }
        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { fields[parts[0]] = parts[1] }
    }
    return fields
}

@Suite struct TrashTests {
    private let trash = PrivateTrash()

    @Test func trashedFilesLandInTheHomeTrashWithARecordOfTheirOriginalPath() throws {
        let names = ["IMG_0001.jpg", "my photo 100% #1.jpg", "été.png"]
        for name in names { trash.photos.write(name, content(name)) }

        let (status, lines) = try trash.move(names)
        #expect(status == 0)
        #expect(lines.map(\.outcome) == ["trashed", "trashed", "trashed"])
        #expect(lines.map(\.uri) == names.map { trash.photos.uri($0) })
        for (name, line) in zip(names, lines) {
            let item = try #require(line.item)
            #expect(!trash.photos.exists(name), "\(name) is still in its folder")
            #expect(item.originalURI == trash.photos.uri(name))
            // The file, byte for byte, in Trash/files; its record in Trash/info.
            let trashed = try #require(URL(string: item.trashedURI)?.path)
            #expect(trashed == trash.trash + "/files/" + name)
            #expect(FileManager.default.contents(atPath: trashed).map(Array.init) == content(name))
            let info = try #require(URL(string: item.infoURI)?.path)
            #expect(info == trash.trash + "/info/" + name + ".trashinfo")
            let fields = record(info)
            #expect(fields["group"] == "Trash Info")
            #expect(fields["Path"]?.removingPercentEncoding == trash.photos.path(name), "Path= names the original, URL-escaped")
            #expect(fields["Path"]?.contains(" ") == false)
            #expect(fields["DeletionDate"] == item.deletionDate)
            #expect(item.deletionDate.count == 19 && item.deletionDate.contains("T"))
        }
        #expect(trash.names(in: trash.trash + "/files") == Set(names))
    }

    @Test func restoreBringsTheFilesBackByteForByteAndEmptiesTheTrash() throws {
        let names = ["a.jpg", "b c.jpg"]
        for name in names { trash.photos.write(name, content(name)) }
        let items = try trash.move(names).lines.compactMap(\.item)
        #expect(items.count == 2)

        let (status, lines) = try trash.restore(items)
        #expect(status == 0)
        #expect(lines.map(\.restored) == names.map { trash.photos.uri($0) })
        for name in names { #expect(trash.photos.bytes(name) == content(name)) }
        #expect(trash.names(in: trash.trash + "/files").isEmpty)
        #expect(trash.names(in: trash.trash + "/info").isEmpty, "the records go with the files")
    }

    @Test func restoreWhenTheNameIsTakenAgainGivesTheNextNumber() throws {
        trash.photos.write("a.jpg", content("first"))
        let item = try #require(try trash.move(["a.jpg"]).lines.first?.item)
        trash.photos.write("a.jpg", content("new one"))

        let line = try #require(try trash.restore([item]).lines.first)
        #expect(line.restored == trash.photos.uri("a (2).jpg"))
        #expect(trash.photos.bytes("a (2).jpg") == content("first"))
        #expect(trash.photos.bytes("a.jpg") == content("new one"), "the file that took the name is untouched")
        #expect(trash.names(in: trash.trash + "/info").isEmpty)
    }

    @Test func theSamePathTrashedTwiceRestoresEachItsOwnFile() throws {
        trash.photos.write("a.jpg", content("one"))
        let first = try #require(try trash.move(["a.jpg"]).lines.first?.item)
        trash.photos.write("a.jpg", content("two"))
        let second = try #require(try trash.move(["a.jpg"]).lines.first?.item)
        #expect(first.trashedURI != second.trashedURI)
        #expect(first.originalURI == second.originalURI)

        // The later one first: it gets the name back, the earlier one the next number.
        let lines = try trash.restore([second, first]).lines
        #expect(lines.map(\.restored) == [trash.photos.uri("a.jpg"), trash.photos.uri("a (2).jpg")])
        #expect(trash.photos.bytes("a.jpg") == content("two"))
        #expect(trash.photos.bytes("a (2).jpg") == content("one"))
    }

    @Test func restoreRecreatesAFolderThatIsGone() throws {
        try FileManager.default.createDirectory(atPath: trash.photos.path("trip"), withIntermediateDirectories: false)
        trash.photos.write("trip/a.jpg", content("a"))
        let item = try #require(try trash.move(["trip/a.jpg"]).lines.first?.item)
        try FileManager.default.removeItem(atPath: trash.photos.path("trip"))

        let line = try #require(try trash.restore([item]).lines.first)
        #expect(line.restored == trash.photos.uri("trip/a.jpg"))
        #expect(trash.photos.bytes("trip/a.jpg") == content("a"))
    }

    @Test func restoringAnItemNoLongerInTheTrashFailsSayingSo() throws {
        trash.photos.write("a.jpg", content("a"))
        let item = try #require(try trash.move(["a.jpg"]).lines.first?.item)
        try FileManager.default.removeItem(atPath: try #require(URL(string: item.trashedURI)?.path))  // the trash was emptied

        let (status, lines) = try trash.restore([item])
        #expect(status == 1)
        #expect(lines.first?.kind == "vanished")
        #expect(lines.first?.reason?.contains("no longer in the trash") == true)
        #expect(!trash.photos.exists("a.jpg"))
    }

    @Test func aFileThatIsGoneFailsAndTheOthersAreStillTrashed() throws {
        trash.photos.write("a.jpg", content("a"))
        trash.photos.write("c.jpg", content("c"))
        let (status, lines) = try trash.move(["a.jpg", "gone.jpg", "c.jpg"])
        #expect(status == 1)
        #expect(lines.map(\.outcome) == ["trashed", "failed", "trashed"])
        #expect(lines[1].kind == "vanished")
        #expect(lines[1].reason?.contains("no longer exists") == true)
        #expect(trash.names(in: trash.trash + "/files") == ["a.jpg", "c.jpg"])
    }

    @Test func checkSaysWhereATrashIsAndDeletePermanentlyBypassesIt() throws {
        trash.photos.write("a.jpg", content("a"))
        try trash.requirePrivate()
        let checked = try trash.run(["check", trash.photos.path("a.jpg"), trash.photos.path("gone.jpg")]).lines
        #expect(checked.map(\.supported) == [true, false])

        let (status, lines) = try trash.run(["delete", trash.photos.path("a.jpg"), trash.photos.path("gone.jpg")])
        #expect(status == 1)
        #expect(lines.first?.deleted == true)
        #expect(lines.last?.kind == "vanished")
        #expect(!trash.photos.exists("a.jpg"))
        #expect(trash.names(in: trash.trash + "/files").isEmpty)
    }
}
