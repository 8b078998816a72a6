import CConfinement
import Dispatch
import Foundation
import Glibc
import PhotoCore
import Synchronization

/// Decoding out of the browser's process: every image and every EXIF block the browser shows
/// is parsed in a decoder process (`gphotobrowse-decoder`, confined: see `DecoderLaunch` and
/// `DecoderConfinement`), so a file crafted against a loader can crash or take over only a
/// process that holds nothing and reaches nothing.
///
/// The browser opens each file itself (without blocking, regular files only) and sends the
/// descriptor with a `DecoderRequest`; pixels come back in a sealed memfd (`SharedPixels`).
/// Processes are started on demand, at most `maxProcesses` (one per core), reused one
/// request at a time, and ended after `idleTime` seconds unused.
///
/// A process that crashes, overruns its memory limit or answers nonsense is killed and
/// replaced; its file fails with `DecodeFailure.Kind.unsafe` ("could not be decoded
/// safely"), which the thumbnail cache records like any lasting failure, and nothing else
/// notices. One that is still busy after `timeout` is killed and replaced too, but its file
/// fails with `.timedOut`, which nothing records: on a loaded machine a photo may simply take
/// that long, and it is tried again later.
///
/// Decoding fails closed: nothing is ever decoded in this process. While no decoder process
/// starts (no decoder program, a fork or memory failure), every request fails at once with
/// `DecodeFailure.Kind.unavailable` ("could not be decoded safely"), starts are tried again
/// with a growing delay (`DecoderStarts`), and `onAvailability` tells the app, which says why
/// and offers Retry (`retry`); traces `decoding-unavailable` and `decoding-available`. The
/// one exception is asked for by name, for development only:
/// `GPHOTOBROWSE_DECODE_IN_BROWSER=1` decodes here, unconfined, and says so in the log, in
/// `status` and in every window. Where bubblewrap cannot run, decoder processes run without
/// it, confined by their own limits, Landlock and seccomp.
public final class IsolatedDecoder: ImageDecoding, ThumbnailFileReading, EmbeddedPreviewReading, Sendable {
    public struct Settings: Sendable {
        public var maxProcesses = ProcessInfo.processInfo.activeProcessorCount
        public var timeout: Double = 30
        public var idleTime: Double = 20
        /// How long a process may take to answer a cancelled request before it is ended
        /// (the request's caller does not wait for it).
        public var cancelGrace: Double = 2
        /// Address space per process: the largest image allowed (100 MP, 400 MB as RGBA) fits
        /// about four times over (loader, orientation, copy, shared memory), with the runtime.
        public var memoryLimit = 3 << 30
        public var cpuLimit = 60
        public var testModes = false
        public var useBubblewrap = true
        /// bubblewrap; nil to look in the system's folders (`DecoderLaunch.findBubblewrap`).
        public var bubblewrap: String?
        /// The decoder program; nil to look next to the executable (`DecoderLaunch.findProgram`).
        public var program: String?
        /// The language decoder processes write their failures in (`DecoderLaunch.language`):
        /// this process's.
        public var language: [String: String] = DecoderLaunch.language()
        /// Development only: decode in this process, unconfined (`GPHOTOBROWSE_DECODE_IN_BROWSER=1`).
        public var decodesInBrowser = false
        /// The delays between tries to start a process while none starts.
        public var startDelays = (first: 1.0, max: 60.0)

        public init() {}

        /// The defaults, with the test and debugging knobs of the environment:
        /// `GPHOTOBROWSE_DECODER_TEST_MODES=1`, `GPHOTOBROWSE_DECODE_TIMEOUT` (seconds),
        /// `GPHOTOBROWSE_DECODER_MEMORY` (MiB), `GPHOTOBROWSE_BUBBLEWRAP=0`, and for development
        /// only `GPHOTOBROWSE_DECODE_IN_BROWSER=1`.
        public static func fromEnvironment() -> Settings {
            var settings = Settings()
            let environment = ProcessInfo.processInfo.environment
            settings.testModes = environment["GPHOTOBROWSE_DECODER_TEST_MODES"] == "1"
            if let seconds = environment["GPHOTOBROWSE_DECODE_TIMEOUT"].flatMap(Double.init), seconds > 0 { settings.timeout = seconds }
            if let mib = environment["GPHOTOBROWSE_DECODER_MEMORY"].flatMap(Int.init), mib > 0 { settings.memoryLimit = mib << 20 }
            if environment["GPHOTOBROWSE_BUBBLEWRAP"] == "0" { settings.useBubblewrap = false }
            if environment["GPHOTOBROWSE_DECODE_IN_BROWSER"] == "1" { settings.decodesInBrowser = true }
            return settings
        }
    }

    /// The most pixels one decode may produce before shrinking, as `PixbufDecoder`'s.
    public let maxDecodedPixels: Int
    let settings: Settings
    private let program: String?

    private struct State {
        var idle: [DecoderProcess] = []
        /// Processes started and not ended: idle or running a request.
        var alive = 0
        /// Processes `prestart` is starting and that have not started yet.
        var prestarting = 0
        /// nil until a process started through bubblewrap; false once it could not.
        var bubblewrapWorks: Bool?
        /// What confines the decoder processes, and what does not, once one has started.
        var confinement: (held: [String], missing: [String])?
        var reported = false
        /// Whether processes start, and when to try again when they do not.
        var starts: DecoderStarts
        /// A start is planned for when the delay is over.
        var retryPlanned = false
        /// Told when decoding becomes available or unavailable.
        var observer: (@Sendable (DecoderStarts.Availability) -> Void)?
        var started = 0
        var replaced = 0
    }
    private let state: Mutex<State>
    private let slots: DispatchSemaphore
    private let bubblewrapProbe = NSLock()

    /// The one the app uses.
    public static let shared = IsolatedDecoder(settings: .fromEnvironment())

    public init(settings: Settings, maxDecodedPixels: Int = 100_000_000) {
        self.settings = settings
        self.maxDecodedPixels = maxDecodedPixels
        program = settings.program ?? DecoderLaunch.findProgram()
        state = Mutex(State(starts: DecoderStarts(firstDelay: settings.startDelays.first, maxDelay: settings.startDelays.max)))
        slots = DispatchSemaphore(value: max(1, settings.maxProcesses))
        let reaper = Thread { [weak self] in
            while let interval = self?.settings.idleTime {
                Thread.sleep(forTimeInterval: interval / 2)
                self?.endIdleProcesses()
            }
        }
        reaper.name = "decoder-reaper"
        reaper.start()
    }

    /// Ends the processes unused for `idleTime` seconds.
    private func endIdleProcesses() {
        let cutoff = Date().addingTimeInterval(-settings.idleTime)
        let stale = state.withLock { state -> [DecoderProcess] in
            let stale = state.idle.filter { $0.lastUsed < cutoff }
            state.idle.removeAll { $0.lastUsed < cutoff }
            state.alive -= stale.count
            return stale
        }
        for process in stale { _ = process.endNow() }
    }

    deinit {
        for process in state.withLock({ $0.idle }) { _ = process.endNow() }
    }

    // MARK: What the app asks

    public func decode(_ request: DecodeRequest, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure> {
        decoding {
            PixbufDecoder(maxDecodedPixels: maxDecodedPixels).decode(request, cancellation: cancellation)
        } isolated: {
            let asked = DecoderRequest(id: 0, operation: .still, fitting: request.fitting, maxPixels: maxDecodedPixels)
            return pixels(asked, uri: request.uri, cancellation: cancellation).flatMap { images, _ in
                guard images.count == 1 else { return .failure(DecodeFailure(.unsafe, Self.unsafeReason)) }
                return .success(images[0].image)
            }
        }
    }

    /// The preview embedded in the photo's EXIF, from its first bytes (for a file on another
    /// machine, only those are read: `RemoteFileCopies`); see `EmbeddedPreview`.
    public func embeddedPreview(_ request: DecodeRequest, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure> {
        decoding {
            PixbufDecoder(maxDecodedPixels: maxDecodedPixels).embeddedPreview(request, cancellation: cancellation)
        } isolated: {
            let asked = DecoderRequest(id: 0, operation: .embeddedPreview, fitting: request.fitting, maxPixels: maxDecodedPixels)
            return EmbeddedPreview.fromFirstBytes(of: request.uri) { reach in
                pixels(asked, uri: request.uri, reach: reach, cancellation: cancellation).flatMap { images, _ in
                    guard images.count == 1 else { return .failure(DecodeFailure(.unsafe, Self.unsafeReason)) }
                    return .success(images[0].image)
                }
            }
        }
    }

    /// The image as the viewer shows it, from one request: the frames of an animated GIF or
    /// WebP (at most `maxFrames`, `maxBytes` together; see `AnimationDecoder`), else the still
    /// image, as `decode` gives it. An animation that cannot be played shows as a still image.
    public func picture(_ request: DecodeRequest, maxFrames: Int = 300, maxBytes: Int = 128 << 20,
                        cancellation: CancellationFlag) -> Result<DecodedPicture, DecodeFailure> {
        decoding {
            let animator = AnimationDecoder(maxFrames: maxFrames, maxBytes: maxBytes, maxDecodedPixels: maxDecodedPixels)
            switch animator.decode(request, cancellation: cancellation) {
            case .success(let animation?): return .success(.animation(animation))
            case .failure(let failure) where failure.kind == .cancelled: return .failure(failure)
            case .success(nil), .failure:
                return PixbufDecoder(maxDecodedPixels: maxDecodedPixels).decode(request, cancellation: cancellation).map { .still($0) }
            }
        } isolated: {
            let asked = DecoderRequest(id: 0, operation: .picture, fitting: request.fitting, maxPixels: maxDecodedPixels,
                                       maxFrames: maxFrames, maxBytes: maxBytes)
            return pixels(asked, uri: request.uri, cancellation: cancellation).flatMap { images, loops in
                switch images.count {
                case 1: return .success(.still(images[0].image))
                case 2...maxFrames:
                    return .success(.animation(DecodedAnimation(frames: images.map { DecodedAnimation.Frame(image: $0.image, duration: $0.duration) },
                                                                loops: loops)))
                default: return .failure(DecodeFailure(.unsafe, Self.unsafeReason))
                }
            }
        }
    }

    /// The most pixels one region request decodes (a viewer's tile is 512×512).
    public static let maxRegionPixels = 4 << 20

    /// A rectangle of a JPEG, PNG or TIFF decoded alone (a viewer's tile): `region` is upright,
    /// in the photo reduced by `2^region.reduction`; the image's source size is the photo's
    /// upright size. Any other format, and files that cannot be read a region at a time (a CMYK
    /// JPEG, an interlaced PNG, a TIFF in one strip), fail: see `RegionDecoders`.
    public func decodeRegion(uri: String, region: ImageRegion, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure> {
        decoding {
            ByteSource.reading(uri: uri) { source in
                guard let descriptor = source.descriptor else { return .failure(DecodeFailure(.unreadable, "Not a local file.")) }
                return RegionDecoders.decode(descriptor: descriptor, region: region, maxPixels: Self.maxRegionPixels,
                                                cancellation: cancellation) { .success(PixbufImage.copy($0, sourceSize: $1, format: $2)) }
            }
        } isolated: {
            let asked = DecoderRequest(id: 0, operation: .region, maxPixels: Self.maxRegionPixels, region: region)
            return pixels(asked, uri: uri, cancellation: cancellation).flatMap { images, _ in
                guard images.count == 1, images[0].image.size == region.size else { return .failure(DecodeFailure(.unsafe, Self.unsafeReason)) }
                return .success(images[0].image)
            }
        }
    }

    /// The date `uri` was taken; see `PhotoMetadata.readDate(uri:)`.
    public func dateTaken(uri: String, cancellation: CancellationFlag) -> DateTakenCache.Value? {
        decoding {
            PhotoMetadata.readDate(uri: uri)
        } isolated: {
            guard case .success((let reply, _)) = run(DecoderRequest(id: 0, operation: .date), uri: uri,
                                                      reach: .prefix(RemoteFileCopies.metadataPrefix), cancellation: cancellation),
                  case .date(let value) = reply.outcome else { return nil }
            return value
        }
    }

    /// The identifiers Live Photos' stills and movies share (`LivePhotoIdentifier`), of
    /// `uris` (local files: nil for others), read `DecoderChannel.maxDescriptors` files to a
    /// request; nil where a file holds none or could not be read. A cancelled flag stops
    /// between requests (those stay nil).
    public func liveIdentifiers(uris: [String], cancellation: CancellationFlag) -> [String?] {
        decoding {
            uris.map { uri in
                guard uri.hasPrefix("file://"), case .success(let file) = Self.open(uri: uri, cancellation: cancellation) else { return nil }
                defer { close(file.fd) }
                return LivePhotoIdentifiers.read(descriptor: file.fd)
            }
        } isolated: {
            var read = [String?](repeating: nil, count: uris.count)
            for start in stride(from: 0, to: uris.count, by: DecoderChannel.maxDescriptors) {
                if cancellation.isCancelled { break }
                var opened: [(index: Int, fd: Int32)] = []
                for index in start..<min(start + DecoderChannel.maxDescriptors, uris.count) where uris[index].hasPrefix("file://") {
                    if case .success(let file) = Self.open(uri: uris[index], cancellation: cancellation) { opened.append((index, file.fd)) }
                }
                defer { for file in opened { close(file.fd) } }
                guard !opened.isEmpty else { continue }
                let request = DecoderRequest(id: 0, operation: .liveIdentifiers)
                let answer = withProcess(cancellation: cancellation) { $0.run(request, descriptors: opened.map(\.fd), timeout: settings.timeout, cancellation: cancellation) }
                guard case .success((let reply, let pixels)) = answer else { continue }
                if let pixels { close(pixels) }
                guard case .liveIdentifiers(let identifiers) = reply.outcome, identifiers.count == opened.count else { continue }
                for (file, identifier) in zip(opened, identifiers) { read[file.index] = identifier }
            }
            return read
        }
    }

    /// The dates of `uris`, read `DecoderChannel.maxDescriptors` files to a request; see
    /// `dateTaken(uri:)`. A batch whose process breaks down is read again a file at a time,
    /// so only the file at fault goes without its date. A photo on another machine is read
    /// from its first 16 KiB, and from its first 128 KiB when its EXIF goes on past them.
    /// A cancelled flag stops the reads of files on other machines and the decoder's requests
    /// (those dates stay unknown).
    public func datesTaken(uris: [String], cancellation: CancellationFlag) -> [DateTakenCache.Value?] {
        datesAndCameras(uris: uris, cancellation: cancellation).map(\.date)
    }

    /// The dates of `uris` and the cameras their EXIF names, from one read of each file; see
    /// `datesTaken(uris:cancellation:)`. A camera is nil where the file names none (or could not be read).
    public func datesAndCameras(uris: [String], cancellation: CancellationFlag) -> [(date: DateTakenCache.Value?, camera: String?)] {
        decoding {
            uris.map { uri in
                let (date, camera) = PhotoMetadata.readDateAndCamera(uri: uri)
                return (date, camera)
            }
        } isolated: {
            var read = [(date: DateTakenCache.Value?, camera: String?)](repeating: (nil, nil), count: uris.count)
            for start in stride(from: 0, to: uris.count, by: DecoderChannel.maxDescriptors) {
                let batch = Array(start..<min(start + DecoderChannel.maxDescriptors, uris.count))
                if cancellation.isCancelled { break }
                let cutShort = readDates(of: uris, batch, reach: .prefix(RemoteFileCopies.metadataPrefix), cancellation: cancellation, into: &read)
                let longer = cutShort.filter { RemoteFileCopies.isRemote(uris[$0]) && !RemoteFileCopies.shared.hasWhole(uris[$0]) }
                if !longer.isEmpty {
                    _ = readDates(of: uris, longer, reach: .prefix(RemoteFileCopies.largestMetadataPrefix), cancellation: cancellation, into: &read)
                }
            }
            return read
        }
    }

    /// Reads the dates and cameras of `uris[indices]` (at most a request's worth) into `read`;
    /// returns the indices of the files that ended before their EXIF did.
    private func readDates(of uris: [String], _ indices: [Int], reach: RemoteFileCopies.Reach, cancellation: CancellationFlag,
                           into read: inout [(date: DateTakenCache.Value?, camera: String?)]) -> [Int] {
        let opened = Self.openForDates(uris, indices, reach: reach, cancellation: cancellation)
        defer { for file in opened { close(file.fd) } }
        guard !opened.isEmpty else { return [] }
        let request = DecoderRequest(id: 0, operation: .dates)
        let answer = run(request, descriptors: opened.map(\.fd), cancellation: cancellation)
        if case .success((let reply, let pixels)) = answer {
            if let pixels { close(pixels) }
            if case .dates(let values, let cutShort, let cameras) = reply.outcome, values.count == opened.count {
                for (n, (file, value)) in zip(opened, values).enumerated() {
                    let camera = n < cameras.count && !cameras[n].isEmpty ? cameras[n] : nil
                    read[file.index] = (value, camera)
                }
                return cutShort.map { opened[$0].index }
            }
        }
        for file in opened where !cancellation.isCancelled { read[file.index] = (dateTaken(uri: uris[file.index], cancellation: cancellation), nil) }
        return []
    }

    /// Opens the files whose dates to read: local ones in turn, files on other machines six
    /// at a time (each waits on its server: opening, then its first bytes, which hold its
    /// EXIF), in the order given.
    private static func openForDates(_ uris: [String], _ indices: [Int], reach: RemoteFileCopies.Reach,
                                     cancellation: CancellationFlag) -> [(index: Int, fd: Int32)] {
        guard indices.contains(where: { RemoteFileCopies.isRemote(uris[$0]) }) else {
            return indices.compactMap { i in (try? open(uri: uris[i], reach: reach, cancellation: cancellation).get()).map { (i, $0.fd) } }
        }
        let found = Mutex([Int: Int32]())
        let group = DispatchGroup()
        let slots = DispatchSemaphore(value: Int(WebClient.Configuration().connectionsPerHost))
        for i in indices {
            slots.wait()
            // Part of the caller's job: waited for below, and cancelled with its flag.
            DispatchQueue.global(qos: .utility).async(group: group) {
                defer { slots.signal() }
                if case .success(let file) = open(uri: uris[i], reach: reach, cancellation: cancellation) { found.withLock { $0[i] = file.fd } }
            }
        }
        group.wait()
        let descriptors = found.withLock { $0 }
        return indices.compactMap { i in descriptors[i].map { (i, $0) } }
    }

    /// What `uri`'s content says for the Properties panel; see `PhotoProperties.read(uri:)`.
    public func properties(uri: String, cancellation: CancellationFlag) -> PhotoDetails {
        decoding {
            PhotoProperties.read(uri: uri)
        } isolated: {
            PhotoProperties.read(uri: uri) { uri in
                guard case .success((let reply, _)) = run(DecoderRequest(id: 0, operation: .properties), uri: uri, cancellation: cancellation),
                      case .properties(let details) = reply.outcome else { return nil }
                return details
            }
        }
    }

    /// Where the movie of the motion photo at `uri` lies, read in a decoder process: for a
    /// thumbnail another program made (local files only).
    public func motionMovie(uri: String, cancellation: CancellationFlag) -> EmbeddedMovie? {
        guard uri.hasPrefix("file://") else { return nil }
        return decoding {
            PixbufDecoder(maxDecodedPixels: maxDecodedPixels).motionMovie(uri: uri, cancellation: cancellation)
        } isolated: {
            guard case .success((let reply, let pixels)) = run(DecoderRequest(id: 0, operation: .motionMovie), uri: uri, cancellation: cancellation)
            else { return nil }
            if let pixels { close(pixels) }
            guard case .motionMovie(let movie) = reply.outcome else { return nil }
            return movie
        }
    }

    /// A thumbnail file of the cache, which other programs write too (see `ThumbnailFile`):
    /// read in a decoder process like a photo. A process that breaks down on it is replaced,
    /// and the file is no thumbnail (it is made again from the photo).
    public func readThumbnailFile(descriptor: Int32, fitting box: PixelSize, cancellation: CancellationFlag) -> ThumbnailFile? {
        decoding {
            PixbufDecoder(maxDecodedPixels: maxDecodedPixels).readThumbnailFile(descriptor: descriptor, fitting: box, cancellation: cancellation)
        } isolated: {
            let request = DecoderRequest(id: 0, operation: .thumbnailFile, fitting: box)
            switch run(request, descriptors: [descriptor], cancellation: cancellation) {
            case .failure(let breakdown):
                if case .couldNotStart = breakdown { return nil }
                if case .cancelled = breakdown { return nil }
                log("a cached thumbnail: \(breakdown.description); decoding goes on in a new process")
                return nil
            case .success((let reply, let pixels)):
                guard case .thumbnailFile(let layout, let text) = reply.outcome, let pixels else {
                    if let pixels { close(pixels) }
                    return nil
                }
                switch SharedPixels.open(fd: pixels, layout: layout) {
                case .success(let images):
                    return ThumbnailFile(image: images[0], text: text)
                case .failure(let problem):
                    log("a cached thumbnail: the decoder's pixels were refused (\(problem.reason))")
                    return nil
                }
            }
        }
    }

    /// `isolated`, in a decoder process; `here`, in this process, only where the development
    /// switch asks for it by name (`Settings.decodesInBrowser`).
    func decoding<T>(here: () -> T, isolated: () -> T) -> T {
        guard settings.decodesInBrowser else { return isolated() }
        reportInBrowser()
        return here()
    }

    // MARK: Availability

    /// Whether the development switch decodes in this process (`GPHOTOBROWSE_DECODE_IN_BROWSER=1`).
    public var decodesInBrowser: Bool { settings.decodesInBrowser }

    /// Whether decoding can be done now; with the development switch, always.
    public var availability: DecoderStarts.Availability {
        settings.decodesInBrowser ? .available : state.withLock { $0.starts.availability }
    }

    /// Calls `observer` (on any thread) each time decoding becomes unavailable (no process
    /// starts; the reason) or available again. One observer for the process.
    public func observeAvailability(_ observer: @escaping @Sendable (DecoderStarts.Availability) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// Retry: tries to start a process now, on a background thread, instead of after the delay.
    public func retry() {
        let now = ProcessInfo.processInfo.systemUptime
        state.withLock { $0.starts.retryNow(at: now) }
        // Not a window's job: the decoder processes are the process's, shared by every window.
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            guard slots.wait(timeout: .now() + 5) == .success else { return }
            defer { slots.signal() }
            if case .success(let process) = startProcess() { state.withLock { $0.idle.append(process) } }
        }
    }

    /// A start failed: decoding is unavailable until one works; one is tried again once the
    /// delay is over, whoever asks meanwhile.
    private func startFailed(_ reason: String) {
        let now = ProcessInfo.processInfo.systemUptime
        let (changed, observer, delay, plan) = state.withLock { state in
            let changed = state.starts.failed(reason, at: now)
            let plan = !state.retryPlanned
            state.retryPlanned = true
            return (changed, state.observer, state.starts.nextTry - now, plan)
        }
        if plan {
            // Not a window's job: retrying a start is the process-wide decoder's.
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + max(delay, 0.05)) { [weak self] in
                guard let self else { return }
                self.state.withLock { $0.retryPlanned = false }
                guard case .unavailable = self.availability else { return }
                guard self.slots.wait(timeout: .now()) == .success else { return }
                defer { self.slots.signal() }
                if case .success(let process) = self.startProcess() { self.state.withLock { $0.idle.append(process) } }
            }
        }
        guard changed else { return }
        log("Decoding is unavailable, and nothing is decoded in the browser instead: \(reason). Trying again.")
        Trace.milestone("decoding-unavailable")
        observer?(.unavailable(reason: reason))
    }

    private func startWorked() {
        let (changed, observer) = state.withLock { ($0.starts.started(), $0.observer) }
        guard changed else { return }
        InfoLog.write("Decoding is available again.")
        Trace.milestone("decoding-available")
        observer?(.available)
    }

    /// Starts the pool's processes ahead of the first request (a folder is being opened), on
    /// background threads; returns at once. `wait` makes it return when they are ready.
    public func prestart(wait: Bool = false) {
        guard !settings.decodesInBrowser else { return }
        let group = DispatchGroup()
        // Starts still under way count: the app prestarts at launch and again when it opens
        // a folder, and one pool never holds more than `maxProcesses`.
        let missing = state.withLock { state -> Int in
            let missing = max(0, settings.maxProcesses - state.alive - state.prestarting)
            state.prestarting += missing
            return missing
        }
        for _ in 0..<missing {
            // Not windows' jobs: the decoder processes are the process's, shared by every window.
            DispatchQueue.global(qos: .userInitiated).async(group: group) { [self] in
                defer { state.withLock { $0.prestarting -= 1 } }
                guard slots.wait(timeout: .now()) == .success else { return }  // all busy: started already
                defer { slots.signal() }
                if case .success(let process) = startProcess() {
                    state.withLock { $0.idle.append(process) }
                }
            }
        }
        if wait { group.wait() }
    }

    /// Test mode: what a decoder process can reach (see `DecoderService`'s probe).
    public func probe(path: String?, port: Int?, cancellation: CancellationFlag) -> String? {
        let request = DecoderRequest(id: 0, operation: .probe, probePath: path, probePort: port)
        guard case .success((let reply, _)) = run(request, descriptors: [], cancellation: cancellation),
              case .probe(let report) = reply.outcome else { return nil }
        return report
    }

    /// How decoding is confined, in a sentence for the log.
    public var status: String {
        report(listStart: " ", itemSeparator: "; ", sectionSeparator: " ")
    }

    /// How decoding is confined, a line for each confinement: for the About window.
    public var statusReport: String {
        report(listStart: "\n", itemSeparator: "\n", sectionSeparator: "\n\n")
    }

    private func report(listStart: String, itemSeparator: String, sectionSeparator: String) -> String {
        if settings.decodesInBrowser { return Self.inBrowserStatus }
        let (availability, confinement) = state.withLock { ($0.starts.availability, $0.confinement) }
        if case .unavailable(let reason) = availability {
            return "Decoding is unavailable, and nothing is decoded in the browser instead: \(reason)."
        }
        guard let (held, missing) = confinement else { return "Decoding runs in separate processes (none started yet)." }
        var text = "Decoding runs in separate processes"
        text += held.isEmpty ? ", and is not confined." : ", confined by:\(listStart)\(held.joined(separator: itemSeparator))."
        if !missing.isEmpty {
            text += sectionSeparator + "Not confined by:\(listStart)\(missing.joined(separator: itemSeparator))."
        }
        return text
    }

    /// Processes started and replaced after a breakdown so far (for tests and tracing).
    public var counts: (started: Int, replaced: Int, idle: Int) {
        state.withLock { ($0.started, $0.replaced, $0.idle.count) }
    }

    public static var unsafeReason: String { tr("Could not be decoded safely.") }
    public static var timedOutReason: String { tr("Decoding took too long; it will be tried again.") }
    static let inBrowserStatus = "Decoding is not confined: it runs inside the browser, because GPHOTOBROWSE_DECODE_IN_BROWSER=1 asks for it (for development only)."

    // MARK: Requests

    /// The frames a still or picture request brings back.
    private func pixels(_ request: DecoderRequest, uri: String, reach: RemoteFileCopies.Reach = .whole, cancellation: CancellationFlag)
        -> Result<([(image: DecodedImage, duration: Int)], loops: Bool), DecodeFailure> {
        switch run(request, uri: uri, reach: reach, cancellation: cancellation) {
        case .failure(let failure):
            return .failure(failure)
        case .success((let reply, let pixels)):
            guard case .pixels(let layout) = reply.outcome, let pixels else {
                if let pixels { close(pixels) }
                switch reply.outcome {
                case .failure(let failure): return .failure(failure)
                default: return .failure(DecodeFailure(.unsafe, Self.unsafeReason))
                }
            }
            switch SharedPixels.open(fd: pixels, layout: layout) {
            case .success(let images):
                return .success((zip(images, layout.frames).map { ($0, $1.duration) }, layout.loops))
            case .failure(let problem):
                log("\(uri): the decoder's pixels were refused (\(problem.reason))")
                return .failure(DecodeFailure(.unsafe, Self.unsafeReason))
            }
        }
    }

    /// Opens `uri` and runs `request` on it in a decoder process.
    func run(_ request: DecoderRequest, uri: String, reach: RemoteFileCopies.Reach = .whole, cancellation: CancellationFlag)
        -> Result<(DecoderReply, pixels: Int32?), DecodeFailure> {
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        let file: (fd: Int32, name: String?)
        switch Self.open(uri: uri, reach: reach, cancellation: cancellation) {
        case .success(let opened): file = opened
        case .failure(let failure): return .failure(failure)
        }
        defer { close(file.fd) }
        var request = request
        request.name = file.name
        switch run(request, descriptors: [file.fd], cancellation: cancellation) {
        case .success(let answer):
            return .success(answer)
        case .failure(let breakdown):
            if case .couldNotStart = breakdown { return .failure(DecodeFailure(.unavailable, Self.unsafeReason)) }
            if case .cancelled = breakdown { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
            log("\(uri): \(breakdown.description); decoding goes on in a new process")
            if case .hung = breakdown { return .failure(DecodeFailure(.timedOut, Self.timedOutReason)) }
            return .failure(DecodeFailure(.unsafe, Self.unsafeReason))
        }
    }

    /// Runs `request` on `descriptors` in a process of the pool, as `DecoderProcess.run`.
    /// A cancelled flag ends the wait for a free process, and the wait for the answer, at
    /// once (`.cancelled`).
    func run(_ request: DecoderRequest, descriptors: [Int32], cancellation: CancellationFlag)
        -> Result<(DecoderReply, pixels: Int32?), DecoderBreakdown> {
        withProcess(cancellation: cancellation) { $0.run(request, descriptors: descriptors, timeout: settings.timeout, cancellation: cancellation) }
    }

    /// Runs `body` with a process of the pool: an idle one, or a new one. A process whose
    /// request broke down is ended (by `DecoderProcess.run`) and not returned to the pool;
    /// one whose request was cancelled keeps its place in the pool until it answers the
    /// cancel, and is ended when it does not within `cancelGrace` (a stopped or hung process
    /// holds no place for long). A cancelled flag ends the wait for a place.
    func withProcess<T>(cancellation: CancellationFlag, _ body: (DecoderProcess) -> Result<T, DecoderBreakdown>) -> Result<T, DecoderBreakdown> {
        while slots.wait(timeout: .now() + 0.05) == .timedOut {
            if cancellation.isCancelled { return .failure(.cancelled(request: nil)) }
        }
        var slotHeld = true
        defer { if slotHeld { slots.signal() } }
        let process: DecoderProcess
        if let idle = state.withLock({ $0.idle.popLast() }) {
            process = idle
        } else {
            switch startProcess() {
            case .success(let started): process = started
            case .failure(let breakdown): return .failure(breakdown)
            }
        }
        let result = body(process)
        switch result {
        case .success:
            state.withLock { $0.idle.append(process) }
        case .failure(.cancelled(let request?)):
            slotHeld = false
            settle(process, cancelled: request)
        case .failure:
            state.withLock {
                $0.replaced += 1
                $0.alive -= 1
            }
        }
        return result
    }

    /// Waits (on another thread, holding the process's place in the pool) for `process` to
    /// answer the cancel of `request`: back to the pool when it does, ended and replaced when
    /// it does not within `cancelGrace`.
    private func settle(_ process: DecoderProcess, cancelled request: UInt64) {
        // Not a window's job: the processes are the process-wide decoder's, and the wait is
        // bounded by `cancelGrace`.
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { slots.signal() }
            if process.settle(after: request, grace: settings.cancelGrace) {
                state.withLock { $0.idle.append(process) }
                return
            }
            log("the decoder did not answer a cancel within \(settings.cancelGrace) s and was stopped; decoding goes on in a new process")
            state.withLock {
                $0.replaced += 1
                $0.alive -= 1
            }
        }
    }

    /// A new process: through bubblewrap unless it has failed here before, else without.
    private func startProcess() -> Result<DecoderProcess, DecoderBreakdown> {
        let now = ProcessInfo.processInfo.systemUptime
        let (mayTry, availability) = state.withLock { ($0.starts.beginStart(at: now), $0.starts.availability) }
        if !mayTry, case .unavailable(let reason) = availability { return .failure(.couldNotStart(reason)) }
        guard let program else {
            let reason = "the decoder program (gphotobrowse-decoder) is not installed next to the browser"
            startFailed(reason)
            return .failure(.couldNotStart(reason))
        }
        let bubblewrap = settings.useBubblewrap ? settings.bubblewrap ?? DecoderLaunch.findBubblewrap() : nil
        // Until one start says whether bubblewrap runs here, starts wait for it in turn, so
        // that a machine where it cannot run tries (and logs its complaint) once.
        let probing = bubblewrap != nil && state.withLock { $0.bubblewrapWorks == nil }
        if probing { bubblewrapProbe.lock() }
        defer { if probing { bubblewrapProbe.unlock() } }
        let tryBubblewrap = bubblewrap != nil && state.withLock { $0.bubblewrapWorks != false }
        var launch = DecoderLaunch(program: program, bubblewrap: tryBubblewrap ? bubblewrap : nil,
                                   memoryLimit: settings.memoryLimit, cpuLimit: settings.cpuLimit, testModes: settings.testModes,
                                   language: settings.language)
        var bubblewrapProblem: String?
        // The first try is a probe whose complaint is read, not printed: where bubblewrap
        // cannot make a sandbox (a chroot, no user namespaces) the browser stays quiet.
        if probing && tryBubblewrap, let reason = DecoderProcess.probe(launch) {
            bubblewrapProblem = "bubblewrap could not run here (\(reason))"
            launch.bubblewrap = nil
            state.withLock { $0.bubblewrapWorks = false }
        }
        var result = DecoderProcess.start(launch)
        if tryBubblewrap {
            if bubblewrapProblem == nil, case .failure(let breakdown) = result {
                bubblewrapProblem = "bubblewrap could not run here (\(breakdown.description))"
                launch.bubblewrap = nil
                result = DecoderProcess.start(launch)
            }
            state.withLock { $0.bubblewrapWorks = bubblewrapProblem == nil }
        } else if settings.useBubblewrap {
            bubblewrapProblem = bubblewrap == nil ? "bubblewrap is not installed" : "bubblewrap could not run here"
        } else {
            bubblewrapProblem = "bubblewrap is turned off (GPHOTOBROWSE_BUBBLEWRAP=0)"
        }
        guard case .success(let process) = result else {
            // Never decoded here instead: the photos wait, the window says why.
            if case .failure(let breakdown) = result { startFailed(breakdown.description) }
            return result
        }
        startWorked()
        let first = state.withLock { state -> Bool in
            state.started += 1
            state.alive += 1
            guard !state.reported else { return false }
            state.reported = true
            var held = process.ready.confinements
            if process.bubblewrapped { held.insert("bubblewrap (no network, no home, no environment)", at: 0) }
            var missing = process.ready.missing
            if let bubblewrapProblem { missing.insert(bubblewrapProblem, at: 0) }
            state.confinement = (held, missing)
            return true
        }
        if first { InfoLog.write(status) }
        if Trace.tilesEnabled { Trace.milestone("decoder-started", counts.started) }
        return .success(process)
    }

    /// Says once that decoding runs in this process, unconfined (the development switch).
    private func reportInBrowser() {
        let first = state.withLock { state -> Bool in
            defer { state.reported = true }
            return !state.reported
        }
        if first { log(Self.inBrowserStatus) }
    }

    func log(_ text: String) {
        FileHandle.standardError.write(Data("gphotobrowse: \(text)\n".utf8))
    }

    // MARK: Opening files

    /// The file at `uri` opened for a decoder: a local regular file as it is (opened without
    /// blocking), a web photo's downloaded copy, a file on another machine's copy (the whole
    /// file, or `reach` of it: `RemoteFileCopies`, at most 512 MiB).
    static func open(uri: String, reach: RemoteFileCopies.Reach = .whole,
                     cancellation: CancellationFlag) -> Result<(fd: Int32, name: String?), DecodeFailure> {
        if WebPhotoFiles.isWebAddress(uri) { return openWebPhoto(uri, cancellation: cancellation) }
        if RemoteFileCopies.isRemote(uri) { return RemoteFileCopies.shared.open(uri, reach: reach, cancellation: cancellation) }
        let source: ByteSource
        switch ByteSource.open(uri: uri) {
        case .success(let opened): source = opened
        case .failure(let failure): return .failure(failure)
        }
        if let descriptor = source.descriptor { return .success((descriptor, source.name)) }
        defer { source.close() }
        return source.copyToMemory(limit: 512 << 20).map { ($0, source.name) }
    }
}

extension IsolatedDecoder {
    /// A web photo's file in the download cache, downloaded first when it is not there (the
    /// app fetches before it decodes, with progress; this is for every other reader).
    static func openWebPhoto(_ url: String, cancellation: CancellationFlag) -> Result<(fd: Int32, name: String?), DecodeFailure> {
        let files = WebPhotoFiles.shared
        let path: String
        if let entry = files.cachedFile(url) {
            path = entry.path
        } else {
            switch files.fetch(url, policy: .preferCached, cancellation: cancellation) {
            case .success(let file): path = file.path
            case .failure(let failure): return .failure(DecodeFailure(failure.kind == .cancelled ? .cancelled : .unreadable, failure.message))
            }
        }
        let name = URL(string: url)?.lastPathComponent
        return ByteSource.open(uri: URL(fileURLWithPath: path).absoluteString).flatMap { source in
            guard let descriptor = source.descriptor else {
                source.close()
                return .failure(DecodeFailure(.unreadable, tr("The file could not be opened: %s", path)))
            }
            return .success((descriptor, name))
        }
    }
}

extension ByteSource {
    /// The rest of a remote file in a memfd (positioned at its start), so a decoder process
    /// can read it from a descriptor as it reads a local file.
    func copyToMemory(limit: Int) -> Result<Int32, DecodeFailure> {
        let fd = cconf_memfd_create("gphotobrowse-remote", cconf_MFD_CLOEXEC)
        guard fd >= 0 else { return .failure(DecodeFailure(.unreadable, tr("The file could not be copied for decoding."))) }
        var buffer = [UInt8](repeating: 0, count: LoaderInput.chunkSize)
        var total = 0
        while true {
            switch buffer.withUnsafeMutableBytes({ read(into: $0) }) {
            case .failure(let failure):
                Glibc.close(fd)
                return .failure(failure)
            case .success(0):
                lseek(fd, 0, SEEK_SET)
                return .success(fd)
            case .success(let n):
                total += n
                let written = buffer.withUnsafeBytes { write(fd, $0.baseAddress, n) }
                guard total <= limit, written == n else {
                    Glibc.close(fd)
                    return .failure(DecodeFailure(.tooLarge, tr("The file is too large to open safely from this location.")))
                }
            }
        }
    }
}
