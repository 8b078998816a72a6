import Foundation
import PhotoCore
@testable import PhotoIO
import Synchronization
import Testing

/// Downloads from a real server on loopback (`tests/servers/photo_server.py`) into a cache in
/// a temporary folder.
@Suite struct WebDownloadTests {
    let server: PhotoServer
    let cacheFolder = TempFolder()
    let cache: WebCache
    let client = WebClient()
    let photo: [UInt8]

    init() throws {
        server = try PhotoServer()
        cache = WebCache(folder: cacheFolder.path + "/http")
        photo = server.serve("photo.jpg", bytes: randomBytes(300_000))
    }

    private func download(
        _ target: String, content: WebRequest.Content = .photo, byteLimit: Int64? = nil, client: WebClient? = nil,
        progress: (DownloadProgress) -> Void = { _ in }
    ) -> Result<DownloadedFile, WebFailure> {
        let request = WebRequest(url: server.url(target), content: content, byteLimit: byteLimit)
        return WebDownload(request, client: client ?? self.client, cache: cache).run(progress: progress)
    }

    private var cacheFiles: [String] { filesIn(cache.folder) }

    @Test func theFileOnDiskIsTheServedFile() throws {
        let file = try download("/photo.jpg").get()
        #expect(file.freshness == .downloaded)
        #expect(contents(file.path) == photo)
        #expect(file.entry.size == Int64(photo.count))
        #expect(file.entry.contentType == "image/jpeg")
        #expect(file.entry.etag != nil && file.entry.lastModified != nil)
        let key = WebCache.key(for: server.url("/photo.jpg"))
        #expect(cacheFiles == [key + ".data", key + ".entry"])
        #expect(cache.entry(for: server.url("/photo.jpg")) == file.entry)
        #expect(server.counts("/photo.jpg").agents == ["gphotobrowse/\(AppInfo.version)"])
    }

    @Test(arguments: ["/photo.jpg", "/photo.jpg?etag=0"])
    func theSecondRequestIsANotModifiedWithoutABody(target: String) throws {
        let first = try download(target).get()
        let second = try download(target).get()
        #expect(second.freshness == .confirmed)
        #expect(second.path == first.path)
        #expect(contents(second.path) == photo)
        let counts = server.counts(target)
        #expect(counts.statuses == [200, 304])
        #expect(counts.conditional == 1)
        #expect(counts.body_bytes == photo.count)
        // The connection was kept alive between the two.
        #expect(Set(counts.ports).count == 1)
    }

    @Test func progressRisesToTheTotal() throws {
        var reports: [DownloadProgress] = []
        let file = try download("/photo.jpg?throttle=8192") { reports.append($0) }.get()
        #expect(contents(file.path) == photo)
        #expect(reports.count > 10)
        #expect(reports.first == DownloadProgress(received: 0, total: Int64(photo.count)))
        #expect(reports.last == DownloadProgress(received: Int64(photo.count), total: Int64(photo.count)))
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.received <= $1.received })
        #expect(reports.allSatisfy { $0.total == Int64(photo.count) })
    }

    @Test func aBodyOfUnknownLengthReportsNoTotal() throws {
        var reports: [DownloadProgress] = []
        let file = try download("/photo.jpg?chunked=1") { reports.append($0) }.get()
        #expect(contents(file.path) == photo)
        #expect(reports.last?.received == Int64(photo.count))
        #expect(reports.allSatisfy { $0.total == nil })
    }

    @Test func aCompressedBodyIsStoredDecoded() throws {
        let text = server.serve("list.json", bytes: Array(String(repeating: "{\"photo\": \"a.jpg\"}\n", count: 5000).utf8))
        let file = try download("/list.json?gzip=1", content: .list).get()
        #expect(contents(file.path) == text)
        #expect(server.counts("/list.json?gzip=1").body_bytes < text.count / 10)
    }

    @Test func aRedirectionIsFollowed() throws {
        let file = try download("/elsewhere?redirect=/photo.jpg").get()
        #expect(contents(file.path) == photo)
        #expect(file.entry.url == server.url("/elsewhere?redirect=/photo.jpg"))
    }

    /// Failures: each gives its kind and whether Retry makes sense, and leaves nothing in the
    /// cache, not even a temporary file.
    @Test(arguments: [
        ("/missing.jpg", WebFailure.Kind.notFound, false),
        ("/photo.jpg?status=500", .serverError, true),
        ("/photo.jpg?status=503", .serverError, true),
        ("/photo.jpg?status=403", .accessDenied, false),
        ("/photo.jpg?status=418", .unexpectedStatus, false),
        ("/photo.jpg?truncate=100000", .incomplete, true),
        ("/photo.jpg?type=text/html", .notAPhoto, false),
        ("/photo.jpg?type=text/html;%20charset=utf-8", .notAPhoto, false),
        ("/loop?redirect-loop=1", .tooManyRedirects, false),
        ("/photo.jpg?huge=1", .tooLarge, false),
    ])
    func aFailureLeavesNothingInTheCache(target: String, kind: WebFailure.Kind, canRetry: Bool) {
        let result = download(target)
        guard case .failure(let failure) = result else {
            Issue.record("\(target) gave \(result)")
            return
        }
        #expect(failure.kind == kind)
        #expect(failure.canRetry == canRetry)
        #expect(!failure.message.isEmpty)
        #expect(cacheFiles.isEmpty)
    }

    @Test func aWebPageWhereAPhotoWasPromisedSaysSo() {
        #expect(download("/photo.jpg?type=text/html") == .failure(WebFailure(.notAPhoto, "The server sent a web page instead of a photo.")))
        // A list may be a web page.
        #expect((try? download("/photo.jpg?type=text/html", content: .list).get()) != nil)
    }

    @Test func aTwoGigabyteAnswerIsRefusedWithoutReadingIt() {
        let result = download("/photo.jpg?huge=1")
        #expect(result.failure?.kind == .tooLarge)
        // Only what the sockets' buffers took was sent: the body was not read to its end.
        #expect(server.counts("/photo.jpg?huge=1").body_bytes < 64 << 20)
        #expect(cacheFiles.isEmpty)
        // The client is still fine afterwards.
        #expect((try? download("/photo.jpg").get())?.freshness == .downloaded)
    }

    @Test func aBodyBeyondTheLimitStopsWhereTheLimitIs() {
        // Announced: refused at once.
        #expect(download("/photo.jpg", byteLimit: 100_000).failure?.kind == .tooLarge)
        // Not announced (chunked): stopped when the limit is passed.
        let result = download("/photo.jpg?chunked=1", byteLimit: 100_000)
        #expect(result.failure == .tooLarge(limit: 100_000))
        // GLib writes the size (with a no-break space before the unit).
        let message = result.failure?.message ?? ""
        #expect(message.contains("97.7") && message.contains("KiB"), "\(message)")
        #expect(cacheFiles.isEmpty)
    }

    @Test(arguments: ["/photo.jpg?stall=1", "/photo.jpg?stall-after=100000"])
    func aStalledConnectionTimesOut(target: String) {
        var configuration = WebClient.Configuration()
        configuration.timeout = 1
        let result = download(target, client: WebClient(configuration: configuration))
        #expect(result.failure?.kind == .timedOut)
        #expect(result.failure?.canRetry == true)
        #expect(cacheFiles.isEmpty)
    }

    /// A server that trickles (a byte every 0.2 s) is never silent for the client's timeout,
    /// but makes too little progress: the download ends, timed out, and may be retried.
    @Test func aTricklingServerTimesOutForTooLittleProgress() {
        let request = WebRequest(url: server.url("/photo.jpg?trickle=0.2"), slowest: SlowestProgress(bytes: 1000, seconds: 1))
        let result = WebDownload(request, client: client, cache: cache).run()
        #expect(result.failure?.kind == .timedOut)
        #expect(result.failure?.message == "The server 127.0.0.1 sends the file too slowly to finish.")
        #expect(result.failure?.canRetry == true)
        #expect(server.counts("/photo.jpg?trickle=0.2").body_bytes < 100)
        #expect(cacheFiles.isEmpty)
    }

    /// Two megabytes of headers is an answer the client will not read: said as such, with no
    /// Retry (the same server answers the same way again), not as a lost connection.
    @Test func anAnswerWithHugeHeadersIsSaidToBeOne() {
        let result = download("/photo.jpg?huge-headers=2000000")
        #expect(result.failure?.kind == .badResponse)
        #expect(result.failure?.message == "The server 127.0.0.1 sent an answer with more headers than a web server sends.")
        #expect(result.failure?.canRetry == false)
        #expect(cacheFiles.isEmpty)
        // The client is still fine afterwards.
        #expect((try? download("/photo.jpg").get())?.freshness == .downloaded)
    }

    @Test func anAddressThatIsNotOnTheWebIsRefused() {
        for url in ["ftp://127.0.0.1/photo.jpg", "file:///etc/passwd", "photo.jpg", ""] {
            let result = WebDownload(WebRequest(url: url), client: client, cache: cache).run()
            #expect(result.failure?.kind == .badAddress, "\(url)")
        }
        #expect(cacheFiles.isEmpty)
    }

    @Test func cancellingMidDownloadStopsItAndKeepsNothing() {
        // The server sends 100,000 bytes and then nothing: the download waits in a read when
        // it is cancelled from another thread.
        let download = WebDownload(WebRequest(url: server.url("/photo.jpg?stall-after=100000")), client: client, cache: cache)
        let halfway = DispatchSemaphore(value: 0)
        let result = Mutex<Result<DownloadedFile, WebFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let outcome = download.run { if $0.received == 100_000 { halfway.signal() } }
            result.withLock { $0 = outcome }
            done.signal()
        }
        #expect(halfway.wait(timeout: .now() + deadline) == .success)
        download.cancel()
        #expect(done.wait(timeout: .now() + deadline) == .success)
        #expect(result.withLock { $0?.failure } == .cancelled)
        #expect(cacheFiles.isEmpty)
    }

    @Test func cancellingTheTaskCancelsTheDownload() async {
        let download = WebDownload(WebRequest(url: server.url("/photo.jpg?stall-after=100000")), client: client, cache: cache)
        let (reports, continuation) = AsyncStream.makeStream(of: Int64.self)
        let task = Task { await download.result { continuation.yield($0.received) } }
        for await received in reports where received == 100_000 { break }
        task.cancel()
        #expect(await task.value.failure == .cancelled)
        #expect(download.isCancelled)
        #expect(cacheFiles.isEmpty)
    }

    @Test func theCachedCopyComesBackOfflineWhenTheServerIsGone() throws {
        let first = try download("/photo.jpg").get()
        server.stop()
        let again = try download("/photo.jpg").get()
        #expect(again.isOffline)
        guard case .stale(let failure) = again.freshness else {
            Issue.record("not stale: \(again.freshness)")
            return
        }
        #expect(failure.kind == .cannotConnect)
        #expect(again.entry == first.entry)
        #expect(contents(again.path) == photo)
        // Without a copy, the failure itself.
        #expect(download("/other.jpg").failure?.kind == .cannotConnect)
    }

    @Test func aServerErrorKeepsTheCachedCopy() throws {
        let first = try download("/photo.jpg").get()
        server.files.file("photo.jpg.status", text: "500")
        let again = try download("/photo.jpg").get()
        #expect(again.freshness == .stale(WebFailure.status(500, reason: nil, host: "127.0.0.1")))
        #expect(!again.isOffline)
        #expect(again.entry == first.entry)
        #expect(contents(again.path) == photo)
    }

    @Test func aRefusalIsReportedEvenWithACachedCopy() throws {
        _ = try download("/photo.jpg").get()
        server.files.file("photo.jpg.status", text: "403")
        #expect(download("/photo.jpg").failure?.kind == .accessDenied)
        #expect(cache.contains(server.url("/photo.jpg")))
    }

    @Test func aPhotoGoneFromTheServerLeavesTheCache() throws {
        _ = try download("/photo.jpg").get()
        try FileManager.default.removeItem(atPath: server.files.path("photo.jpg"))
        #expect(download("/photo.jpg").failure?.kind == .notFound)
        #expect(!cache.contains(server.url("/photo.jpg")))
        #expect(cacheFiles.isEmpty)
    }

    @Test func aPreferredCachedCopyIsUsedWithoutAsking() throws {
        _ = try download("/photo.jpg").get()
        let request = WebRequest(url: server.url("/photo.jpg"), cachePolicy: .preferCached)
        let file = try WebDownload(request, client: client, cache: cache).run().get()
        #expect(file.freshness == .cached)
        #expect(server.counts("/photo.jpg").requests == 1)
    }

    @Test func downloadsOfOneAddressAtOnceTakeTurns() async throws {
        let url = server.url("/photo.jpg?throttle=16384")
        let client = self.client, cache = self.cache
        let results = await withTaskGroup(of: Result<DownloadedFile, WebFailure>.self) { group in
            for _ in 0..<3 {
                group.addTask { await WebDownload(WebRequest(url: url), client: client, cache: cache).result() }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let kinds = try results.map { try $0.get().freshness }
        #expect(kinds.filter { $0 == .downloaded }.count == 1)
        #expect(kinds.filter { $0 == .confirmed }.count == 2)
        #expect(server.counts("/photo.jpg?throttle=16384").body_bytes == photo.count)
    }

    @Test func manyDownloadsAtOnceAllArrive() async throws {
        let names = (0..<12).map { "p\($0).jpg" }
        let client = self.client, cache = self.cache
        let served = Dictionary(uniqueKeysWithValues: names.map { ($0, server.serve($0, bytes: randomBytes(20_000 + $0.count))) })
        let results = await withTaskGroup(of: (String, Result<DownloadedFile, WebFailure>).self) { group in
            for name in names {
                let request = WebRequest(url: server.url("/\(name)?throttle=4096"))
                group.addTask { (name, await WebDownload(request, client: client, cache: cache).result()) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for (name, result) in results {
            #expect(contents(try result.get().path) == served[name])
        }
        #expect(cacheFiles.count == names.count * 2)
    }
}
