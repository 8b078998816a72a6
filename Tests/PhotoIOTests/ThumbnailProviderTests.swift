import CGdkPixbuf
import Foundation
import PhotoCore
import Testing
@testable import PhotoIO

@Suite("Thumbnail provider")
struct ThumbnailProviderTests {
    let home = ThumbnailCacheHome()
    let uri = "file:///photos/IMG_0002.JPG"

    func request(modified: Int64 = 1_000, fileSize: Int64 = 2_000, size: ThumbnailSize = .large) -> ThumbnailRequest {
        ThumbnailRequest(uri: uri, modifiedSeconds: modified, fileSize: fileSize, size: size)
    }

    @Test func decodesAtTheSizesEdgeSavesAndThenUsesTheCache() throws {
        let decoder = ScriptedDecoder(.image(PixelSize(width: 4000, height: 3000)))
        let provider = ThumbnailProvider(store: home.store, decoder: decoder)

        guard case .generated(let made, nil) = provider.outcome(for: request(), cancellation: CancellationFlag()) else {
            Issue.record("expected a generated thumbnail")
            return
        }
        #expect(decoder.requests == [DecodeRequest(uri: uri, fitting: PixelSize(width: 256, height: 256))])
        #expect(made.size == PixelSize(width: 256, height: 192))

        guard case .cached(let cached) = provider.outcome(for: request(), cancellation: CancellationFlag()) else {
            Issue.record("expected the cached thumbnail")
            return
        }
        #expect(decoder.calls == 1)
        #expect(packedPixels(cached) == packedPixels(made))
        #expect(cached.sourceSize == PixelSize(width: 4000, height: 3000))
        #expect(try provider.thumbnail(for: request(), cancellation: CancellationFlag()).get().size == made.size)
        #expect(decoder.calls == 1)
    }

    @Test func aStaleThumbnailIsMadeAgain() throws {
        let decoder = ScriptedDecoder(.image(PixelSize(width: 300, height: 300)))
        let provider = ThumbnailProvider(store: home.store, decoder: decoder)
        _ = provider.thumbnail(for: request(modified: 1_000), cancellation: CancellationFlag())

        decoder.answer(.image(PixelSize(width: 300, height: 150)))  // the photo was edited
        guard case .generated(let remade, nil) = provider.outcome(for: request(modified: 1_001), cancellation: CancellationFlag()) else {
            Issue.record("expected the thumbnail to be made again")
            return
        }
        #expect(decoder.calls == 2)
        #expect(remade.size == PixelSize(width: 256, height: 128))
        let path = home.layout.path(forURI: uri, size: .large)
        #expect(pngText(path, "Thumb::MTime") == "1001")
        // The new one is what the cache now holds; a changed size alone also makes it stale.
        guard case .cached = provider.outcome(for: request(modified: 1_001), cancellation: CancellationFlag()) else {
            Issue.record("expected the new thumbnail from the cache")
            return
        }
        guard case .generated = provider.outcome(for: request(modified: 1_001, fileSize: 2_001), cancellation: CancellationFlag()) else {
            Issue.record("a different file size must make the thumbnail stale")
            return
        }
    }

    @Test func failuresAreRecordedAndRespectedUntilTheFileChanges() {
        let decoder = ScriptedDecoder(.failure(DecodeFailure(.corrupt, "The image is damaged: bad Huffman code")))
        let provider = ThumbnailProvider(store: home.store, decoder: decoder)

        guard case .failed(let first) = provider.outcome(for: request(), cancellation: CancellationFlag()) else {
            Issue.record("expected a failure")
            return
        }
        #expect(first.kind == .corrupt)
        #expect(home.store.hasFailed(uri: uri, modified: 1_000))

        guard case .failedEarlier(let earlier) = provider.outcome(for: request(), cancellation: CancellationFlag()) else {
            Issue.record("expected the recorded failure")
            return
        }
        #expect(decoder.calls == 1)
        #expect(earlier.kind == .corrupt)
        #expect(earlier.reason == "Could not be decoded earlier: The image is damaged: bad Huffman code")
        // Whatever size is asked for.
        #expect(provider.thumbnail(for: request(size: .normal), cancellation: CancellationFlag()).failure?.kind == .corrupt)
        #expect(decoder.calls == 1)

        // Fixed and saved again: a new modification time, tried again.
        decoder.answer(.image(PixelSize(width: 64, height: 64)))
        guard case .generated = provider.outcome(for: request(modified: 1_001), cancellation: CancellationFlag()) else {
            Issue.record("expected a new try once the file changed")
            return
        }
        #expect(decoder.calls == 2)
    }

    /// A file listed while it was being written fails; whole within the same second, it has the
    /// same modification time to the second (`Thumb::MTime`) but not the same size: tried again.
    @Test func aFailureIsTriedAgainWhenTheFileGrewWithinTheSameSecond() {
        let decoder = ScriptedDecoder(.failure(DecodeFailure(.corrupt, "The file ends too soon")))
        let provider = ThumbnailProvider(store: home.store, decoder: decoder)
        guard case .failed = provider.outcome(for: request(fileSize: 120), cancellation: CancellationFlag()) else {
            Issue.record("expected a failure")
            return
        }
        #expect(home.store.hasFailed(uri: uri, modified: 1_000, fileSize: 120, cancellation: CancellationFlag()))
        guard case .failedEarlier = provider.outcome(for: request(fileSize: 120), cancellation: CancellationFlag()) else {
            Issue.record("expected the recorded failure for the same file")
            return
        }
        decoder.answer(.image(PixelSize(width: 64, height: 64)))
        guard case .generated = provider.outcome(for: request(fileSize: 4_096), cancellation: CancellationFlag()) else {
            Issue.record("expected a new try once the file grew")
            return
        }
        #expect(decoder.calls == 2)
    }

    @Test(arguments: [DecodeFailure(.cancelled, "Cancelled"), DecodeFailure(.unreadable, "You do not have permission to read this file."),
                      DecodeFailure(.timedOut, IsolatedDecoder.timedOutReason)])
    func passingFailuresAreNotRecorded(failure: DecodeFailure) {
        let decoder = ScriptedDecoder(.failure(failure))
        let provider = ThumbnailProvider(store: home.store, decoder: decoder)
        #expect(provider.thumbnail(for: request(), cancellation: CancellationFlag()).failure == failure)
        #expect(!home.store.hasFailed(uri: uri, modified: 1_000))
        _ = provider.thumbnail(for: request(), cancellation: CancellationFlag())
        #expect(decoder.calls == 2)
    }

    @Test func aCancelledRequestDoesNothing() {
        let decoder = ScriptedDecoder(.image(PixelSize(width: 10, height: 10)))
        let provider = ThumbnailProvider(store: home.store, decoder: decoder)
        let flag = CancellationFlag()
        flag.cancel()
        #expect(provider.thumbnail(for: request(), cancellation: flag).failure?.kind == .cancelled)
        #expect(decoder.calls == 0)
        #expect(home.contents().isEmpty)
    }

    @Test func filesInsideTheCacheAreDecodedButNeverCached() {
        let decoder = ScriptedDecoder(.image(PixelSize(width: 128, height: 128)))
        let provider = ThumbnailProvider(store: home.store, decoder: decoder)
        let inside = ThumbnailRequest(uri: fileURI(home.path + "/thumbnails/normal/abc.png"), modifiedSeconds: 1, fileSize: 1, size: .normal)
        for _ in 0..<2 {
            guard case .generated(_, nil) = provider.outcome(for: inside, cancellation: CancellationFlag()) else {
                Issue.record("expected a decode without caching")
                return
            }
        }
        #expect(decoder.calls == 2)
        #expect(home.contents().isEmpty)

        // Reached through a symbolic link: still the cache's own file.
        _ = provider.thumbnail(for: request(size: .normal), cancellation: CancellationFlag())
        let before = home.contents()
        home.folder.symlink("link", to: home.path + "/thumbnails")
        let name = MD5.hex(uri) + ".png"
        let throughLink = ThumbnailRequest(uri: home.folder.uri("link") + "/normal/" + name, modifiedSeconds: 1, fileSize: 1, size: .normal)
        guard case .generated(_, nil) = provider.outcome(for: throughLink, cancellation: CancellationFlag()) else {
            Issue.record("expected a decode without caching")
            return
        }
        #expect(decoder.calls == 4)
        #expect(home.contents() == before)
    }

    // MARK: - With the real decoder and real files

    /// Through decoder processes: a file the decoder refuses or crashes on is recorded and not
    /// tried again; one it is stopped on for taking too long is neither recorded nor spared a
    /// new try.
    @Test func onlyWhatTheDecoderRefusedOrCrashedOnIsRecorded() throws {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        settings.timeout = 2
        settings.testModes = true
        let isolated = IsolatedDecoder(settings: settings)
        let provider = ThumbnailProvider(store: home.store, decoder: isolated)
        let photos = TempFolder()
        photos.file("hang.jpg", text: TestFault.hang)
        photos.file("crash.jpg", text: TestFault.crash)
        photos.file("notes.jpg", text: "not a picture at all")
        func request(_ name: String) -> ThumbnailRequest {
            let stamp = fileStamp(photos.path(name))
            return ThumbnailRequest(uri: photos.uri(name), modifiedSeconds: stamp.modified, fileSize: stamp.size, size: .normal)
        }

        for _ in 0..<2 {
            guard case .failed(let failure) = provider.outcome(for: request("hang.jpg"), cancellation: CancellationFlag()) else {
                Issue.record("expected the hang to fail now, not earlier")
                return
            }
            #expect(failure.kind == .timedOut)
            #expect(!home.store.hasFailed(uri: photos.uri("hang.jpg"), modified: request("hang.jpg").modified))
        }
        #expect(isolated.counts.replaced == 2, "tried again in a new process")

        for (name, kind) in [("crash.jpg", DecodeFailure.Kind.unsafe), ("notes.jpg", .notAnImage)] {
            guard case .failed(let failure) = provider.outcome(for: request(name), cancellation: CancellationFlag()) else {
                Issue.record("expected \(name) to fail")
                continue
            }
            #expect(failure.kind == kind, "\(name)")
            #expect(home.store.hasFailed(uri: photos.uri(name), modified: request(name).modified), "\(name)")
            guard case .failedEarlier(let earlier) = provider.outcome(for: request(name), cancellation: CancellationFlag()) else {
                Issue.record("expected \(name)'s recorded failure")
                continue
            }
            #expect(earlier.kind == kind, "\(name)")
        }
        #expect(isolated.counts.replaced == 3, "only the crash cost a process, once")
    }

    @Test func aRealPhotoIsCachedAndThenNotReadAgain() throws {
        let photo = home.folder.image("photo.png", width: 600, height: 400, rgba: 0x3366_CCFF)
        let provider = ThumbnailProvider(store: home.store)  // PixbufDecoder
        let stamp = fileStamp(photo)
        let request = ThumbnailRequest(uri: fileURI(photo), modifiedSeconds: stamp.modified, fileSize: stamp.size, size: .large)

        guard case .generated(let made, nil) = provider.outcome(for: request, cancellation: CancellationFlag()) else {
            Issue.record("expected a generated thumbnail")
            return
        }
        #expect(made.size == PixelSize(width: 256, height: 171))
        #expect(made.pixel(128, 85, isNear: 0x3366_CCFF))

        // Garbage in the photo, same size and modification time: only the cache can answer.
        home.folder.file("photo.png", bytes: [UInt8](repeating: 0x5A, count: Int(stamp.size)))
        setModified(photo, seconds: stamp.modified)
        guard case .cached(let cached) = provider.outcome(for: request, cancellation: CancellationFlag()) else {
            Issue.record("expected the cached thumbnail")
            return
        }
        #expect(cached.size == made.size)
        #expect(cached.sourceSize == PixelSize(width: 600, height: 400))
        #expect(cached.pixel(128, 85, isNear: 0x3366_CCFF))

        // Touched: stale, read again, and now the garbage fails, and that is recorded.
        setModified(photo, seconds: stamp.modified + 60)
        let touched = ThumbnailRequest(uri: request.uri, modifiedSeconds: stamp.modified + 60, fileSize: stamp.size, size: .large)
        guard case .failed(let failure) = provider.outcome(for: touched, cancellation: CancellationFlag()) else {
            Issue.record("expected the garbage to fail")
            return
        }
        #expect(failure.kind == .notAnImage)
        #expect(home.store.hasFailed(uri: request.uri, modified: stamp.modified + 60))
    }

    @Test func smallImagesAreNotEnlarged() throws {
        let photo = home.folder.image("small.png", width: 50, height: 40)
        let provider = ThumbnailProvider(store: home.store)
        let stamp = fileStamp(photo)
        let request = ThumbnailRequest(uri: fileURI(photo), modifiedSeconds: stamp.modified, fileSize: stamp.size, size: .xLarge)
        #expect(try provider.thumbnail(for: request, cancellation: CancellationFlag()).get().size == PixelSize(width: 50, height: 40))
        #expect(try provider.thumbnail(for: request, cancellation: CancellationFlag()).get().size == PixelSize(width: 50, height: 40))
    }

    @Test(.enabled(if: SharedCorpus.isPresent, Comment(rawValue: SharedCorpus.absence)))
    func realCameraPhotosRoundTripThroughTheCache() throws {
        let folder = SharedCorpus.root + "/cameras/exif-samples"
        let names = ["Canon_40D.jpg", "Nikon_D70.jpg", "Pentax_K10D.jpg"].filter {
            FileManager.default.fileExists(atPath: folder + "/" + $0)
        }
        try #require(!names.isEmpty, "the camera corpus is missing")
        let provider = ThumbnailProvider(store: home.store)
        for name in names {
            let path = folder + "/" + name
            let stamp = fileStamp(path)
            let request = ThumbnailRequest(uri: fileURI(path), modifiedSeconds: stamp.modified, fileSize: stamp.size, size: .normal)
            let made = try provider.thumbnail(for: request, cancellation: CancellationFlag()).get()
            #expect(max(made.size.width, made.size.height) <= 128, "\(name)")
            guard case .cached(let cached) = provider.outcome(for: request, cancellation: CancellationFlag()) else {
                Issue.record("\(name) was not cached")
                continue
            }
            #expect(packedPixels(cached) == packedPixels(made), "\(name)")
        }
    }
}
