import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// Web albums walked from a real server on loopback (`tests/servers/photo_server.py`), their
/// lists read in a decoder process.
@Suite struct WebAlbumWalkTests {
    let server: PhotoServer
    let cacheFolder = TempFolder()
    let files: WebPhotoFiles
    let decoder: IsolatedDecoder

    init() throws {
        server = try PhotoServer()
        files = WebPhotoFiles(cache: WebCache(folder: cacheFolder.path + "/http"), client: WebClient())
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        decoder = IsolatedDecoder(settings: settings)
    }

    /// The photos' addresses the walk of `url` delivers, in the list's order.
    private func walk(_ url: String) throws -> [String] {
        let walk = WebAlbumWalk(url: url, files: files, decoder: decoder)
        var photos: [String] = []
        _ = try walk.run(interval: 0.1, maximumInterval: 1, deliver: { batches in
            photos += batches.flatMap { $0.photos.map(\.id) }
        }, found: { _ in }, skipFolder: { _ in }, skip: { _, _ in }).get()
        return photos
    }

    /// A folder's listing asked without its trailing slash is redirected to it; its links are
    /// relative to the page the server answered with, not to the address asked.
    @Test func aListingAskedWithoutItsSlashResolvesItsLinksWhereItCameFrom() throws {
        try FileManager.default.createDirectory(atPath: server.files.path("holiday"), withIntermediateDirectories: true)
        server.serve("holiday/a.jpg", bytes: randomBytes(1000))
        server.serve("holiday/b.jpg", bytes: randomBytes(1000))
        let expected = [server.url("/holiday/a.jpg"), server.url("/holiday/b.jpg")]
        #expect(try walk(server.url("/holiday")) == expected)
        #expect(server.counts("/holiday").statuses == [301])
        // Again with the server gone: the copy cached before, read against where it came from.
        server.stop()
        #expect(try walk(server.url("/holiday")) == expected)
    }
}
