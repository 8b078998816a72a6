import Dispatch
import Foundation
import PhotoCore
@testable import PhotoIO
import Synchronization
import Testing

/// The process's web photos fetched from a real server on loopback
/// (`tests/servers/photo_server.py`): downloads shared by the fetches of one address, and
/// refusals remembered.
@Suite struct WebPhotoFilesTests {
    let server: PhotoServer
    let cacheFolder = TempFolder()

    init() throws {
        server = try PhotoServer()
    }

    private func files(photoByteLimit: Int64? = nil) -> WebPhotoFiles {
        WebPhotoFiles(cache: WebCache(folder: cacheFolder.path + "/http"), client: WebClient(), photoByteLimit: photoByteLimit,
                      handoverGrace: 1)
    }

    /// `fetch` on a thread of its own (it blocks); its result once `wait` is called.
    private func fetching(_ files: WebPhotoFiles, _ url: String, policy: WebRequest.CachePolicy,
                          cancellation: CancellationFlag) -> () -> Result<DownloadedFile, WebFailure>? {
        let result = Mutex<Result<DownloadedFile, WebFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let fetched = files.fetch(url, policy: policy, cancellation: cancellation)
            result.withLock { $0 = fetched }
            done.signal()
        }
        return {
            guard done.wait(timeout: .now() + 60) == .success else { return nil }
            return result.withLock { $0 }
        }
    }

    /// The tile's download is under way when the tile lets go and the viewer asks for the same
    /// photo: the viewer gets the file of that download, and the server is asked once.
    @Test func aDownloadLetGoIsTakenOverByTheNextFetch() throws {
        let photo = server.serve("big.jpg", bytes: randomBytes(600_000))
        let target = "/big.jpg?throttle=1024"
        let files = files()
        let url = server.url(target)
        let tile = CancellationFlag()
        let started = DispatchSemaphore(value: 0)
        files.observeProgress { _, progress in if progress.received > 0 { started.signal() } }
        let tileResult = fetching(files, url, policy: .preferCached, cancellation: tile)
        #expect(started.wait(timeout: .now() + 30) == .success)
        tile.cancel()
        let viewer = try #require(fetching(files, url, policy: .revalidate, cancellation: CancellationFlag())()).get()
        #expect(contents(viewer.path) == photo)
        #expect(viewer.freshness == .downloaded)
        _ = tileResult()
        #expect(server.counts(target).requests == 1)
    }

    /// Nobody takes it over: the download stops once the grace period is over.
    @Test func aDownloadEveryoneLetGoStops() throws {
        server.serve("big.jpg", bytes: randomBytes(1_000_000))
        let target = "/big.jpg?throttle=1024"
        let files = files()
        let url = server.url(target)
        let tile = CancellationFlag()
        let started = DispatchSemaphore(value: 0)
        files.observeProgress { _, progress in if progress.received > 0 { started.signal() } }
        let tileResult = fetching(files, url, policy: .preferCached, cancellation: tile)
        #expect(started.wait(timeout: .now() + 30) == .success)
        tile.cancel()
        #expect(tileResult()?.failure?.kind == .cancelled)
        #expect(server.counts(target).body_bytes < 1_000_000)
        #expect(files.cachedFile(url) == nil)
    }

    /// An answer larger than the limit (a body without end) is refused once; the next fetch
    /// of it (the viewer's, after the tile's) is refused without asking the server again.
    @Test func aPhotoRefusedAsTooLargeIsNotDownloadedAgain() {
        let files = files(photoByteLimit: 4 << 20)
        let url = server.url("/endless.jpg?endless=1")
        let first = files.fetch(url, policy: .preferCached, cancellation: CancellationFlag())
        #expect(first.failure?.kind == .tooLarge)
        let second = files.fetch(url, policy: .revalidate, cancellation: CancellationFlag())
        #expect(second.failure == first.failure)
        #expect(server.counts("/endless.jpg?endless=1").requests == 1)
    }
}
