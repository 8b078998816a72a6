import Foundation
import PhotoCore
import PhotoIO
import Testing

/// Runs a walk to the end (on its own thread, with a deadline: a hang fails the test) and
/// keeps everything it reports.
private final class Walked: @unchecked Sendable {
    var deliveries: [[FolderPhotos]] = []
    var found: [TreeFolder] = []
    var skippedFolders: [SkippedFolder] = []
    var skipped: [(folder: TreeFolder, entry: SkippedEntry)] = []
    var result: Result<FolderTreeWalk.Totals, FolderError>?

    init(_ uri: String, interval: Double = 0, maximumInterval: Double = 1, maximumDepth: Int = 100,
         before: @escaping @Sendable (FolderTreeWalk) -> Void = { _ in },
         onDelivery: @escaping @Sendable (FolderTreeWalk, Int) -> Void = { _, _ in }) {
        let walk = FolderTreeWalk(uri: uri, maximumDepth: maximumDepth)
        let finished = runOnThread { [self] in
            before(walk)
            result = walk.run(interval: interval, maximumInterval: maximumInterval, deliver: { [self] in
                deliveries.append($0)
                onDelivery(walk, deliveries.count)
            }, found: { [self] in found.append($0) },
            skipFolder: { [self] in skippedFolders.append($0) },
            skip: { [self] in skipped.append(($0, $1)) })
            return true
        }
        #expect(finished == true, "the walk did not finish")
    }

    var batches: [FolderPhotos] { deliveries.flatMap { $0 } }
    var photos: [Photo] { batches.flatMap(\.photos) }

    /// Photo names by the folder's path below the opened folder (" / "-joined; "" for it).
    var namesByPath: [String: Set<String>] {
        var names: [String: Set<String>] = [:]
        for batch in batches { names[batch.folder.path.joined(separator: " / "), default: []].formUnion(batch.photos.map(\.displayName)) }
        return names
    }

    func skippedReason(_ path: String) -> SkippedFolder.Reason? {
        skippedFolders.first { $0.folder.path.joined(separator: "/") == path }?.reason
    }
}

/// A folder of photos below `folder`: `path` made with its parents, each name a small PNG.
private func photos(_ names: [String], in path: String, of folder: TempFolder, png: [UInt8]) {
    try! FileManager.default.createDirectory(atPath: folder.path(path), withIntermediateDirectories: true)
    for name in names { folder.file(path + "/" + name, bytes: png) }
}

private func smallPNG() -> [UInt8] {
    let seed = TempFolder()
    seed.image("seed.png", width: 4, height: 4)
    return seed.bytes("seed.png")
}

@Suite struct FolderTreeWalkTests {
    private let folder = TempFolder()
    private let png = smallPNG()

    @Test func walksNestedFoldersBreadthFirstWithEachFoldersPhotos() throws {
        folder.file("top.png", bytes: png)
        folder.file("top2.png", bytes: png)
        photos(["y.png"], in: "2024", of: folder, png: png)
        photos(["k1.png", "k2.png"], in: "2024/2024-05 Kyoto", of: folder, png: png)
        photos(["p.png"], in: "2023/Paris", of: folder, png: png)
        photos([], in: "empty", of: folder, png: png)
        folder.file("2024/notes.txt", text: "not a photo")

        let walked = Walked(folder.uri)
        let totals = try #require(try walked.result?.get())
        #expect(totals == FolderTreeWalk.Totals(photos: 6, folders: 6, skippedFolders: 0))
        #expect(walked.namesByPath == ["": ["top.png", "top2.png"], "2024": ["y.png"],
                                       "2024 / 2024-05 Kyoto": ["k1.png", "k2.png"], "2023 / Paris": ["p.png"]])
        #expect(Set(walked.found.map { $0.path.joined(separator: "/") }) == ["2024", "2023", "empty", "2024/2024-05 Kyoto", "2023/Paris"])
        #expect(walked.skippedFolders.isEmpty)

        // Breadth first: no folder is found or delivered before a shallower one.
        let foundDepths = walked.found.map(\.path.count)
        #expect(foundDepths == foundDepths.sorted())
        let deliveredDepths = walked.batches.map(\.folder.path.count)
        #expect(deliveredDepths == deliveredDepths.sorted())
        // The opened folder has the URI it was given; the others GIO's.
        let root = try #require(walked.batches.first { $0.folder.isRoot })
        #expect(root.folder.uri == folder.uri)
        let kyoto = try #require(walked.batches.first { $0.folder.path == ["2024", "2024-05 Kyoto"] })
        #expect(kyoto.folder.uri == folder.uri("2024/2024-05 Kyoto"))

        // The photos are the listing's own.
        var listed: [Photo] = []
        _ = FolderListing(uri: kyoto.folder.uri).run(deliver: { listed += $0 })
        let walkedKyoto = walked.batches.filter { $0.folder == kyoto.folder }.flatMap(\.photos)
        #expect(walkedKyoto.sorted { $0.id < $1.id } == listed.sorted { $0.id < $1.id })
    }

    @Test func deepFoldersAreWalkedUpToTheLimit() throws {
        let path = (1...25).map { "level \($0)" }.joined(separator: "/")
        photos(["deep.png"], in: path, of: folder, png: png)

        let walked = Walked(folder.uri)
        let batch = try #require(walked.batches.first)
        #expect(walked.batches.count == 1)
        #expect(batch.folder.path.count == 25)
        #expect(batch.folder.path.last == "level 25")
        #expect(batch.photos.map(\.displayName) == ["deep.png"])

        let shallow = Walked(folder.uri, maximumDepth: 10)
        #expect(shallow.photos.isEmpty)
        #expect(shallow.skippedFolders.map(\.reason) == [.tooDeep])
        #expect(shallow.skippedFolders.first?.folder.path.count == 11)
    }

    @Test func onlyFoldersThePersonMayMissAreToldOfAsLeftOut() {
        let told: [SkippedFolder.Reason] = [.unreadable, .otherFileSystem, .tooDeep, .linkNotFollowed]
        let untold: [SkippedFolder.Reason] = [.hidden, .loop, .alreadyWalked]
        let checked118 = told.allSatisfy(\.mayBeMissed)
        #expect(checked118)
        let checked119 = !untold.contains(where: \.mayBeMissed)
        #expect(checked119)
    }

    @Test func hiddenFoldersAreLeftOut() {
        photos(["t.png"], in: ".thumbnails/normal", of: folder, png: png)
        photos(["g.png"], in: ".git", of: folder, png: png)
        photos(["v.png"], in: "visible", of: folder, png: png)
        folder.file(".hidden-photo.png", bytes: png)

        let walked = Walked(folder.uri)
        // Hidden files are listed as the folder listing lists them; hidden folders are not walked.
        #expect(walked.namesByPath == ["visible": ["v.png"], "": [".hidden-photo.png"]])
        #expect(walked.skippedReason(".thumbnails") == .hidden)
        #expect(walked.skippedReason(".git") == .hidden)
        #expect(walked.skippedFolders.count == 2)
        #expect(walked.skippedFolders.allSatisfy { !$0.message.isEmpty })
    }

    @Test func symbolicLinkLoopsAreLeftOutWithoutHanging() throws {
        photos(["a.png"], in: "a", of: folder, png: png)
        photos(["b.png"], in: "a/b", of: folder, png: png)
        folder.symlink("a/up", to: "..")
        folder.symlink("a/self", to: ".")
        folder.symlink("a/b/back", to: "../..")
        folder.symlink("a/above", to: (folder.path as NSString).deletingLastPathComponent)
        folder.symlink("a/b/circle", to: "circle")

        let walked = Walked(folder.uri)
        #expect(try walked.result?.get().photos == 2)
        #expect(walked.namesByPath == ["a": ["a.png"], "a / b": ["b.png"]])
        #expect(walked.skippedReason("a/up") == .loop)
        #expect(walked.skippedReason("a/self") == .loop)
        #expect(walked.skippedReason("a/b/back") == .loop)
        #expect(walked.skippedReason("a/above") == .loop)
        #expect(walked.skippedFolders.count == 4)
        // A link to itself is no folder: the listing skips it as a file.
        #expect(walked.skipped.map { "\($0.folder.path.joined(separator: "/"))/\($0.entry.name)" } == ["a/b/circle"])
    }

    @Test func aLinkToAFolderAlreadyWalkedIsLeftOut() {
        photos(["a.png"], in: "a", of: folder, png: png)
        photos(["z.png"], in: "x/y/z", of: folder, png: png)
        folder.folder("b")
        folder.symlink("b/to-a", to: "../a")
        // Found before the folder it leads to: still walked under the folder's own path.
        folder.symlink("c", to: "x/y/z")

        let walked = Walked(folder.uri)
        #expect(walked.namesByPath == ["a": ["a.png"], "x / y / z": ["z.png"]])
        #expect(walked.photos.count == 2)
        #expect(walked.skippedReason("b/to-a") == .alreadyWalked)
        #expect(walked.skippedReason("c") == .alreadyWalked)
        #expect(!walked.found.contains { $0.path == ["c"] || $0.path == ["b", "to-a"] })
    }

    @Test func aLinkToAFolderOutsideIsFollowedOnce() throws {
        let outside = TempFolder()
        photos(["o.png"], in: "trip", of: outside, png: png)
        outside.symlink("trip/home", to: folder.path)
        folder.symlink("one", to: outside.path("trip"))
        folder.symlink("two", to: outside.path("trip"))
        folder.file("r.png", bytes: png)

        let walked = Walked(folder.uri)
        #expect(walked.photos.count == 2)
        let viaLink = walked.batches.filter { !$0.folder.isRoot }
        #expect(viaLink.count == 1)
        let link = try #require(viaLink.first?.folder.path.first)
        #expect(["one", "two"].contains(link))
        #expect(viaLink.first?.folder.uri == folder.uri(link))
        #expect(walked.found.map(\.path) == [[link]])
        #expect(walked.skippedReason(link == "one" ? "two" : "one") == .alreadyWalked)
        // The opened folder, reached again from outside, is a loop.
        #expect(walked.skippedReason("\(link)/home") == .loop)
    }

    @Test(.enabled(if: geteuid() != 0, "root can read a mode-000 folder"))
    func unreadableFolderIsLeftOutWithAReason() throws {
        photos(["ok.png"], in: "ok", of: folder, png: png)
        photos(["secret.png"], in: "locked", of: folder, png: png)
        chmod(folder.path("locked"), 0)
        defer { chmod(folder.path("locked"), 0o755) }

        let walked = Walked(folder.uri)
        #expect(walked.namesByPath == ["ok": ["ok.png"]])
        #expect(walked.skippedReason("locked") == .unreadable)
        #expect(walked.skippedFolders.first?.message.contains("permission") == true)
    }

    @Test func specialFilesInSubfoldersNeverBlock() throws {
        photos(["a.png"], in: "sub", of: folder, png: png)
        folder.fifo("sub/x.jpg")

        let walked = Walked(folder.uri)
        #expect(walked.namesByPath == ["sub": ["a.png"]])
        #expect(walked.skipped.map { $0.folder.path } == [["sub"]])
        #expect(walked.skipped.map(\.entry.name) == ["x.jpg"])
    }

    @Test(.enabled(if: FolderTreeWalkTests.folderOnAnotherDevice(than: NSTemporaryDirectory()) != nil,
                   "needs a writable folder on another device than the temporary folder"))
    func aLinkToAnotherFileSystemIsNotFollowed() throws {
        let other = try #require(Self.folderOnAnotherDevice(than: folder.path))
        defer { try? FileManager.default.removeItem(atPath: other) }
        try! FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: other + "/u.png", contents: Data(png)))
        folder.symlink("usb", to: other)
        photos(["a.png"], in: "a", of: folder, png: png)

        let walked = Walked(folder.uri)
        #expect(walked.namesByPath == ["a": ["a.png"]])
        #expect(walked.skippedReason("usb") == .otherFileSystem)
    }

    @Test(.enabled(if: FolderTreeWalkTests.devHasMountPoints, "needs /dev/shm mounted on another device than /dev"))
    func mountPointsAreNotCrossed() throws {
        // /dev holds mount points (/dev/shm, /dev/pts); only its first level is read.
        let walked = Walked(fileURI("/dev"), maximumDepth: 1)
        #expect(walked.skippedReason("shm") == .otherFileSystem)
        #expect(!walked.found.contains { $0.path == ["shm"] })
        #expect(walked.photos.isEmpty)
    }

    @Test func cancellingStopsTheWalk() throws {
        for i in 0..<30 { photos(["p.png"], in: "f\(i)", of: folder, png: png) }

        let cancelledFirst = Walked(folder.uri, before: { $0.cancel() })
        #expect(cancelledFirst.deliveries.isEmpty)
        #expect(cancelledFirst.found.isEmpty)

        // Cancelled at its first delivery (each folder is one delivery here): nothing more comes.
        let cancelledDuring = Walked(folder.uri, onDelivery: { walk, count in if count == 1 { walk.cancel() } })
        #expect(cancelledDuring.deliveries.count == 1)
        // The opened folder and the first subfolder were read; the 29 others were not.
        #expect(try cancelledDuring.result?.get() == FolderTreeWalk.Totals(photos: 1, folders: 2, skippedFolders: 0))
    }

    @Test func manyFoldersAllArriveOnceInFewDeliveries() throws {
        for i in 0..<200 { photos((0..<5).map { "img_\($0).png" }, in: "year \(i / 20)/event \(i)", of: folder, png: png) }

        // The first folder with photos goes out at once; the rest waits for the next interval.
        let walked = Walked(folder.uri, interval: 1000, maximumInterval: 1000)
        #expect(try walked.result?.get() == FolderTreeWalk.Totals(photos: 1000, folders: 211, skippedFolders: 0))
        #expect(Set(walked.photos.map(\.id)).count == 1000)
        #expect(walked.namesByPath.count == 200)
        #expect(walked.namesByPath.values.allSatisfy { $0.count == 5 })
        #expect(walked.deliveries.map { $0.flatMap(\.photos).count } == [5, 995])
        #expect(walked.deliveries.last?.count == 199)
        #expect(!walked.deliveries.contains { $0.isEmpty || $0.contains { $0.photos.isEmpty } })
    }

    @Test func aMissingFolderFailsSayingItDoesNotExist() {
        let walked = Walked(folder.uri("not-here"))
        guard case .failure(let error) = walked.result else { Issue.record("walking a missing folder succeeded"); return }
        #expect(error.message.contains("does not exist"))
        #expect(walked.deliveries.isEmpty)
    }

    static var devHasMountPoints: Bool {
        var dev = stat(), shm = stat()
        return stat("/dev", &dev) == 0 && stat("/dev/shm", &shm) == 0 && dev.st_dev != shm.st_dev
    }

    /// A fresh path in a writable folder on another device than `path`, if there is one.
    static func folderOnAnotherDevice(than path: String) -> String? {
        var here = stat()
        guard stat(path, &here) == 0 else { return nil }
        for candidate in ["/dev/shm", "/run/user/\(getuid())", "/var/tmp", "/tmp"] {
            var there = stat()
            guard stat(candidate, &there) == 0, there.st_dev != here.st_dev, access(candidate, W_OK) == 0 else { continue }
            return candidate + "/gphotobrowse-tests-\(UUID().uuidString)"
        }
        return nil
    }
}
