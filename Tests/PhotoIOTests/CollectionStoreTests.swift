import Dispatch
import Foundation
import Glibc
import PhotoCore
import PhotoIO
import Synchronization
import Testing

/// A data home of the test's own, and stores on it (as many windows would have).
private final class PrivateAlbums {
    let root = TempFolder()
    var dataHome: String { root.path("data") }
    var folder: String { dataHome + "/gphotobrowse/albums" }

    func store(clock: @escaping @Sendable () -> Int64 = { CollectionStore.currentTime() }) -> CollectionStore {
        CollectionStore(dataHome: dataHome, clock: clock)
    }

    /// The names in the albums folder (or one below it), sorted.
    func names(_ below: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + below)) ?? []).sorted()
    }

    func bytes(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: folder + "/" + name).map(Array.init)
    }

    func write(_ name: String, _ text: String) {
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(text.utf8)))
    }

    /// Sets a file's modification time `seconds` into the past.
    func age(_ path: String, seconds: Int) {
        let then = time(nil) - seconds
        var times = [timespec(tv_sec: then, tv_nsec: 0), timespec(tv_sec: then, tv_nsec: 0)]
        precondition(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0)
    }
}

private func photo(_ name: String) -> String { "file:///photos/\(name)" }

extension Result {
    fileprivate var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

/// A clock that moves on a microsecond each time it is read.
private final class TestClock: Sendable {
    private let now = Atomic<Int64>(1_777_627_800_000_000)
    var read: @Sendable () -> Int64 { { self.now.add(1, ordering: .relaxed).newValue } }
}

@Suite struct CollectionStoreTests {
    @Test func theFolderIsInTheDataHomeAndMadeWhenFirstNeeded() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        #expect(store.folderPath == albums.folder)
        #expect(store.folderURI == fileURI(albums.folder))
        #expect(store.loadAll() == CollectionLoad(collections: [], unreadable: []))
        #expect(!FileManager.default.fileExists(atPath: albums.folder))  // reading makes nothing

        try store.prepareFolder().get()
        let mode = try FileManager.default.attributesOfItem(atPath: albums.folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(CollectionStore(dataHome: albums.dataHome + "/").folderPath == albums.folder)
    }

    @Test func albumsSurviveATripThroughTheirDocuments() throws {
        let albums = PrivateAlbums()
        let clock = TestClock()
        let store = albums.store(clock: clock.read)
        let kyoto = try store.create(title: " Kyoto ", photos: [photo("a"), photo("b")]).get()
        let osaka = try store.create(title: "Osaka").get()
        #expect(kyoto.title == "Kyoto" && kyoto.photos == [photo("a"), photo("b")])
        #expect(albums.names() == [".lock", kyoto.id + ".json", osaka.id + ".json"].sorted())

        let added = try store.add([photo("c"), photo("a")], to: kyoto.id).get()
        #expect(added.photos == [photo("a"), photo("b"), photo("c")])
        let (removed, removal) = try store.remove([photo("b")], from: kyoto.id).get()
        #expect(removed.photos == [photo("a"), photo("c")])
        let renamed = try store.rename(osaka.id, to: "Osaka Castle").get()

        // Another store (another window, another process) reads the same.
        let other = albums.store()
        let load = other.loadAll()
        #expect(load.unreadable.isEmpty)
        #expect(load.collections == [removed, renamed])
        #expect(try other.load(kyoto.id).get() == removed)

        let restored = try #require(store.restore([removal]).restored.first)
        #expect(restored.photos == [photo("a"), photo("b"), photo("c")])
        #expect(try other.load(kyoto.id).get() == restored)
        // What is on the disk is the document the core writes.
        #expect(albums.bytes(kyoto.id + ".json") == CollectionDocument.encode(restored))
    }

    @Test func changesThatRefuseLeaveTheDocumentsAsTheyWere() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let kyoto = try store.create(title: "Kyoto", photos: [photo("a")]).get()
        let osaka = try store.create(title: "Osaka").get()
        let before = albums.bytes(kyoto.id + ".json")

        #expect(store.create(title: "Kyoto").failure == .titleTaken("Kyoto"))
        #expect(store.create(title: "  ").failure == .emptyTitle)
        #expect(store.rename(osaka.id, to: "Kyoto").failure == .titleTaken("Kyoto"))
        #expect(store.add(["http://example.com/x.jpg"], to: kyoto.id).failure == .notAFileURI("http://example.com/x.jpg"))
        #expect(store.add([photo("x")], to: "no-such-album").failure?.kind == .notFound)
        #expect(store.add([photo("x")], to: "../escape").failure?.kind == .notFound)
        #expect(try store.rename(kyoto.id, to: "Kyoto").get() == kyoto)  // its own title: nothing to do
        #expect(try store.add([photo("a")], to: kyoto.id).get() == kyoto)
        #expect(albums.bytes(kyoto.id + ".json") == before)
        #expect(store.loadAll().collections.count == 2)
    }

    @Test func writesLeaveNoTemporaryFilesBehind() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let album = try store.create(title: "Many changes").get()
        for index in 0..<50 {
            _ = try store.add([photo("\(index)")], to: album.id).get()
            if index % 3 == 0 { _ = try store.remove([photo("\(index - 1)")], from: album.id).get() }
        }
        _ = try store.rename(album.id, to: "Renamed").get()
        #expect(albums.names() == [".lock", album.id + ".json"])
    }

    @Test func aWriteInterruptedBeforeItsRenameLeavesTheOldDocument() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let album = try store.create(title: "Kyoto", photos: [photo("a")]).get()
        let document = albums.bytes(album.id + ".json")
        // What a crash between writing and renaming leaves: a temporary file beside the
        // document, whole or cut short.
        let newer = String(decoding: CollectionDocument.encode(try album.adding([photo("b")], now: 1)), as: UTF8.self)
        albums.write(".\(album.id).json.0123456789abcdef.tmp", newer)
        albums.write(".\(album.id).json.fedcba9876543210.tmp", String(newer.prefix(40)))

        let load = albums.store().loadAll()
        #expect(load.collections == [album])
        #expect(load.unreadable.isEmpty)
        #expect(albums.bytes(album.id + ".json") == document)

        // Later changes work as usual; stale temporary files go when purged, fresh ones stay.
        #expect(try store.add([photo("c")], to: album.id).get().photos == [photo("a"), photo("c")])
        albums.age(albums.folder + "/.\(album.id).json.0123456789abcdef.tmp", seconds: 7200)
        #expect(store.purgeDeleted() == 1)
        #expect(albums.names() == [".\(album.id).json.fedcba9876543210.tmp", ".lock", album.id + ".json"])
    }

    @Test func filesThatDoNotParseAreReportedAndKept() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let good = try store.create(title: "Good").get()
        albums.write("0badc0de.json", "{\"version\": 1, \"title\": \"Half")
        albums.write("future.json", "{\"version\": 2}")
        albums.write("my album.json", String(decoding: CollectionDocument.encode(good), as: UTF8.self))
        albums.write("notes.txt", "not an album, and not reported")
        try FileManager.default.createDirectory(atPath: albums.folder + "/folder.json", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: albums.folder + "/link.json", withDestinationPath: albums.folder + "/\(good.id).json")
        precondition(mkfifo(albums.folder + "/fifo.json", 0o600) == 0)  // opening it would block
        let huge = open(albums.folder + "/huge.json", O_WRONLY | O_CREAT, 0o600)
        precondition(huge >= 0 && ftruncate(huge, off_t(CollectionDocument.maximumSize + 1)) == 0)
        close(huge)

        let load = try #require(runOnThread { store.loadAll() })
        #expect(load.collections == [good])
        let reasons = Dictionary(uniqueKeysWithValues: load.unreadable.map { ($0.fileName, $0.problem) })
        #expect(reasons == [
            "0badc0de.json": .documentNotJSON,
            "fifo.json": .documentNotAFile,
            "folder.json": .documentNotAFile,
            "future.json": .documentVersion(2),
            "huge.json": .documentTooLarge,
            "link.json": .documentNotAFile,
            "my album.json": .documentName,
        ])
        #expect(load.unreadable.allSatisfy { $0.path == albums.folder + "/" + $0.fileName })

        // A broken album cannot be changed (its file stays as it is) but can be deleted.
        #expect(store.add([photo("a")], to: "0badc0de").failure == .documentNotJSON)
        #expect(albums.bytes("0badc0de.json") == Array("{\"version\": 1, \"title\": \"Half".utf8))
        let deleted = try store.delete("0badc0de").get()
        #expect(deleted.title == nil)
        #expect(albums.names("/deleted") == ["0badc0de.json"])
        #expect(store.undoDelete(deleted).failure == .documentNotJSON)
        #expect(albums.bytes("0badc0de.json") == Array("{\"version\": 1, \"title\": \"Half".utf8))
    }

    @Test func twoStoresAddingAtOnceLoseNothing() throws {
        let albums = PrivateAlbums()
        let stores = [albums.store(), albums.store()]
        let album = try stores[0].create(title: "Shared").get()
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let store = stores[worker % 2]
            for index in 0..<25 {
                if store.add([photo("\(worker)-\(index)")], to: album.id).failure != nil { failures.add(1, ordering: .relaxed) }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        let photos = try stores[1].load(album.id).get().photos
        #expect(photos.count == 100)
        #expect(Set(photos) == Set((0..<4).flatMap { worker in (0..<25).map { photo("\(worker)-\($0)") } }))
        #expect(albums.names() == [".lock", album.id + ".json"])
    }

    @Test func twoStoresMakingOneTitleAtOnceMakeOneAlbum() {
        let albums = PrivateAlbums()
        let stores = [albums.store(), albums.store()]
        let results = Mutex<[Result<PhotoCollection, CollectionProblem>]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let result = stores[worker % 2].create(title: "Holidays")
            results.withLock { $0.append(result) }
        }
        let all = results.withLock { $0 }
        #expect(all.compactMap(\.value).count == 1)
        #expect(all.compactMap(\.failure) == Array(repeating: .titleTaken("Holidays"), count: 7))
        #expect(stores[0].loadAll().collections.map(\.title) == ["Holidays"])
    }

    @Test func aDeletedAlbumIsKeptUntilItsUndoTimeHasPassed() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let album = try store.create(title: "Kyoto", photos: [photo("a"), photo("b")]).get()
        let document = albums.bytes(album.id + ".json")

        let deleted = try store.delete(album.id).get()
        #expect(deleted.id == album.id && deleted.title == "Kyoto")
        #expect(store.loadAll().collections.isEmpty)
        #expect(albums.bytes("deleted/" + album.id + ".json") == document)
        #expect(store.add([photo("c")], to: album.id).failure?.kind == .notFound)
        #expect(store.delete(album.id).failure?.kind == .notFound)

        #expect(try store.undoDelete(deleted).get() == album)
        #expect(albums.bytes(album.id + ".json") == document)
        #expect(albums.names("/deleted").isEmpty)
        #expect(try store.undoDelete(deleted).get() == album)  // twice (another window): still there
        #expect(store.loadAll().collections == [album])
    }

    @Test func undoRewritesTheAlbumWhenItsKeptDocumentIsGone() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let album = try store.create(title: "Kyoto", photos: [photo("a")]).get()
        let deleted = try store.delete(album.id).get()
        store.discard(deleted)
        #expect(albums.names("/deleted").isEmpty)
        #expect(try store.undoDelete(deleted).get() == album)
        #expect(albums.store().loadAll().collections == [album])
    }

    @Test func discardingAnOldDeletionKeepsALaterOne() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let album = try store.create(title: "Kyoto").get()
        let first = try store.delete(album.id).get()
        _ = try store.undoDelete(first).get()
        let second = try store.delete(album.id).get()
        store.discard(first)
        #expect(albums.names("/deleted") == [album.id + ".json"])
        store.discard(second)
        #expect(albums.names("/deleted").isEmpty)
    }

    @Test func purgingRemovesOnlyAlbumsDeletedLongAgo() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let old = try store.create(title: "Old").get()
        let recent = try store.create(title: "Recent").get()
        _ = try store.delete(old.id).get()
        _ = try store.delete(recent.id).get()
        albums.age(albums.folder + "/deleted/" + old.id + ".json", seconds: 8 * 86_400)
        #expect(store.purgeDeleted() == 1)
        #expect(albums.names("/deleted") == [recent.id + ".json"])
        #expect(store.purgeDeleted(olderThan: 0) == 1)
        #expect(albums.names("/deleted").isEmpty)
    }

    @Test func aRenamedPhotoIsRenamedInEveryAlbumThatHoldsIt() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let one = try store.create(title: "One", photos: [photo("x"), photo("a")]).get()
        let two = try store.create(title: "Two", photos: [photo("b")]).get()
        let (changed, problems) = store.renameEverywhere([photo("a"): photo("a2")])
        #expect(problems.isEmpty && changed.map(\.id) == [one.id])
        let after = Dictionary(uniqueKeysWithValues: albums.store().loadAll().collections.map { ($0.id, $0.photos) })
        #expect(after == [one.id: [photo("x"), photo("a2")], two.id: [photo("b")]])
    }

    @Test func trashedPhotosLeaveEveryAlbumAndUndoBringsThemBack() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let one = try store.create(title: "One", photos: [photo("x"), photo("a"), photo("y")]).get()
        let two = try store.create(title: "Two", photos: [photo("a"), photo("b")]).get()
        let three = try store.create(title: "Three", photos: [photo("b"), photo("y"), photo("x")]).get()

        let (removals, problems) = store.removeEverywhere([photo("x"), photo("y")])
        #expect(problems.isEmpty)
        #expect(Set(removals.map(\.collectionID)) == [one.id, three.id])
        let after = Dictionary(uniqueKeysWithValues: albums.store().loadAll().collections.map { ($0.id, $0.photos) })
        #expect(after == [one.id: [photo("a")], two.id: two.photos, three.id: [photo("b")]])

        // Undo: the trash gave "x" back as "x (2)", its name having been taken meanwhile.
        let (restored, failures) = store.restore(removals, renamed: [photo("x"): photo("x%20(2)")])
        #expect(failures.isEmpty && restored.count == 2)
        let back = Dictionary(uniqueKeysWithValues: albums.store().loadAll().collections.map { ($0.id, $0.photos) })
        #expect(back == [one.id: [photo("x%20(2)"), photo("a"), photo("y")], two.id: two.photos,
                         three.id: [photo("b"), photo("y"), photo("x%20(2)")]])
    }

    @Test func restoringIntoADeletedAlbumSaysSo() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let album = try store.create(title: "Kyoto", photos: [photo("a")]).get()
        let (removals, _) = store.removeEverywhere([photo("a")])
        _ = try store.delete(album.id).get()
        let (restored, problems) = store.restore(removals)
        #expect(restored.isEmpty)
        #expect(problems.map(\.kind) == [.notFound])
    }

    @Test func reloadingReadsOnlyWhatOthersChanged() throws {
        let albums = PrivateAlbums()
        let mine = albums.store(), theirs = albums.store()
        let album = try mine.create(title: "Kyoto").get()
        #expect(mine.loadAll().collections == [album])
        #expect(mine.reloadIfChanged() == nil)

        let added = try mine.add([photo("a")], to: album.id).get()
        #expect(mine.reloadIfChanged() == nil)  // its own change: the caller has it already

        let renamed = try theirs.rename(album.id, to: "Kyoto 2026").get()
        #expect(mine.reloadIfChanged()?.collections == [renamed])
        #expect(renamed.photos == added.photos)
        #expect(mine.reloadIfChanged() == nil)

        let other = try theirs.create(title: "Osaka").get()
        #expect(mine.reloadIfChanged()?.collections == [renamed, other])
        _ = try theirs.delete(other.id).get()
        #expect(mine.reloadIfChanged()?.collections == [renamed])

        // An edit by hand, in place.
        let path = albums.folder + "/" + album.id + ".json"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.write(Data(CollectionDocument.encode(try renamed.renamed(to: "Edited by hand", among: [], now: 0))))
        handle.closeFile()
        #expect(mine.reloadIfChanged()?.collections.map(\.title) == ["Edited by hand"])
        #expect(mine.reloadIfChanged() == nil)
    }

    @Test func aDataHomeWhereNoFolderCanBeMadeFailsWithAReason() throws {
        let albums = PrivateAlbums()
        albums.root.folder("data")
        albums.root.file("data/gphotobrowse", text: "a file where the app's folder would be")
        let store = albums.store()
        #expect(store.loadAll() == CollectionLoad(collections: [], unreadable: []))
        let failure = try #require(store.create(title: "Kyoto").failure)
        #expect(failure.kind == .storage)
        #expect(failure.message.contains(String(cString: strerror(ENOTDIR))))
        #expect(store.prepareFolder().failure == failure)
        #expect(store.removeEverywhere([photo("a")]).problems == [failure])
        #expect(albums.root.bytes("data/gphotobrowse") == Array("a file where the app's folder would be".utf8))
    }

    @Test(.enabled(if: getuid() != 0, "root writes into read-only folders"))
    func aFolderThatCannotBeWrittenFailsWithAReasonAndChangesNothing() throws {
        let albums = PrivateAlbums()
        let store = albums.store()
        let album = try store.create(title: "Kyoto").get()
        let document = albums.bytes(album.id + ".json")
        chmod(albums.folder, 0o500)
        defer { chmod(albums.folder, 0o700) }
        let failure = try #require(store.add([photo("a")], to: album.id).failure)
        #expect(failure.kind == .storage)
        #expect(failure.message.contains(String(cString: strerror(EACCES))))
        #expect(albums.bytes(album.id + ".json") == document)
        #expect(store.delete(album.id).failure?.kind == .storage)
    }
}
