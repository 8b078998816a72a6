import CGdkPixbuf
import Foundation
import PhotoCore
import PhotoIO
import Testing

/// Whether this process ignores file permissions (root): permission tests then skip.
private let ignoresPermissions = geteuid() == 0

/// Every name in a folder, hidden ones included.
private func names(in path: String) -> Set<String> {
    Set((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
}

/// Names that look like our temporary copies.
private func temporaries(in path: String) -> Set<String> {
    names(in: path).filter { $0.hasSuffix(".part") || $0.contains("gphotobrowse-") }
}

/// `count` bytes that are not all alike, so a copy that drops or shifts any shows.
private func noise(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}

private func modificationTime(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
}

@Suite struct ExportTests {
    private let source = TempFolder()
    private let target = TempFolder()

    /// A real JPEG with EXIF (orientation 6, a date taken) and a PNG: the bytes carry the metadata.
    private func photos() -> [String] {
        source.image("plain.jpg", width: 32, height: 24, type: "jpeg")
        let exif = jpeg(source.bytes("plain.jpg"), withExif: [.orientation(6), .dateTimeOriginal("2021:06:01 12:00:00")])
        source.file("IMG_0001.jpg", bytes: exif)
        source.image("drawing.png", width: 20, height: 20, rgba: 0xFF00_00FF)
        source.file("noise.jpg", bytes: noise(300_000, seed: 1))
        return ["IMG_0001.jpg", "drawing.png", "noise.jpg"]
    }

    @Test func copiesAreByteForByteIdenticalAndKeepTheModificationTime() throws {
        let files = photos()
        let old = Date(timeIntervalSince1970: 1_500_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: source.path("IMG_0001.jpg"))

        var calls: [(Int, Int, UInt64)] = []
        let report = PhotoExport.export(files.map(source.uri), to: target.uri, cancellation: CancellationFlag()) {
            calls.append(($0, $1, $2))
        }
        #expect(!report.wasCancelled)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.copies == files.map(target.uri))
        for name in files {
            #expect(target.bytes(name) == source.bytes(name), "\(name) differs from its source")
        }
        #expect(target.bytes("IMG_0001.jpg").count > source.bytes("plain.jpg").count, "the EXIF segment is in the copy")
        #expect(modificationTime(target.path("IMG_0001.jpg")) == old)
        #expect(names(in: target.path) == Set(files), "nothing else in the target: no temporary files")

        // Progress: starts at nothing, ends with every file and every byte, never goes back.
        let totalBytes = UInt64(files.map { source.bytes($0).count }.reduce(0, +))
        #expect(calls.first.map { $0.0 == 0 && $0.2 == 0 } == true)
        #expect(calls.last.map { $0.0 == 3 && $0.1 == 3 && $0.2 == totalBytes } == true)
        #expect(calls.allSatisfy { $0.1 == 3 })
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.2 <= $1.2 })
    }

    @Test func aTakenNameGetsTheNextNumberAndTheFileThereIsUntouched() throws {
        source.file("IMG_1.jpg", bytes: noise(5_000, seed: 2))
        target.file("IMG_1.jpg", bytes: Array("someone else's photo".utf8))
        let report = PhotoExport.export([source.uri("IMG_1.jpg")], to: target.uri, cancellation: CancellationFlag())
        #expect(report.copies == [target.uri("IMG_1 (2).jpg")])
        #expect(target.bytes("IMG_1 (2).jpg") == source.bytes("IMG_1.jpg"))
        #expect(target.bytes("IMG_1.jpg") == Array("someone else's photo".utf8))
        #expect(names(in: target.path) == ["IMG_1.jpg", "IMG_1 (2).jpg"])
    }

    @Test func threeTakenNamesGiveTheFourth() throws {
        source.file("beach.jpeg", bytes: noise(4_000, seed: 3))
        let taken = ["beach.jpeg", "beach (2).jpeg", "beach (3).jpeg"]
        for (i, name) in taken.enumerated() { target.file(name, text: "taken \(i)") }
        let report = PhotoExport.export([source.uri("beach.jpeg")], to: target.uri, cancellation: CancellationFlag())
        #expect(report.copies == [target.uri("beach (4).jpeg")])
        #expect(target.bytes("beach (4).jpeg") == source.bytes("beach.jpeg"))
        for (i, name) in taken.enumerated() { #expect(target.bytes(name) == Array("taken \(i)".utf8)) }
    }

    @Test func exportingTheSamePhotoTwiceNumbersTheSecondCopy() throws {
        source.file("a.jpg", bytes: noise(1_000, seed: 4))
        let report = PhotoExport.export([source.uri("a.jpg"), source.uri("a.jpg")], to: target.uri, cancellation: CancellationFlag())
        #expect(report.copies == [target.uri("a.jpg"), target.uri("a (2).jpg")])
        // Into its own folder: a copy beside it.
        let again = PhotoExport.export([source.uri("a.jpg")], to: source.uri, cancellation: CancellationFlag())
        #expect(again.copies == [source.uri("a (2).jpg")])
        #expect(source.bytes("a (2).jpg") == source.bytes("a.jpg"))
    }

    @Test func numberingGoesBeforeTheLastExtensionAndHiddenNamesHaveNone() throws {
        source.file("archive.tar.gz", bytes: [1])
        source.file(".hidden", bytes: [2])
        source.file("noext", bytes: [3])
        for name in ["archive.tar.gz", ".hidden", "noext"] { target.file(name, bytes: [0]) }
        let report = PhotoExport.export(["archive.tar.gz", ".hidden", "noext"].map(source.uri), to: target.uri, cancellation: CancellationFlag())
        #expect(report.copies == ["archive.tar (2).gz", ".hidden (2)", "noext (2)"].map(target.uri))
    }

    @Test func namesThatAreNotUTF8KeepTheirBytes() throws {
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)  // Latin-1 "café.jpg"
        let path = Array(source.path.utf8) + [UInt8(ascii: "/")] + name
        let bytes = noise(2_000, seed: 5)
        try write(bytes, toPathBytes: path)
        try write([9, 9], toPathBytes: Array(target.path.utf8) + [UInt8(ascii: "/")] + name)
        let sourceURI = fileURI(path.map { CChar(bitPattern: $0) } + [0])

        let report = PhotoExport.export([sourceURI], to: target.uri, cancellation: CancellationFlag())
        let numbered = Array(target.path.utf8) + [UInt8(ascii: "/")] + Array("caf".utf8) + [0xE9] + Array(" (2).jpg".utf8)
        #expect(report.copies == [fileURI(numbered.map { CChar(bitPattern: $0) } + [0])], "\(report.results)")
        #expect(try read(pathBytes: numbered) == bytes)
    }

    @Test func sourcesThatCannotBeReadAreListedAndTheOthersStillCopied() throws {
        source.file("first.jpg", bytes: noise(1_000, seed: 6))
        source.file("last.jpg", bytes: noise(1_000, seed: 7))
        source.folder("folder.jpg")
        source.fifo("pipe.jpg")  // opening it would block: it must never be opened
        source.symlink("dangling.jpg", to: "nowhere.jpg")
        let sources = ["first.jpg", "gone.jpg", "folder.jpg", "pipe.jpg", "dangling.jpg", "last.jpg"].map(source.uri)

        // On a thread of its own: if the pipe were opened, the test would hang, not the runner.
        let (given, folder) = (sources, target.uri)
        let report = try #require(runOnThread { PhotoExport.export(given, to: folder, cancellation: CancellationFlag()) })
        #expect(report.copies == [target.uri("first.jpg"), target.uri("last.jpg")])
        #expect(target.bytes("last.jpg") == source.bytes("last.jpg"))
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.source, $0.failure!) })
        #expect(failures[source.uri("gone.jpg")]?.kind == .vanished)
        #expect(failures[source.uri("folder.jpg")]?.kind == .notAFile)
        #expect(failures[source.uri("pipe.jpg")]?.kind == .notAFile)
        #expect(failures[source.uri("dangling.jpg")]?.kind == .vanished)
        #expect(failures.values.allSatisfy { !$0.message.isEmpty })
        #expect(report.results.map(\.source) == sources, "one result per source, in order")
        #expect(names(in: target.path) == ["first.jpg", "last.jpg"])
    }

    @Test(.enabled(if: !ignoresPermissions, "running as root, for whom a mode-000 file is still readable"))
    func aSourceWithoutReadPermissionIsListedAndTheOthersStillCopied() throws {
        source.file("first.jpg", bytes: noise(1_000, seed: 6))
        source.file("locked.jpg", bytes: [1, 2, 3])
        chmod(source.path("locked.jpg"), 0)
        source.file("last.jpg", bytes: noise(1_000, seed: 7))
        let report = PhotoExport.export(["first.jpg", "locked.jpg", "last.jpg"].map(source.uri), to: target.uri, cancellation: CancellationFlag())
        #expect(report.copies == [target.uri("first.jpg"), target.uri("last.jpg")])
        let failure = try #require(report.results[1].failure)
        #expect(failure.kind == .permissionDenied)
        #expect(failure.message.contains("read"), "\(failure.message)")
        #expect(names(in: target.path) == ["first.jpg", "last.jpg"])
    }

    @Test func aMissingTargetFolderFailsEveryFile() throws {
        source.file("a.jpg", bytes: [1])
        let report = PhotoExport.export([source.uri("a.jpg"), source.uri("b.jpg")], to: target.uri("missing"), cancellation: CancellationFlag())
        #expect(report.copies.isEmpty)
        #expect(report.results.allSatisfy { $0.failure?.kind == .noFolder })
        #expect(report.results.first?.failure?.message.contains("does not exist") == true)
    }

    @Test(.enabled(if: !ignoresPermissions, "running as root, who may write in a read-only folder"))
    func aReadOnlyTargetFolderListsEveryFileAsFailedAndLeavesNothing() throws {
        source.file("a.jpg", bytes: [1])
        source.file("b.jpg", bytes: [2])
        chmod(target.path, 0o555)
        defer { chmod(target.path, 0o755) }
        let report = PhotoExport.export([source.uri("a.jpg"), source.uri("b.jpg")], to: target.uri, cancellation: CancellationFlag())
        #expect(report.copies.isEmpty)
        #expect(report.results.allSatisfy { $0.failure?.kind == .permissionDenied })
        #expect(report.results.first?.failure?.message.contains("permission") == true)
        #expect(names(in: target.path).isEmpty)
    }

    @Test func cancellingDuringACopyLeavesNoPartialFileAndNoTemporaryFile() throws {
        // Big enough for GIO to report progress in several chunks.
        let big = noise(4_096, seed: 8) + [UInt8](repeating: 0x5A, count: 8 << 20)
        source.file("big.jpg", bytes: big)
        source.file("small.jpg", bytes: [1, 2, 3])
        let flag = CancellationFlag()
        let report = PhotoExport.export([source.uri("big.jpg"), source.uri("small.jpg")], to: target.uri, cancellation: flag) {
            done, _, bytes in
            if done == 0 && bytes > 0 { flag.cancel() }  // the first chunk of the first file
        }
        #expect(report.wasCancelled)
        #expect(report.copies.isEmpty)
        #expect(report.results.map { $0.failure?.kind } == [.cancelled, .cancelled])
        #expect(names(in: target.path).isEmpty, "left behind: \(names(in: target.path))")
    }

    /// GIO copies in chunks of 1 MiB and reports each, so a copy cancelled at its first chunk
    /// stops partway, not after it; except where it clones the file in one go (btrfs),
    /// reporting once at the end.
    @Test(.enabled(if: !isBtrfs(FileManager.default.temporaryDirectory.path), "the temporary folder is on btrfs, where GIO clones a file whole"))
    func aCopyCancelledAtItsFirstChunkStopsPartway() throws {
        let big = noise(4_096, seed: 9) + [UInt8](repeating: 0x5A, count: 8 << 20)
        source.file("big.jpg", bytes: big)
        let flag = CancellationFlag()
        var during: [UInt64] = []
        let report = PhotoExport.export([source.uri("big.jpg")], to: target.uri, cancellation: flag) { done, _, bytes in
            if done == 0 && bytes > 0 {
                during.append(bytes)
                flag.cancel()
            }
        }
        #expect(report.wasCancelled)
        #expect(!during.isEmpty && during.allSatisfy { $0 < UInt64(big.count) }, "the copy ran to the end: \(during)")
        #expect(names(in: target.path).isEmpty)
    }

    @Test func anExportCancelledBeforeItStartsCopiesNothing() throws {
        source.file("a.jpg", bytes: [1])
        let flag = CancellationFlag()
        flag.cancel()
        let report = PhotoExport.export([source.uri("a.jpg")], to: target.uri, cancellation: flag)
        #expect(report.wasCancelled)
        #expect(report.results.map { $0.failure?.kind } == [.cancelled])
        #expect(names(in: target.path).isEmpty)
    }

    @Test func cancellingBetweenFilesKeepsTheFinishedCopies() throws {
        for name in ["1.jpg", "2.jpg", "3.jpg"] { source.file(name, bytes: noise(10_000, seed: 9)) }
        let flag = CancellationFlag()
        let report = PhotoExport.export(["1.jpg", "2.jpg", "3.jpg"].map(source.uri), to: target.uri, cancellation: flag) { done, _, _ in
            if done == 1 { flag.cancel() }
        }
        #expect(report.wasCancelled)
        #expect(report.copies == [target.uri("1.jpg")])
        #expect(report.results.dropFirst().allSatisfy { $0.failure?.kind == .cancelled })
        #expect(names(in: target.path) == ["1.jpg"])
    }

    // MARK: Save a Copy…

    @Test func saveCopyWritesExactlyTheChosenName() throws {
        let files = photos()
        let result = PhotoExport.saveCopy(of: source.uri(files[0]), as: target.uri("holiday.jpg"), cancellation: CancellationFlag())
        #expect(try result.get() == target.uri("holiday.jpg"))
        #expect(target.bytes("holiday.jpg") == source.bytes(files[0]))
        #expect(names(in: target.path) == ["holiday.jpg"])
    }

    @Test func saveCopyNeverOverwrites() throws {
        source.file("a.jpg", bytes: [1, 2, 3])
        target.file("taken.jpg", text: "keep me")
        let result = PhotoExport.saveCopy(of: source.uri("a.jpg"), as: target.uri("taken.jpg"), cancellation: CancellationFlag())
        #expect(result.failure?.kind == .exists)
        #expect(result.failure?.message.contains("already exists") == true)
        #expect(target.bytes("taken.jpg") == Array("keep me".utf8))
        #expect(names(in: target.path) == ["taken.jpg"])
    }

    @Test func saveCopyReportsAMissingSourceAndAMissingFolder() throws {
        source.file("a.jpg", bytes: [1])
        #expect(PhotoExport.saveCopy(of: source.uri("gone.jpg"), as: target.uri("x.jpg"), cancellation: CancellationFlag()).failure?.kind == .vanished)
        #expect(PhotoExport.saveCopy(of: source.uri("a.jpg"), as: target.uri("no/x.jpg"), cancellation: CancellationFlag()).failure?.kind == .noFolder)
        #expect(names(in: target.path).isEmpty)
    }
}

/// Whether `path` is on btrfs, where GIO copies by cloning (`FICLONE`) without chunks.
private func isBtrfs(_ path: String) -> Bool {
    let file = g_file_new_for_path(path)
    defer { g_object_unref(UnsafeMutableRawPointer(file)) }
    guard let info = g_file_query_filesystem_info(file, "filesystem::type", nil, nil) else { return false }
    defer { g_object_unref(UnsafeMutableRawPointer(info)) }
    return g_file_info_get_attribute_string(info, "filesystem::type").map { String(cString: $0) } == "btrfs"
}

private func write(_ bytes: [UInt8], toPathBytes path: [UInt8]) throws {
    let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
}

private func read(pathBytes path: [UInt8]) throws -> [UInt8] {
    let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_RDONLY)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return out
}
