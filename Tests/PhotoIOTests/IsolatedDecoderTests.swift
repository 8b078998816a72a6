import Foundation
import Glibc
import PhotoCore
@testable import PhotoIO
import Synchronization
import Testing

/// The decoder processes, for real: the `gphotobrowse-decoder` program built beside these
/// tests, started through bubblewrap where it runs here and without it where it cannot.
@Suite(.serialized) struct IsolatedDecoderTests {
    private let folder = TempFolder()

    private static func decoder(processes: Int = 2, timeout: Double = 30, cancelGrace: Double = 2, memoryMiB: Int = 2048,
                                bubblewrap: Bool = true) -> IsolatedDecoder {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = processes
        settings.timeout = timeout
        settings.cancelGrace = cancelGrace
        settings.memoryLimit = memoryMiB << 20
        settings.testModes = true
        settings.useBubblewrap = bubblewrap
        return IsolatedDecoder(settings: settings)
    }

    private func request(_ name: String, box: Int = 64) -> DecodeRequest {
        DecodeRequest(uri: folder.uri(name), fitting: PixelSize(width: box, height: box))
    }

    @Test func theDecoderProgramIsBuiltBesideTheTests() {
        #expect(DecoderLaunch.findProgram() != nil, "gphotobrowse-decoder next to \(String(describing: try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))")
    }

    @Test(arguments: [true, false])
    func pixelsFromTheProcessAreThePixelsDecodedHere(bubblewrap: Bool) throws {
        _ = folder.image("a.png", width: 300, height: 200, rgba: 0x3366_CCFF)
        _ = folder.image("b.jpg", width: 120, height: 90, rgba: 0xCC33_22FF, type: "jpeg")
        let isolated = Self.decoder(bubblewrap: bubblewrap)
        for name in ["a.png", "b.jpg"] {
            let here = try PixbufDecoder().decode(request(name), cancellation: CancellationFlag()).get()
            let there = try isolated.decode(request(name), cancellation: CancellationFlag()).get()
            #expect(there.size == here.size)
            #expect(there.sourceSize == here.sourceSize)
            #expect(there.format == here.format)
            #expect(packedPixels(there) == packedPixels(here))
        }
        #expect(isolated.status.contains("separate processes"))
        #expect(isolated.status.contains("seccomp"), "\(isolated.status)")
    }

    @Test func failuresKeepTheirReasons() throws {
        folder.file("notes.png", text: "not a picture at all")
        folder.file("empty.jpg", bytes: [])
        folder.fifo("pipe.jpg")
        let isolated = Self.decoder()
        #expect(isolated.decode(request("notes.png"), cancellation: CancellationFlag()).failure?.kind == .notAnImage)
        #expect(isolated.decode(request("empty.jpg"), cancellation: CancellationFlag()).failure?.kind == .corrupt)
        #expect(isolated.decode(request("pipe.jpg"), cancellation: CancellationFlag()).failure?.kind == .unreadable)
        #expect(isolated.counts.replaced == 0)
    }

    /// msgfmt, to compile the Chinese catalog for the test below.
    private static let msgfmt = ["/usr/bin/msgfmt", "/bin/msgfmt"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: msgfmt != nil, "msgfmt is missing (apt-get install gettext)"), arguments: [true, false])
    func failuresAreWrittenInTheBrowsersLanguage(bubblewrap: Bool) throws {
        let po = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../po/zh_CN.po").standardized
        let catalogs = URL(fileURLWithPath: folder.path).appendingPathComponent("locale")
        let messages = catalogs.appendingPathComponent("zh_CN/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: try #require(Self.msgfmt))
        compile.arguments = ["-o", messages.appendingPathComponent("gphotobrowse.mo").path, po.path]
        try compile.run()
        compile.waitUntilExit()
        #expect(compile.terminationStatus == 0)

        folder.file("empty.jpg", bytes: [])
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        settings.useBubblewrap = bubblewrap
        settings.language = ["LANGUAGE": "zh_CN", "LANG": "C.UTF-8", Localization.catalogVariable: catalogs.path]
        let chinese = IsolatedDecoder(settings: settings).decode(request("empty.jpg"), cancellation: CancellationFlag()).failure
        #expect(chinese?.reason == "文件是空的。")
        settings.language = [:]
        let english = IsolatedDecoder(settings: settings).decode(request("empty.jpg"), cancellation: CancellationFlag()).failure
        #expect(english?.reason == "The file is empty.")
    }

    @Test func animationsDatesAndPropertiesComeFromTheProcess() throws {
        folder.file("three.gif", bytes: handMadeGIF(palette: [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF],
                                                    frames: [(0, 10), (1, 20), (2, 5)], loopCount: 0))
        folder.file("still.gif", bytes: handMadeGIF(palette: [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF], frames: [(0, 10)], loopCount: 0))
        _ = folder.image("plain.jpg", width: 32, height: 24, type: "jpeg")
        let exif = jpeg(folder.bytes("plain.jpg"), withExif: [.dateTimeOriginal("2023:08:05 17:16:53")])
        folder.file("dated.jpg", bytes: exif)
        let isolated = Self.decoder()

        guard case .animation(let animation) = try isolated.picture(request("three.gif"), cancellation: CancellationFlag()).get() else {
            Issue.record("three.gif came back still")
            return
        }
        #expect(animation.frames.map(\.duration) == [100, 200, 50])
        #expect(animation.frames[1].image.pixel(1, 1, isNear: 0x00FF_00FF))
        #expect(animation.frames.allSatisfy { $0.image.sourceSize == PixelSize(width: 4, height: 4) && $0.image.format == "gif" })
        // Frames as this process plays them, pixel for pixel.
        let here = try #require(try AnimationDecoder().decode(request("three.gif"), cancellation: CancellationFlag()).get())
        #expect(animation.frames.map { packedPixels($0.image) } == here.frames.map { packedPixels($0.image) })
        guard case .still(let still) = try isolated.picture(request("still.gif"), cancellation: CancellationFlag()).get() else {
            Issue.record("still.gif came back animated")
            return
        }
        #expect(packedPixels(still) == packedPixels(try PixbufDecoder().decode(request("still.gif"), cancellation: CancellationFlag()).get()))
        guard case .still(let photo) = try isolated.picture(request("plain.jpg"), cancellation: CancellationFlag()).get() else {
            Issue.record("plain.jpg came back animated")
            return
        }
        #expect(photo.size == PixelSize(width: 32, height: 24) && photo.format == "jpeg")
        // Bounded as asked: two frames at most; room for one frame's bytes is a still image.
        guard case .animation(let two) = try isolated.picture(request("three.gif"), maxFrames: 2, cancellation: CancellationFlag()).get() else {
            Issue.record("three.gif cut to two frames came back still")
            return
        }
        #expect(two.frames.count == 2)
        guard case .still = try isolated.picture(request("three.gif"), maxBytes: 4 * 4 * 4, cancellation: CancellationFlag()).get() else {
            Issue.record("three.gif with room for one frame came back animated")
            return
        }

        #expect(isolated.dateTaken(uri: folder.uri("dated.jpg"), cancellation: CancellationFlag()) == PhotoMetadata.readDate(uri: folder.uri("dated.jpg")))
        #expect(isolated.dateTaken(uri: folder.uri("dated.jpg"), cancellation: CancellationFlag())?.dateTaken != nil)
        let details = isolated.properties(uri: folder.uri("dated.jpg"), cancellation: CancellationFlag())
        #expect(details == PhotoProperties.read(uri: folder.uri("dated.jpg")))
        #expect(details.dateTaken != nil && details.name == "dated.jpg")
    }

    /// The thumbnail cache's files (other programs write them too) are read in the process:
    /// the same pixels and keys as read here, text after the image data included; a file
    /// that crashes its reader costs a process and counts as no thumbnail, which the provider
    /// then makes again from the photo, over it.
    @Test func cachedThumbnailsAreReadInTheProcess() throws {
        let home = ThumbnailCacheHome()
        let isolated = Self.decoder(processes: 1)
        let inProcess = ThumbnailStore(cacheHome: home.path), there = ThumbnailStore(cacheHome: home.path, reader: isolated)
        let uri = "file:///photos/IMG_0001.JPG"
        let image = patternImage(width: 200, height: 150, hasAlpha: true, sourceSize: PixelSize(width: 4000, height: 3000))
        try inProcess.save(image: image, uri: uri, modified: 7, fileSize: 99, size: .large)

        for size in [ThumbnailSize.large, .normal] {
            let here = try #require(inProcess.load(uri: uri, modified: 7, fileSize: 99, size: size))
            let read = try #require(there.load(uri: uri, modified: 7, fileSize: 99, size: size))
            #expect(read.size == here.size && read.sourceSize == PixelSize(width: 4000, height: 3000) && read.format == "jpeg")
            #expect(packedPixels(read) == packedPixels(here))
        }
        #expect(packedPixels(try #require(there.load(uri: uri, modified: 7, size: .large))) == packedPixels(image))
        #expect(there.load(uri: uri, modified: 8, size: .large) == nil, "stale: the browser decides")
        try inProcess.recordFailure(uri: "file:///photos/bad.jpg", modified: 3, failure: DecodeFailure(.corrupt, "Damaged."))
        #expect(there.recordedFailure(uri: "file:///photos/bad.jpg", modified: 3) == DecodeFailure(.corrupt, "Damaged."))
        #expect(isolated.counts.started == 1 && isolated.counts.replaced == 0)

        // A file of the test mode's crash marker in place of a thumbnail.
        let photo = folder.image("photo.png", width: 90, height: 60)
        let stamp = fileStamp(photo)
        let request = ThumbnailRequest(uri: folder.uri("photo.png"), modifiedSeconds: stamp.modified, fileSize: stamp.size, size: .normal)
        let path = home.layout.path(forURI: request.uri, size: .normal)
        try FileManager.default.createDirectory(atPath: home.layout.directory(for: .normal), withIntermediateDirectories: true)
        folder.file("crash.png", text: TestFault.crash + String(repeating: " ", count: 100))
        try FileManager.default.copyItem(atPath: folder.path("crash.png"), toPath: path)
        #expect(there.load(uri: request.uri, modified: stamp.modified, size: .normal) == nil)
        #expect(isolated.counts.replaced == 1, "the file was parsed in the process")

        let provider = ThumbnailProvider(cacheHome: home.path, decoder: isolated)
        guard case .generated(let made, nil) = provider.outcome(for: request, cancellation: CancellationFlag()) else {
            Issue.record("expected the thumbnail to be made again")
            return
        }
        #expect(isolated.counts.replaced == 2, "the crashing file was read once more, then replaced")
        guard case .cached(let cached) = provider.outcome(for: request, cancellation: CancellationFlag()) else {
            Issue.record("expected the new thumbnail from the cache")
            return
        }
        #expect(packedPixels(cached) == packedPixels(made))
        #expect(isolated.counts.replaced == 2)
    }

    /// Dates come a batch of files to a request (a full batch, then some), in order, with
    /// files that hold no date and files that cannot be opened in their places, from one
    /// process that never breaks down.
    @Test func datesComeInBatchesInOrder() throws {
        _ = folder.image("plain.jpg", width: 32, height: 24, type: "jpeg")
        let plain = folder.bytes("plain.jpg")
        var uris: [String] = []
        for i in 0..<(DecoderChannel.maxDescriptors + 10) {
            let name = "p\(i).jpg"
            switch i % 3 {
            case 0: folder.file(name, bytes: jpeg(plain, withExif: [.dateTimeOriginal(String(format: "2021:03:%02d 10:00:00", 1 + i % 28))]))
            case 1: folder.file(name, bytes: plain)
            default: _ = folder.image(name, width: 8, height: 8)
            }
            uris.append(folder.uri(name))
        }
        folder.fifo("pipe.jpg")
        uris += [folder.uri("pipe.jpg"), folder.uri("missing.jpg")]
        let isolated = Self.decoder(processes: 1)
        let dates = isolated.datesTaken(uris: uris, cancellation: CancellationFlag())
        #expect(dates == uris.map { PhotoMetadata.readDate(uri: $0) })
        #expect(dates.compactMap { $0?.dateTaken }.count == (DecoderChannel.maxDescriptors + 10 + 2) / 3)
        #expect(dates.last! == nil)
        #expect(isolated.counts.started == 1 && isolated.counts.replaced == 0)
    }

    /// A crash, a hang and a runaway allocation each cost one file and one process: the file
    /// fails as "could not be decoded safely" (the hang as "took too long", which is not the
    /// file's fault for certain), the next file decodes in a new process.
    @Test func aMisbehavingDecoderIsReplacedAndOnlyItsFileFails() throws {
        folder.file("crash.jpg", text: TestFault.crash)
        folder.file("hang.jpg", text: TestFault.hang)
        folder.file("hog.jpg", text: TestFault.allocate)
        _ = folder.image("fine.png", width: 40, height: 30)
        let isolated = Self.decoder(processes: 1, timeout: 3, memoryMiB: 512)
        #expect((try? isolated.decode(request("fine.png"), cancellation: CancellationFlag()).get()) != nil)
        for (n, name) in ["crash.jpg", "hang.jpg", "hog.jpg"].enumerated() {
            let started = Date()
            let result = isolated.decode(request(name), cancellation: CancellationFlag())
            guard case .failure(let failure) = result else {
                Issue.record("\(name) decoded")
                continue
            }
            if name == "hang.jpg" {
                #expect(failure.kind == .timedOut, "\(name): \(failure)")
                #expect(failure.reason == IsolatedDecoder.timedOutReason)
            } else {
                #expect(failure.kind == .unsafe, "\(name): \(failure)")
                #expect(failure.reason == IsolatedDecoder.unsafeReason)
            }
            #expect(Date().timeIntervalSince(started) < 20)
            #expect(isolated.counts.replaced == n + 1)
            let after = try isolated.decode(request("fine.png"), cancellation: CancellationFlag()).get()
            #expect(after.size == PixelSize(width: 40, height: 30), "the pool recovered after \(name)")
        }
    }

    /// Many decodes at once through a small pool, one of them crashing: every other file
    /// decodes.
    @Test func aCrashDisturbsNoOtherDecode() throws {
        for i in 0..<24 { _ = folder.image("p\(i).png", width: 50 + i, height: 20) }
        folder.file("crash.jpg", text: TestFault.crash)
        let isolated = Self.decoder(processes: 3)
        let names = (0..<24).map { "p\($0).png" } + ["crash.jpg"]
        let requests = names.map { request($0) }
        let results = Mutex<[String: Result<DecodedImage, DecodeFailure>]>([:])
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            let result = isolated.decode(requests[i], cancellation: CancellationFlag())
            results.withLock { $0[names[i]] = result }
        }
        let all = results.withLock { $0 }
        for i in 0..<24 {
            #expect((try? all["p\(i).png"]?.get())?.sourceSize.width == 50 + i, "p\(i).png: \(String(describing: all["p\(i).png"]))")
        }
        if case .failure(let failure)? = all["crash.jpg"] { #expect(failure.kind == .unsafe) } else { Issue.record("crash.jpg decoded") }
    }

    /// The app starts its processes at launch and again when a window opens a folder: a
    /// second call while the first call's starts are under way adds none.
    @Test func prestartingTwiceStartsNoMoreThanThePoolHolds() throws {
        let isolated = Self.decoder(processes: 2)
        isolated.prestart()
        let deadline = Date().addingTimeInterval(30)
        while isolated.counts.started == 0 && Date() < deadline { usleep(1_000) }
        try #require(isolated.counts.started >= 1, "no process started")
        isolated.prestart(wait: true)
        while isolated.counts.idle < 2 && Date() < deadline { usleep(1_000) }
        #expect(isolated.counts.idle == 2)
        #expect(isolated.counts.started == 2)
    }

    /// The decode is cancelled while it runs in the process (the file makes the process wait
    /// for the cancellation, then decode as usual): the decode stops and says so, and the
    /// process goes on to the next file.
    @Test(arguments: [false, true])
    func aCancelledDecodeStopsWithoutEndingTheProcess(processRunning: Bool) throws {
        folder.file("waits.png", text: TestFault.waitForCancel)
        _ = folder.image("small.png", width: 30, height: 20)
        // A process that answers the cancel keeps its place however long it takes; on a
        // loaded machine (the other tests' processes) a new one may take seconds to start
        // and answer, which the usual two seconds of grace would take for a stuck process.
        let isolated = Self.decoder(processes: 1, cancelGrace: 30)
        // Running already, or started for this request: the cancel may overtake the request.
        if processRunning { _ = try isolated.decode(request("small.png"), cancellation: CancellationFlag()).get() }
        let flag = CancellationFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { flag.cancel() }
        let result = isolated.decode(request("waits.png"), cancellation: flag)
        #expect(result.failure?.kind == .cancelled, "\(result)")
        #expect(isolated.counts.replaced == 0)
        #expect(isolated.counts.started == 1)
        #expect((try? isolated.decode(request("small.png"), cancellation: CancellationFlag()).get())?.size.width == 30)
        #expect(isolated.counts.started == 1, "the same process went on")
    }

    /// A decoder that stops answering (stopped, or spinning) while a request runs: cancelling
    /// the request ends its wait at once, not at the timeout; the process is ended shortly
    /// after and its place in the pool goes to a new one, and a request waiting for that
    /// place is not cancelled with it.
    @Test(arguments: [TestFault.stop, TestFault.hang])
    func aCancelledRequestDoesNotWaitForADecoderThatStoppedAnswering(fault: String) throws {
        folder.file("stuck.jpg", text: fault)
        _ = folder.image("small.png", width: 30, height: 20)
        let isolated = Self.decoder(processes: 1, timeout: 25)
        _ = try isolated.decode(request("small.png"), cancellation: CancellationFlag()).get()
        let (stuckFile, smallFile) = (request("stuck.jpg"), request("small.png"))
        let flag = CancellationFlag()
        let stuck = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<DecodedImage, DecodeFailure>?>(nil)
        DispatchQueue.global().async {
            let result = isolated.decode(stuckFile, cancellation: flag)
            outcome.withLock { $0 = result }
            stuck.signal()
        }
        // The stuck request took the one process (whether the decoder reads it before or
        // after the cancel, it stops answering); the other one waits for it.
        let deadline = Date().addingTimeInterval(20)
        while isolated.counts.idle > 0 && Date() < deadline { usleep(1_000) }
        try #require(isolated.counts.idle == 0, "the request never took the process")
        let waiting = DispatchSemaphore(value: 0)
        let other = Mutex<Result<DecodedImage, DecodeFailure>?>(nil)
        DispatchQueue.global().async {
            let result = isolated.decode(smallFile, cancellation: CancellationFlag())
            other.withLock { $0 = result }
            waiting.signal()
        }
        let cancelled = Date()
        flag.cancel()
        try #require(stuck.wait(timeout: .now() + 20) == .success, "the cancelled request still waits")
        let result = try #require(outcome.withLock { $0 })
        #expect(result.failure?.kind == .cancelled, "\(result)")
        #expect(Date().timeIntervalSince(cancelled) < 2, "the cancelled request waited for the decoder")
        try #require(waiting.wait(timeout: .now() + 20) == .success, "the other request never got a process")
        #expect(Date().timeIntervalSince(cancelled) < 15, "the stuck process held its place until the timeout")
        #expect((try? other.withLock { $0 }?.get())?.size.width == 30)
        #expect(isolated.counts.replaced == 1)
        #expect(isolated.counts.started == 2)
    }

    /// bubblewrap's --die-with-parent follows the thread that started it: a process started
    /// from a thread that then ends must live on.
    @Test func aProcessOutlivesTheThreadThatStartedIt() throws {
        _ = folder.image("a.png", width: 30, height: 20)
        let isolated = Self.decoder(processes: 1)
        let first = request("a.png")
        let done = DispatchSemaphore(value: 0)
        let task = Mutex<String>("")
        let thread = Thread {
            // "PID/task/TID": this thread's own folder under /proc.
            task.withLock { $0 = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "" }
            _ = isolated.decode(first, cancellation: CancellationFlag())
            done.signal()
        }
        thread.start()
        done.wait()
        // The thread has gone from the process once the kernel has done with its exit, which
        // is when a death signal tied to it would have been sent.
        let gone = "/proc/" + task.withLock { $0 }
        #expect(gone.contains("/task/"))
        let deadline = Date(timeIntervalSinceNow: 10)
        while FileManager.default.fileExists(atPath: gone) && Date() < deadline { usleep(1_000) }
        #expect(!FileManager.default.fileExists(atPath: gone), "the thread did not end")
        let image = try isolated.decode(request("a.png"), cancellation: CancellationFlag()).get()
        #expect(image.size.width == 30)
        #expect(isolated.counts.started == 1 && isolated.counts.replaced == 0)
    }

    @Test func idleProcessesEndAndNewOnesStartOnDemand() throws {
        _ = folder.image("a.png", width: 30, height: 20)
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        settings.idleTime = 0.4
        let isolated = IsolatedDecoder(settings: settings)
        _ = try isolated.decode(request("a.png"), cancellation: CancellationFlag()).get()
        #expect(isolated.counts.idle == 1)
        let deadline = Date(timeIntervalSinceNow: 10)
        while isolated.counts.idle > 0 && Date() < deadline { usleep(1_000) }
        #expect(isolated.counts.idle == 0, "an idle process was left running")
        _ = try isolated.decode(request("a.png"), cancellation: CancellationFlag()).get()
        #expect(isolated.counts.started == 2)
    }

    /// A decoder program that cannot start decodes nothing in the browser instead: every
    /// request fails at once as unavailable (not remembered as the file's fault), cached
    /// thumbnails are not read, the status says why, and the observer hears it.
    @Test func aDecoderThatCannotStartFailsClosed() throws {
        _ = folder.image("a.png", width: 30, height: 20)
        var settings = IsolatedDecoder.Settings()
        settings.program = "/bin/false"
        settings.useBubblewrap = false
        settings.startDelays = (first: 30, max: 60)
        let isolated = IsolatedDecoder(settings: settings)
        let heard = Mutex<[DecoderStarts.Availability]>([])
        isolated.observeAvailability { availability in heard.withLock { $0.append(availability) } }
        let failure = try #require(isolated.decode(request("a.png"), cancellation: CancellationFlag()).failure)
        #expect(failure.kind == .unavailable && !failure.isLasting)
        #expect(failure.reason == IsolatedDecoder.unsafeReason)
        #expect(isolated.status.hasPrefix("Decoding is unavailable"), "\(isolated.status)")
        guard case .unavailable = isolated.availability else { Issue.record("still available"); return }
        #expect(heard.withLock { $0.count } == 1)
        // Within the delay, nothing else tries to start one, and nothing is read here.
        #expect(try #require(isolated.picture(request("a.png"), cancellation: CancellationFlag()).failure).kind == .unavailable)
        let home = ThumbnailCacheHome()
        try ThumbnailStore(cacheHome: home.path).save(image: patternImage(width: 40, height: 30), uri: folder.uri("a.png"),
                                                      modified: 1, fileSize: 1, size: .normal)
        #expect(ThumbnailStore(cacheHome: home.path, reader: isolated).load(uri: folder.uri("a.png"), modified: 1, size: .normal) == nil)
        #expect(isolated.counts.started == 0)
        #expect(heard.withLock { $0.count } == 1, "said once")
    }

    /// Decoding comes back by itself once a process starts again (after the delay), and at
    /// once on Retry.
    @Test func decodingComesBackWhenAProcessStartsAgain() throws {
        _ = folder.image("a.png", width: 30, height: 20)
        let real = try #require(DecoderLaunch.findProgram())
        let flag = folder.path("works"), script = folder.path("decoder.sh")
        folder.file("decoder.sh", text: "#!/bin/sh\n[ -e '\(flag)' ] || exit 1\nexec '\(real)' \"$@\"\n")
        chmod(script, 0o755)
        var settings = IsolatedDecoder.Settings()
        settings.program = script
        settings.useBubblewrap = false
        settings.startDelays = (first: 0.2, max: 0.4)
        let isolated = IsolatedDecoder(settings: settings)
        let heard = Mutex<[DecoderStarts.Availability]>([])
        isolated.observeAvailability { availability in heard.withLock { $0.append(availability) } }
        #expect(try #require(isolated.decode(request("a.png"), cancellation: CancellationFlag()).failure).kind == .unavailable)
        folder.file("works", text: "")
        let deadline = Date().addingTimeInterval(10)
        while heard.withLock({ $0.last }) != .available, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(heard.withLock { $0.last } == .available)
        let image = try isolated.decode(request("a.png"), cancellation: CancellationFlag()).get()
        #expect(image.size == PixelSize(width: 30, height: 20))
        #expect(isolated.status.hasPrefix("Decoding runs in separate processes"), "\(isolated.status)")
    }

    /// Where bubblewrap cannot make its sandbox (a chroot, no user namespaces), what it says
    /// is read into the status, not left on the browser's standard error, and the decoders
    /// run with the confinements that remain.
    @Test func bubblewrapThatCannotRunIsProbedQuietly() throws {
        _ = folder.image("a.png", width: 30, height: 20)
        let bubblewrap = folder.path("bwrap")
        folder.file("bwrap", text: "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
        chmod(bubblewrap, 0o755)
        var settings = IsolatedDecoder.Settings()
        settings.bubblewrap = bubblewrap
        let isolated = IsolatedDecoder(settings: settings)
        let image = try isolated.decode(request("a.png"), cancellation: CancellationFlag()).get()
        #expect(image.size == PixelSize(width: 30, height: 20))
        #expect(isolated.status.contains("bubblewrap could not run here (No permissions to create new namespace)"), "\(isolated.status)")
        #expect(isolated.counts.started == 1)
    }

    /// The probe of a bubblewrap that works: the decoder started inside it exits at once.
    @Test func aDecoderAskedToProbeExitsAtOnce() throws {
        let program = try #require(DecoderLaunch.findProgram())
        #expect(DecoderProcess.probe(DecoderLaunch(program: program, bubblewrap: nil)) == nil)
        #expect(DecoderProcess.probe(DecoderLaunch(program: "/bin/false", bubblewrap: nil)) == "exit status 1")
    }

    /// The probe of bubblewrap: inside its sandbox runs bubblewrap's own `--version`, not
    /// the decoder program (which would load every library it links only to exit).
    @Test func theProbeRunsBubblewrapsOwnVersionInTheSandbox() throws {
        let bubblewrap = folder.path("bwrap")
        // A stand-in that writes down what it was asked to run inside its sandbox, and runs it.
        folder.file("bwrap", text: """
            #!/bin/sh
            [ "$1" = --version ] && exit 0
            while [ "$1" != -- ]; do shift; done
            shift
            echo "$@" > "$0.ran"
            exec "$@"

            """)
        chmod(bubblewrap, 0o755)
        let program = try #require(DecoderLaunch.findProgram())
        #expect(DecoderProcess.probe(DecoderLaunch(program: program, bubblewrap: bubblewrap)) == nil)
        #expect(try String(contentsOfFile: bubblewrap + ".ran", encoding: .utf8) == "\(bubblewrap) --version\n")
    }

    /// The development switch decodes here, and says so.
    @Test func decodingInTheBrowserIsAskedForByNameAndSaid() throws {
        _ = folder.image("a.png", width: 30, height: 20)
        var settings = IsolatedDecoder.Settings()
        settings.program = "/bin/false"
        settings.decodesInBrowser = true
        let isolated = IsolatedDecoder(settings: settings)
        let image = try isolated.decode(request("a.png"), cancellation: CancellationFlag()).get()
        #expect(image.size == PixelSize(width: 30, height: 20))
        #expect(isolated.status.contains("GPHOTOBROWSE_DECODE_IN_BROWSER=1"), "\(isolated.status)")
    }

    /// The process cannot read a file it was not given, create one, or reach the network.
    @Test(arguments: [true, false])
    func theProcessReachesNothingButItsDescriptor(bubblewrap: Bool) throws {
        folder.file("secret.txt", text: "private")
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try #require(bind(listener, $0, length) == 0 && listen(listener, 4) == 0)
                try #require(getsockname(listener, $0, &length) == 0)
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        // The same attempts from this process succeed: the probe can tell.
        #expect(Probe.run(path: folder.path("secret.txt"), port: port).components(separatedBy: "failed").count == 1)
        unlink(folder.path("secret.txt.probe"))

        let report = try #require(Self.decoder(bubblewrap: bubblewrap).probe(path: folder.path("secret.txt"), port: port))
        let lines = report.split(separator: "\n")
        #expect(lines.count == 3, "\(report)")
        for line in lines { #expect(line.contains("failed"), "\(line)") }
        #expect(!FileManager.default.fileExists(atPath: folder.path("secret.txt.probe")))
    }
}
