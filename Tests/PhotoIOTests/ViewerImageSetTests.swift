import PhotoCore
import PhotoIO
import Testing

/// Which images the viewer holds, asks for, drops and asks for again.
@Suite struct ViewerImageSetTests {
    struct Image: ViewerHeldImage {
        let version: PhotoVersion
        var isFullResolution = false
    }

    /// A decode handed to the runner, which the set may call off.
    final class Work: CancellableWork {
        let decode: ViewerDecode
        private(set) var cancelled = false
        init(_ decode: ViewerDecode) { self.decode = decode }
        func cancel() { cancelled = true }
    }

    /// A set whose decodes are recorded instead of run.
    final class Viewer {
        var started: [Work] = []
        lazy var images = ViewerImageSet<Image, Work>(radius: 1) { [unowned self] decode in
            let work = Work(decode)
            self.started.append(work)
            return work
        }

        /// The ids asked for since the last look, in the order asked.
        func asked() -> [String] {
            defer { started.removeAll() }
            return started.map(\.decode.photo.id)
        }

        /// The work under way for `id` (the latest asked for).
        func work(_ id: String) -> Work? { started.last { $0.decode.photo.id == id } }

        /// Every decode asked for and not called off ends with its image.
        func finishAll() {
            for work in started where !work.cancelled {
                let version = work.decode.photo.version
                images.finished(version, fullResolution: work.decode.isFullResolution) {
                    .success(Image(version: version, isFullResolution: work.decode.isFullResolution))
                }
            }
            started.removeAll()
        }
    }

    static func photo(_ name: String, modified: Int64 = 0) -> Photo {
        Photo(id: "file:///photos/\(name)", displayName: name, modified: modified, size: 1, contentType: "image/jpeg")
    }

    static func list(_ names: [String]) -> PhotoList {
        var list = PhotoList()
        list.insert(names.map { photo($0) })
        return list
    }

    static func id(_ name: String) -> String { "file:///photos/\(name)" }
    static func ids(_ names: String...) -> [String] { names.map(id) }

    @Test func movingAsksForTheShownPhotoFirstThenItsNeighbours() {
        let viewer = Viewer()
        viewer.images.move(to: Self.id("b.jpg"), in: Self.list(["a.jpg", "b.jpg", "c.jpg", "d.jpg"]))
        #expect(viewer.asked() == Self.ids("b.jpg", "c.jpg", "a.jpg"))
        #expect(viewer.started.isEmpty)
    }

    @Test func movingToANeighbourKeepsOnlyTheWindow() {
        let viewer = Viewer()
        let list = Self.list(["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"])
        viewer.images.move(to: Self.id("b.jpg"), in: list)
        let a = viewer.work(Self.id("a.jpg"))!
        let c = viewer.work(Self.id("c.jpg"))!
        viewer.images.finished(Self.photo("b.jpg").version, fullResolution: false) { .success(Image(version: Self.photo("b.jpg").version)) }
        viewer.started.removeAll()

        viewer.images.move(to: Self.id("c.jpg"), in: list)
        // Only d is new; a left the window: its decode is called off; b and c stay.
        #expect(viewer.asked() == Self.ids("d.jpg"))
        #expect(a.cancelled && !c.cancelled)
        #expect(viewer.images.held == Set(Self.ids("b.jpg", "c.jpg", "d.jpg")))
        #expect(viewer.images.images[Self.id("b.jpg")] != nil)

        viewer.images.move(to: Self.id("e.jpg"), in: list)
        #expect(viewer.images.held == Set(Self.ids("d.jpg", "e.jpg")))
        #expect(viewer.images.images.isEmpty, "b's image goes when it leaves the window")
        #expect(c.cancelled)
        // A result for a photo let go is dropped.
        let outcome = viewer.images.finished(Self.photo("c.jpg").version, fullResolution: false) {
            Issue.record("no image is made for a photo nobody waits for")
            return .success(Image(version: Self.photo("c.jpg").version))
        }
        #expect(outcome == .dropped)
    }

    @Test func aPhotoRewrittenOnDiskDropsItsImageAndDecodeAndIsAskedAgain() {
        let viewer = Viewer()
        var list = Self.list(["a.jpg", "b.jpg", "c.jpg"])
        viewer.images.move(to: Self.id("b.jpg"), in: list)
        let old = viewer.work(Self.id("c.jpg"))!
        viewer.images.finished(Self.photo("b.jpg").version, fullResolution: false) { .success(Image(version: Self.photo("b.jpg").version)) }
        viewer.started.removeAll()
        #expect(viewer.images.followChanges(in: list, current: Self.id("b.jpg")) == false, "nothing changed")
        #expect(viewer.started.isEmpty)

        // b (its image held) and c (its decode under way) are rewritten.
        list.insert([Self.photo("b.jpg", modified: 5), Self.photo("c.jpg", modified: 5)])
        #expect(viewer.images.followChanges(in: list, current: Self.id("b.jpg")))
        #expect(viewer.images.images[Self.id("b.jpg")] == nil)
        #expect(old.cancelled)
        #expect(Set(viewer.started.map(\.decode.photo.version)) == [Self.photo("b.jpg", modified: 5).version, Self.photo("c.jpg", modified: 5).version])
        #expect(viewer.work(Self.id("b.jpg"))?.decode.priority == 1_000_000_000, "the shown photo first")
        // The old decode's result, arriving late, is not taken for the new version.
        #expect(viewer.images.finished(Self.photo("c.jpg").version, fullResolution: false) { .success(Image(version: Self.photo("c.jpg").version)) } == .dropped)
        viewer.finishAll()
        #expect(viewer.images.images[Self.id("b.jpg")]?.version.modified == 5)
        #expect(viewer.images.images[Self.id("c.jpg")]?.version.modified == 5)
    }

    @Test func aRewrittenNeighbourIsNotTheShownPhotosChange() {
        let viewer = Viewer()
        var list = Self.list(["a.jpg", "b.jpg", "c.jpg"])
        viewer.images.move(to: Self.id("b.jpg"), in: list)
        viewer.finishAll()
        list.insert([Self.photo("a.jpg", modified: 9)])
        #expect(viewer.images.followChanges(in: list, current: Self.id("b.jpg")) == false)
        #expect(viewer.asked() == Self.ids("a.jpg"))
    }

    @Test func aFailedPhotoIsAskedAgainOnRetry() {
        let viewer = Viewer()
        let list = Self.list(["a.jpg", "b.jpg"])
        viewer.images.move(to: Self.id("a.jpg"), in: list)
        viewer.started.removeAll()
        let version = Self.photo("a.jpg").version
        let outcome = viewer.images.finished(version, fullResolution: false) { .failure(DecodeFailure(.corrupt, "broken")) }
        #expect(outcome == .failed(retryLater: false))
        #expect(viewer.images.isSettled(Self.id("a.jpg")))
        #expect(viewer.images.failure(for: Self.id("a.jpg"))?.kind == .corrupt)
        // Moving again asks nothing: the failure is held like an image.
        viewer.images.move(to: Self.id("a.jpg"), in: list)
        #expect(viewer.started.isEmpty)

        viewer.images.retry(Self.id("a.jpg"), current: Self.id("a.jpg"), in: list)
        #expect(viewer.asked() == Self.ids("a.jpg"))
        #expect(viewer.images.failure(for: Self.id("a.jpg")) == nil)
        #expect(!viewer.images.isSettled(Self.id("a.jpg")))
    }

    @Test func aFailureThatMayPassIsTriedAgainOnlyWhileWanted() {
        let viewer = Viewer()
        let list = Self.list(["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        viewer.images.move(to: Self.id("a.jpg"), in: list)
        viewer.started.removeAll()
        let a = Self.photo("a.jpg").version, b = Self.photo("b.jpg").version
        #expect(viewer.images.finished(a, fullResolution: false) { .failure(DecodeFailure(.timedOut, "busy")) } == .failed(retryLater: true))
        #expect(viewer.images.finished(b, fullResolution: false) { .failure(DecodeFailure(.unavailable, "no decoder")) } == .failed(retryLater: true))
        #expect(viewer.images.retryIfStillFailed(a))
        #expect(viewer.asked() == Self.ids("a.jpg"))
        // b left the window meanwhile: nothing is asked for it.
        viewer.images.move(to: Self.id("d.jpg"), in: list)
        viewer.started.removeAll()
        #expect(!viewer.images.retryIfStillFailed(b))
        #expect(viewer.started.isEmpty)
    }

    @Test func onlyOnePhotoHoldsAFullResolutionImage() {
        let viewer = Viewer()
        let list = Self.list(["a.jpg", "b.jpg", "c.jpg"])
        viewer.images.move(to: Self.id("a.jpg"), in: list)
        viewer.finishAll()
        let big = PixelSize(width: 6000, height: 4000)
        viewer.images.sharpen(Self.photo("a.jpg"), to: big)
        viewer.images.sharpen(Self.photo("a.jpg"), to: big)
        #expect(viewer.started.count == 1, "asked once")
        #expect(viewer.started[0].decode.size == .fullResolution(big))
        let first = viewer.started[0]
        viewer.started.removeAll()

        // Another photo's full resolution calls the first off.
        viewer.images.sharpen(Self.photo("b.jpg"), to: big)
        #expect(first.cancelled)
        viewer.finishAll()
        #expect(viewer.images.images[Self.id("b.jpg")]?.isFullResolution == true)
        #expect(viewer.images.images[Self.id("a.jpg")]?.isFullResolution == false)

        // Paging away while a full-resolution decode runs calls it off; the photo, still a
        // neighbour, keeps its display-size image.
        viewer.images.sharpen(Self.photo("a.jpg"), to: big)
        let sharpening = viewer.started[0]
        viewer.images.move(to: Self.id("b.jpg"), in: list)
        #expect(sharpening.cancelled)
        #expect(viewer.images.images[Self.id("a.jpg")]?.isFullResolution == false)
        #expect(viewer.images.finished(Self.photo("a.jpg").version, fullResolution: true) { .failure(DecodeFailure(.cancelled, "")) } == .dropped)
    }

    @Test func aPhotoDecodedAheadGoesAtTheNextMove() {
        let viewer = Viewer()
        let list = Self.list(["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"])
        viewer.images.move(to: Self.id("d.jpg"), in: list)
        viewer.finishAll()
        viewer.images.preload(Self.photo("a.jpg"))
        let ahead = viewer.work(Self.id("a.jpg"))!
        #expect(ahead.decode.size == .display)
        viewer.images.move(to: Self.id("e.jpg"), in: list)
        #expect(ahead.cancelled)
        #expect(!viewer.images.held.contains(Self.id("a.jpg")))
    }

    @Test func aDownloadIsShownWhileItsPhotoIsWantedAndRetryableWhenItMayMend() {
        let viewer = Viewer()
        let list = Self.list(["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        viewer.images.move(to: Self.id("a.jpg"), in: list)
        let a = Self.id("a.jpg")
        #expect(viewer.images.downloadStarted(a))
        #expect(!viewer.images.downloadStarted(a), "said once")
        #expect(viewer.images.downloadProgressed(a, DownloadProgress(received: 10, total: 100)))
        #expect(viewer.images.downloads[a] == DownloadProgress(received: 10, total: 100))
        #expect(!viewer.images.downloadProgressed(Self.id("d.jpg"), DownloadProgress(received: 1, total: nil)), "not wanted")
        let ended = viewer.images.downloadEnded(a, failed: true, canRetry: true)
        #expect(ended.wasShown && ended.isWanted)
        #expect(viewer.images.retryable == [a])
        viewer.images.move(to: Self.id("d.jpg"), in: list)
        #expect(viewer.images.retryable.isEmpty, "let go with its photo")
    }

    @Test func stoppingLetsGoOfEverything() {
        let viewer = Viewer()
        viewer.images.move(to: Self.id("a.jpg"), in: Self.list(["a.jpg", "b.jpg"]))
        let works = viewer.started
        viewer.images.stop()
        #expect(works.allSatisfy { $0.cancelled })
        #expect(viewer.images.held.isEmpty && viewer.images.images.isEmpty && viewer.images.shownCurrent == nil)
    }
}
