import CGdkPixbuf
import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// The disk cache of downloads: its size cap, its leftovers, its records.
@Suite struct WebCacheTests {
    let server: PhotoServer
    let cacheFolder = TempFolder()
    let client = WebClient()

    init() throws {
        server = try PhotoServer()
        for name in ["a", "b", "c", "d"] { server.serve(name + ".jpg", bytes: randomBytes(100_000)) }
    }

    private func cache(capacity: Int64) -> WebCache {
        WebCache(folder: cacheFolder.path + "/http", capacity: capacity)
    }

    @discardableResult
    private func download(_ name: String, into cache: WebCache) throws -> DownloadedFile {
        try WebDownload(WebRequest(url: server.url("/\(name).jpg")), client: client, cache: cache).run().get()
    }

    private func stored(_ cache: WebCache) -> [String] {
        ["a", "b", "c", "d"].filter { cache.contains(server.url("/\($0).jpg")) }
    }

    @Test func theLeastRecentlyUsedEntriesGoFirst() throws {
        // Room for three entries (bodies and records), not four.
        let cache = cache(capacity: 310_000)
        try download("a", into: cache)
        try download("b", into: cache)
        try download("c", into: cache)
        #expect(cache.entry(for: server.url("/a.jpg")) != nil)
        try download("d", into: cache)
        #expect(stored(cache) == ["a", "c", "d"])
        #expect(cache.storedSize() <= 310_000)

        // A revalidation is a use too.
        #expect(try download("c", into: cache).freshness == .confirmed)
        try download("b", into: cache)
        #expect(stored(cache) == ["b", "c", "d"])
    }

    @Test func theEntryJustStoredStaysEvenAboveTheCapacity() throws {
        let cache = cache(capacity: 1000)
        let a = try download("a", into: cache)
        #expect(contents(a.path).count == 100_000)
        try download("b", into: cache)
        #expect(stored(cache) == ["b"])
    }

    @Test func anotherCacheOnTheSameFolderSharesTheOrder() throws {
        // Two processes on one folder: the order of use is the files' own.
        try download("a", into: cache(capacity: 1 << 30))
        try download("b", into: cache(capacity: 1 << 30))
        #expect(cache(capacity: 1 << 30).entry(for: server.url("/a.jpg")) != nil)
        let small = cache(capacity: 210_000)
        try download("c", into: small)
        #expect(stored(small) == ["a", "c"])
    }

    @Test func oldLeftoversAreRemovedAndRecentOnesKept() throws {
        let cache = cache(capacity: 1 << 30)
        try download("a", into: cache)
        let folder = cache.folder
        let old = Date(timeIntervalSinceNow: -7200)
        for name in [".0123.abcdef.part", "feed.data", "beef.entry", "feed.entry.X1Y2Z3"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data([1, 2, 3])))
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder + "/" + name)
        }
        #expect(FileManager.default.createFile(atPath: folder + "/.4567.ghijkl.part", contents: Data([1])))
        cache.trim()
        let key = WebCache.key(for: server.url("/a.jpg"))
        #expect(filesIn(folder) == [".4567.ghijkl.part", key + ".data", key + ".entry"].sorted())
    }

    @Test func aBodyThatDoesNotMatchItsRecordIsNoEntry() throws {
        let cache = cache(capacity: 1 << 30)
        let first = try download("a", into: cache)
        // Cut short behind the cache's back (a crash, a full disk, another program).
        let handle = try #require(FileHandle(forWritingAtPath: first.path))
        try handle.truncate(atOffset: 5000)
        try handle.close()
        #expect(cache.entry(for: server.url("/a.jpg")) == nil)
        // Downloaded again, whole, without a conditional request.
        let again = try download("a", into: cache)
        #expect(again.freshness == .downloaded)
        #expect(contents(again.path) == contents(server.files.path("a.jpg")))
        #expect(server.counts("/a.jpg").conditional == 0)
    }

    @Test func aRecordIsReadBackAsWritten() throws {
        let path = cacheFolder.path("x.entry")
        let record = EntryRecord(
            url: "https://example.org/a b/ü.jpg?x=1&y=\"2\"", size: 123_456_789_012, contentType: "image/jpeg; charset=binary",
            etag: "W/\"a=b;c\"", lastModified: "Tue, 01 Dec 2026 06:46:50 GMT", stored: 1_800_000_000, checked: 1_800_000_100
        )
        #expect(record.save(path) == nil)
        #expect(EntryRecord.load(path) == record)
        var bare = record
        bare.contentType = nil
        bare.etag = nil
        bare.lastModified = nil
        #expect(bare.save(path) == nil)
        #expect(EntryRecord.load(path) == bare)
        cacheFolder.file("bad.entry", text: "[entry]\nurl=x\nsize=twelve\n")
        #expect(EntryRecord.load(cacheFolder.path("bad.entry")) == nil)
    }

    @Test func theDefaultFolderIsInTheUsersCache() {
        let home = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache"
        #expect(WebCache.defaultFolder == home + "/gphotobrowse/http")
        #expect(WebCache.defaultCapacity == 1 << 30)
    }
}

@Suite struct WebClientTests {
    @Test func theSessionIsConfiguredAsDocumented() {
        let client = WebClient()
        #expect(client.connectionLimits.total == 24)
        #expect(client.connectionLimits.perHost == 6)
        #expect(client.decodesContent)
        #expect(client.configuration.timeout == 30)
        #expect(client.configuration.userAgent == "gphotobrowse/\(AppInfo.version)")
    }
}
