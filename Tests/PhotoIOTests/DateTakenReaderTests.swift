import Foundation
import PhotoCore
@testable import PhotoIO
import Synchronization
import Testing

/// A date source for tests: answers from a table and counts what it was asked.
private final class FakeDates: Sendable {
    private let table: [String: DateTakenCache.Value?]
    private let asked = Mutex<[String]>([])
    private let onRead: @Sendable (Int) -> Void

    init(_ table: [String: DateTakenCache.Value?], onRead: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.table = table
        self.onRead = onRead
    }

    var reads: [String] { asked.withLock { $0 } }

    func read(_ uri: String) -> DateTakenCache.Value? {
        let count = asked.withLock { asked -> Int in
            asked.append(uri)
            return asked.count
        }
        onRead(count)
        return table[uri] ?? nil
    }
}

private func photos(_ count: Int, modified: Int64 = 1_000) -> [Photo] {
    (0..<count).map { Photo(id: "file:///p/IMG_\($0).JPG", displayName: "IMG_\($0).JPG", modified: modified, size: 500, contentType: "image/jpeg") }
}

/// Dates for `photos`: every third has none.
private func table(_ photos: [Photo]) -> [String: DateTakenCache.Value?] {
    Dictionary(uniqueKeysWithValues: photos.enumerated().map { i, p in
        (p.id, i % 3 == 2 ? .noDate : .taken(Int64(1_000_000 + i)))
    })
}

private struct Delivery {
    let dates: [String: Int64?]
    let progress: DateTakenReader.Progress
}

@discardableResult
private func run(_ reader: DateTakenReader, _ photos: [Photo], batchSize: Int = 200,
                 cancellation: CancellationFlag = CancellationFlag()) -> (deliveries: [Delivery], result: DateTakenReader.Progress) {
    var deliveries: [Delivery] = []
    // An interval no run reaches: batches are cut by count alone, so the test does not
    // depend on how fast this machine is.
    let result = reader.run(photos, cancellation: cancellation, batchSize: batchSize, interval: .infinity) { dates, progress in
        deliveries.append(Delivery(dates: dates, progress: progress))
    }
    return (deliveries, result)
}

@Suite struct DateTakenReaderTests {
    private let home = TempFolder()

    @Test func theCacheLivesInTheGivenCacheHome() {
        #expect(DateTakenReader(cacheHome: home.path).cachePath == home.path + "/gphotobrowse/dates-v1")
        #expect(DateTakenReader().cachePath.hasSuffix("/gphotobrowse/dates-v1"))
    }

    @Test func aFirstRunReadsEveryFileAndDeliversInBatchesWithProgress() {
        let list = photos(10)
        let source = FakeDates(table(list))
        let reader = DateTakenReader(cacheHome: home.path, source: source.read)
        let (deliveries, result) = run(reader, list, batchSize: 4)

        #expect(deliveries.map(\.dates.count) == [4, 4, 2])
        #expect(deliveries.map(\.progress.done) == [4, 8, 10])
        #expect(deliveries.allSatisfy { $0.progress.total == 10 })
        #expect(result == DateTakenReader.Progress(done: 10, total: 10) && result.isComplete)
        var all: [String: Int64?] = [:]
        for d in deliveries { all.merge(d.dates) { _, new in new } }
        #expect(all.count == 10)
        for (i, p) in list.enumerated() { #expect(all[p.id]! == (i % 3 == 2 ? nil : Int64(1_000_000 + i))) }
        #expect(source.reads.count == 10)
        #expect(FileManager.default.fileExists(atPath: reader.cachePath))
    }

    @Test func theNextRunAnswersFromTheCacheAtOnceWithoutReadingFiles() {
        let list = photos(10)
        run(DateTakenReader(cacheHome: home.path, source: FakeDates(table(list)).read), list, batchSize: 4)

        // A new reader, as in the next session: it loads the file.
        let source = FakeDates([:])
        let (deliveries, result) = run(DateTakenReader(cacheHome: home.path, source: source.read), list, batchSize: 4)
        #expect(source.reads.isEmpty)
        #expect(deliveries.count == 1)
        #expect(deliveries.first?.dates.count == 10)
        #expect(deliveries.first?.dates["file:///p/IMG_2.JPG"]! == nil)
        #expect(deliveries.first?.dates["file:///p/IMG_4.JPG"]! == 1_000_004)
        #expect(result.isComplete)
    }

    @Test func aChangedFileIsReadAgain() {
        let list = photos(3)
        let reader = DateTakenReader(cacheHome: home.path, source: FakeDates(table(list)).read)
        run(reader, list)

        var changed = list
        changed[1] = Photo(id: list[1].id, displayName: list[1].displayName, modified: 2_000, size: 500, contentType: "image/jpeg")
        changed[2] = Photo(id: list[2].id, displayName: list[2].displayName, modified: 1_000, size: 501, contentType: "image/jpeg")
        let source = FakeDates([list[1].id: .taken(7), list[2].id: .taken(8)])
        let (deliveries, _) = run(DateTakenReader(cacheHome: home.path, source: source.read), changed)
        #expect(Set(source.reads) == [list[1].id, list[2].id])
        #expect(deliveries.map(\.dates.count) == [1, 2])
        #expect(deliveries.last?.dates[list[1].id]! == 7)
    }

    @Test func filesThatCouldNotBeReadAreTriedAgainNextTime() {
        let list = photos(2)
        let first = FakeDates([list[0].id: .taken(5)])  // list[1]: unreadable
        let (deliveries, result) = run(DateTakenReader(cacheHome: home.path, source: first.read), list)
        #expect(result.isComplete)
        #expect(deliveries.last?.dates[list[1].id]! == nil)

        let second = FakeDates([list[1].id: .taken(6)])
        run(DateTakenReader(cacheHome: home.path, source: second.read), list)
        #expect(second.reads == [list[1].id])
    }

    @Test func cancellingStopsBetweenFilesAndKeepsWhatWasRead() {
        let list = photos(20)
        let flag = CancellationFlag()
        let source = FakeDates(table(list), onRead: { count in if count == 7 { flag.cancel() } })
        let (deliveries, result) = run(DateTakenReader(cacheHome: home.path, source: source.read), list, batchSize: 5, cancellation: flag)
        #expect(source.reads.count == 7)
        #expect(deliveries.map(\.progress.done) == [5])
        #expect(result == DateTakenReader.Progress(done: 5, total: 20) && !result.isComplete)

        // The seven dates read were saved: the next run reads only the other thirteen.
        let next = FakeDates(table(list))
        let (again, _) = run(DateTakenReader(cacheHome: home.path, source: next.read), list, batchSize: 100)
        #expect(next.reads.count == 13)
        #expect(again.first?.dates.count == 7)
    }

    @Test func aRunCancelledBeforeItStartsDeliversNothing() {
        let flag = CancellationFlag()
        flag.cancel()
        let source = FakeDates([:])
        let (deliveries, result) = run(DateTakenReader(cacheHome: home.path, source: source.read), photos(5), cancellation: flag)
        #expect(deliveries.isEmpty && source.reads.isEmpty && result.done == 0)
    }

    @Test func aDamagedCacheFileIsIgnoredAndReplaced() throws {
        let list = photos(4)
        let reader = DateTakenReader(cacheHome: home.path, source: FakeDates(table(list)).read)
        try FileManager.default.createDirectory(atPath: home.path("gphotobrowse"), withIntermediateDirectories: true)
        home.file("gphotobrowse/dates-v1", text: "GPBDATES\u{1}garbage that is no cache")
        let (deliveries, result) = run(reader, list)
        #expect(result.isComplete && deliveries.count == 1)

        // Rewritten whole: a new reader finds everything, and no temporary file is left.
        let source = FakeDates([:])
        run(DateTakenReader(cacheHome: home.path, source: source.read), list)
        #expect(source.reads.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path("gphotobrowse")) == ["dates-v1"])
    }

    @Test func savesMergeWithWhatAnotherProcessSaved() {
        let a = photos(3), b = (3..<6).map { Photo(id: "file:///q/\($0).jpg", displayName: "\($0).jpg", modified: 1, size: 1, contentType: "image/jpeg") }
        // Two readers that loaded the cache before either saved, as two processes would.
        let one = DateTakenReader(cacheHome: home.path, source: FakeDates(table(a)).read)
        let two = DateTakenReader(cacheHome: home.path, source: FakeDates(table(b)).read)
        run(one, [])
        run(two, [])
        run(one, a)
        run(two, b)
        let source = FakeDates([:])
        run(DateTakenReader(cacheHome: home.path, source: source.read), a + b)
        #expect(source.reads.isEmpty)
    }

    @Test func twoRunsOfOneReaderAtOnceBothEndUpInTheCache() {
        let a = photos(50), b = (0..<50).map { Photo(id: "file:///q/\($0).jpg", displayName: "\($0).jpg", modified: 1, size: 1, contentType: "image/jpeg") }
        let reader = DateTakenReader(cacheHome: home.path, source: FakeDates(table(a).merging(table(b)) { x, _ in x }).read)
        let runs = [a, b].map { list in
            { @Sendable () -> Bool in
                reader.run(list, cancellation: CancellationFlag(), batchSize: 7, interval: .infinity) { _, _ in }.isComplete
            }
        }
        let results = runOnThread { () -> [Bool] in
            let done = Mutex<[Bool]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                let ok = runs[i]()
                done.withLock { $0.append(ok) }
            }
            return done.withLock { $0 }
        }
        #expect(results == [true, true])
        let source = FakeDates([:])
        let (deliveries, _) = run(DateTakenReader(cacheHome: home.path, source: source.read), a + b)
        #expect(source.reads.isEmpty)
        #expect(deliveries.first?.dates.count == 100)
    }

    @Test func anUnwritableCacheHomeLosesNothingButTheCache() {
        home.file("not-a-folder", text: "x")
        let list = photos(3)
        let reader = DateTakenReader(cacheHome: home.path("not-a-folder"), source: FakeDates(table(list)).read)
        let (deliveries, result) = run(reader, list)
        #expect(result.isComplete && deliveries.count == 1)
        #expect(deliveries.first?.dates.count == 3)
        // The dates read stay pending, and saving keeps failing without harm.
        #expect(reader.save() == false)
    }

    /// Real JPEGs, listed by `FolderListing`, read by the real reader, sorted by `PhotoList`
    /// as the dates arrive.
    @Test func realPhotosEndUpNewestFirstAsTheirDatesArrive() throws {
        let folder = TempFolder()
        folder.image("base.jpg", width: 16, height: 16, type: "jpeg")
        let base = folder.bytes("base.jpg")
        try FileManager.default.removeItem(atPath: folder.path("base.jpg"))
        let taken = ["b.jpg": "2021:06:01 10:00:00", "c.jpg": "2019:01:01 08:00:00", "d.jpg": "2023:12:24 18:30:00", "e.jpg": "2020:02:29 12:00:00"]
        for (name, date) in taken { folder.file(name, bytes: jpeg(base, withExif: [.dateTimeOriginal(date)])) }
        folder.file("a.jpg", bytes: base)  // no EXIF: its modification time (now) stands in
        folder.image("f.png", width: 8, height: 8)

        var listed: [Photo] = []
        _ = FolderListing(uri: folder.uri).run(deliver: { listed += $0 })
        #expect(listed.count == 6)
        var list = PhotoList(order: .newestFirst)
        var mirror: [String] = []
        func apply(_ splice: PhotoList.Splice?) {
            guard let splice else { return }
            mirror.replaceSubrange(splice.position..<(splice.position + splice.removed), with: splice.inserted)
        }
        apply(list.insert(listed))

        let reader = DateTakenReader(cacheHome: home.path)
        let result = reader.run(list.all, cancellation: CancellationFlag(), batchSize: 2, interval: .infinity) { dates, _ in
            apply(list.setDatesTaken(dates))
            #expect(mirror == list.all.map(\.id))
        }
        #expect(result.isComplete)
        // The two without a date were modified just now, after every date taken.
        let names = list.all.map(\.displayName)
        #expect(Set(names.prefix(2)) == ["a.jpg", "f.png"])
        #expect(Array(names.dropFirst(2)) == ["d.jpg", "b.jpg", "e.jpg", "c.jpg"])
        #expect(list.photo(id: folder.uri("d.jpg"))?.dateTaken == ExifDate.microseconds(dateTime: "2023:12:24 18:30:00"))
        #expect(list.photo(id: folder.uri("a.jpg"))?.dateTaken == nil)
    }
}
