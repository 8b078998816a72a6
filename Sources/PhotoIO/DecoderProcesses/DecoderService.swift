import CConfinement
import CGdkPixbuf
import CXml
import Foundation
import Glibc
import PhotoCore
import Synchronization

/// The decoder process's side: confines itself (`DecoderConfinement`), says so, then decodes
/// one request at a time from the descriptor sent with it and answers with pixels in a sealed
/// memfd (`SharedPixels`) or a reason. It never opens a path: every byte it parses comes from
/// a descriptor the browser opened.
///
/// A second thread reads the socket while a request runs, so a cancel message stops the
/// decode at its next check. When the browser closes the socket (it ended, or no longer needs
/// this process), the process exits.
///
/// Arguments: `--fd N` (the socket, default 3), `--memory-limit BYTES`,
/// `--cpu-limit SECONDS`, `--test-modes` (marker files crash, hang or allocate without bound;
/// probe requests are answered: for the recovery and confinement tests only), `--probe`
/// (exit at once: the browser's check that the sandbox it is started in can be made).
public enum DecoderService {
    public static func main(arguments: [String]) -> Never {
        var socket: Int32 = 3
        var memoryLimit = 3 << 30
        var cpuLimit = 60
        var testModes = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--fd": socket = rest.popFirst().flatMap { Int32($0) } ?? socket
            case "--memory-limit": memoryLimit = rest.popFirst().flatMap { Int($0) } ?? memoryLimit
            case "--cpu-limit": cpuLimit = rest.popFirst().flatMap { Int($0) } ?? cpuLimit
            case "--test-modes": testModes = true
            case "--probe": exit(0)
            default:
                FileHandle.standardError.write(Data("gphotobrowse-decoder: unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
        // Nothing inherited stays open but the standard streams and the socket.
        if socket != 3 {
            guard dup2(socket, 3) == 3 else { exit(2) }
            close(socket)
        }
        _ = cconf_close_range(4, UInt32.max)
        let channel = DecoderChannel(fd: 3)

        // What a hostile SVG makes libxml2 say (an entity loop, a nesting too deep) is the
        // file's failure, answered as one; libxml2 would also print it on stderr, which
        // carries the app's own errors only.
        cxml_silence_generic_errors()
        // The formats list reads the loaders' cache once, before anything is confined, and
        // the commonest loaders are loaded now, while the browser waits for a ready process,
        // rather than in the first request.
        _ = PixbufImage.formats
        for type in ["image/jpeg", "image/png"] {
            if let loader = gdk_pixbuf_loader_new_with_mime_type(type, nil) {
                gdk_pixbuf_loader_close(loader, nil)
                g_object_unref(loader)
            }
        }
        // The browser's language: its catalogs are read now, before they are out of reach.
        Localization.start(catalogs: ProcessInfo.processInfo.environment[Localization.catalogVariable])
        _ = tr("The image could not be decoded.")
        let (held, missing) = DecoderConfinement.apply(addressSpaceLimit: memoryLimit)
        guard channel.send(DecoderReady(pid: Int(getpid()), confinements: held, missing: missing).message) else { exit(0) }

        let service = Service(channel: channel, cpuLimit: cpuLimit, testModes: testModes)
        service.run()
    }
}

/// The running service: requests wait in `incoming` for the main thread; the reader thread
/// hands them over and, on a cancel, sets the flag of the request it names, whether that one
/// is running or still waiting (a cancel can overtake the start of its request).
private final class Service: @unchecked Sendable {
    let channel: DecoderChannel
    let cpuLimit: Int
    let testModes: Bool
    private struct Queued {
        let request: DecoderRequest
        let descriptors: [Int32]
        let flag = CancellationFlag()
    }
    private let incoming = Mutex<[Queued]>([])
    private let running = Mutex<(id: UInt64, flag: CancellationFlag)?>(nil)
    private let available = DispatchSemaphore(value: 0)

    init(channel: DecoderChannel, cpuLimit: Int, testModes: Bool) {
        self.channel = channel
        self.cpuLimit = cpuLimit
        self.testModes = testModes
    }

    func run() -> Never {
        let reader = Thread { [self] in readLoop() }
        reader.stackSize = 1 << 20
        reader.start()
        while true {
            available.wait()
            guard let next = incoming.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            let (request, descriptors, flag) = (next.request, next.descriptors, next.flag)
            running.withLock { $0 = (request.id, flag) }
            DecoderConfinement.limitCPU(seconds: cpuLimit)
            let (reply, pixels) = answer(request, descriptors: descriptors, cancellation: flag)
            running.withLock { $0 = nil }
            for descriptor in descriptors { close(descriptor) }
            let sent = channel.send(reply.message, descriptor: pixels)
            if let pixels { close(pixels) }
            if !sent { exit(0) }
        }
    }

    private func readLoop() {
        while true {
            switch channel.receive(timeout: -1, maxDescriptors: DecoderChannel.maxDescriptors) {
            case .message(let message, let descriptors):
                if message.kind == .cancel, let cancel = try? DecoderCancel(message) {
                    running.withLock { if $0?.id == cancel.id { $0?.flag.cancel() } }
                    incoming.withLock { queue in
                        if let queued = queue.first(where: { $0.request.id == cancel.id }) { queued.flag.cancel() }
                    }
                    for descriptor in descriptors { close(descriptor) }
                } else if let request = try? DecoderRequest(message) {
                    incoming.withLock { $0.append(Queued(request: request, descriptors: descriptors)) }
                    available.signal()
                } else {
                    exit(3)  // the browser speaks another protocol: nothing sensible to do
                }
            case .timeout:
                continue
            case .closed, .malformed:
                exit(0)
            }
        }
    }

    /// The reply to one request, and the pixels' descriptor when there are pixels.
    private func answer(_ request: DecoderRequest, descriptors: [Int32], cancellation: CancellationFlag) -> (DecoderReply, Int32?) {
        func reply(_ outcome: DecoderReply.Outcome) -> (DecoderReply, Int32?) { (DecoderReply(id: request.id, outcome: outcome), nil) }
        /// A large PNG or TIFF reduced as its rows are read (`RegionDecoders.reducedWhole`),
        /// then shrunk to fit; nil when gdk-pixbuf decodes it instead (a smaller photo, another
        /// format, or one that cannot be read a row at a time), the file read from its start.
        func reducedWhole(_ descriptor: Int32) -> Result<(fd: Int32, layout: PixelLayout), DecodeFailure>? {
            let reduced = RegionDecoders.reducedWhole(descriptor: descriptor, fitting: request.fitting, maxPixels: request.maxPixels,
                                                      cancellation: cancellation) { pixbuf, size, format in
                let shrunk = PixbufImage.shrunk(pixbuf, toFit: request.fitting)
                defer { if let shrunk { g_object_unref(UnsafeMutableRawPointer(shrunk)) } }
                return SharedPixels.seal(pixbuf: shrunk ?? pixbuf, sourceSize: size, format: format)
            }
            switch reduced {
            case .success?: return reduced
            case .failure(let failure)? where failure.kind == .cancelled || failure.kind == .tooLarge: return reduced
            case .failure?, nil:
                _ = lseek(descriptor, 0, SEEK_SET)
                return nil
            }
        }
        /// A still image: the pixels go from the loader's pixbuf straight into the shared memory.
        func still(_ source: ByteSource) -> (DecoderReply, Int32?) {
            // RAW, HEIF and JPEG XL go to our own decoders; everything else to gdk-pixbuf's.
            let format = source.descriptor.map { StillFormat.of(descriptor: $0, name: source.name) } ?? .pixbuf
            let decoded: Result<(fd: Int32, layout: PixelLayout), DecodeFailure>
            if format == .video, let descriptor = source.descriptor {
                // A video's frame; its length goes back with the pixels.
                decoded = OwnDecoders.decodeVideo(descriptor: descriptor, fitting: request.fitting, maxPixels: request.maxPixels,
                                                  cancellation: cancellation) { SharedPixels.seal(pixbuf: $0, sourceSize: $1, format: $2) }
                    .map { sealed, details in
                        var layout = sealed.layout
                        layout.videoDuration = details.duration
                        layout.videoTurns = details.turns
                        return (sealed.fd, layout)
                    }
            } else if format != .pixbuf, let descriptor = source.descriptor {
                decoded = OwnDecoders.decode(format, descriptor: descriptor, fitting: request.fitting, maxPixels: request.maxPixels,
                                             cancellation: cancellation) { SharedPixels.seal(pixbuf: $0, sourceSize: $1, format: $2) }
            } else if let descriptor = source.descriptor, let reduced = reducedWhole(descriptor) {
                decoded = reduced
            } else {
                decoded = PixbufDecoder(maxDecodedPixels: request.maxPixels).decode(source, fitting: request.fitting, cancellation: cancellation) {
                    SharedPixels.seal(pixbuf: $0, sourceSize: $1, format: $2, endMissing: $3)
                }
            }
            switch decoded {
            case .success(let (fd, layout)):
                var layout = layout
                // A phone's JPEG or HEIC may be a motion photo: where its movie lies goes back too.
                if format == .heif || (format == .pixbuf && layout.format == "jpeg"), let descriptor = source.descriptor {
                    layout.motionMovie = MotionPhotoReader.find(descriptor: descriptor)
                }
                return (DecoderReply(id: request.id, outcome: .pixels(layout)), fd)
            case .failure(let failure): return reply(.failure(failure))
            }
        }
        if request.operation == .probe {
            return testModes ? reply(.probe(Probe.run(path: request.probePath, port: request.probePort))) :
                reply(.failure(DecodeFailure(.unreadable, "Probes are answered in test mode only.")))
        }
        if request.operation == .dates {
            let read = descriptors.map { descriptor -> (value: DateTakenCache.Value?, camera: String?, cutShort: Bool) in
                // A video's date is its container's creation time; a photo's its EXIF, with the
                // camera it names.
                guard StillFormat.sniff(StillFormat.head(of: descriptor), name: nil) == .video else {
                    return PhotoMetadata.readDateAndCamera(descriptor: descriptor)
                }
                return (VideoDecoder.facts(descriptor: descriptor, cancellation: cancellation).map { DateTakenCache.Value($0.created) }, nil, false)
            }
            return reply(.dates(read.map(\.value), cutShort: read.indices.filter { read[$0].cutShort },
                                cameras: read.map { $0.camera ?? "" }))
        }
        if request.operation == .liveIdentifiers {
            return reply(.liveIdentifiers(descriptors.map { cancellation.isCancelled ? nil : LivePhotoIdentifiers.read(descriptor: $0) }))
        }
        guard descriptors.count == 1, let descriptor = descriptors.first else {
            return reply(.failure(DecodeFailure(.unreadable, "One file is decoded at a time.")))
        }
        if testModes { TestFault.trigger(descriptor, cancellation: cancellation) }
        let source = ByteSource(descriptor: descriptor, name: request.name)
        switch request.operation {
        case .still:
            return still(source)
        case .picture:
            // GIF and WebP may animate: the frames go from the loader into the shared memory
            // once. Any other file, or one that does not animate, is decoded as a still image.
            let frames: SharedPixels.FrameWriter
            switch SharedPixels.FrameWriter.make(capacity: request.maxBytes + request.maxFrames * 64) {
            case .success(let made): frames = made
            case .failure(let failure): return reply(.failure(failure))
            }
            let decoder = AnimationDecoder(maxFrames: request.maxFrames, maxBytes: request.maxBytes, maxDecodedPixels: request.maxPixels)
            switch decoder.decode(source, fitting: request.fitting, cancellation: cancellation, into: frames) {
            case .success(let played?):
                switch frames.seal(sourceSize: played.canvas, format: played.format, loops: played.loops) {
                case .success(let (fd, layout)): return (DecoderReply(id: request.id, outcome: .pixels(layout)), fd)
                case .failure(let failure): return reply(.failure(failure))
                }
            case .failure(let failure) where failure.kind == .cancelled:
                return reply(.failure(failure))
            case .success(nil), .failure:
                // A still image; or an animation that cannot be played, whose first frame
                // may still show (the still decoder says what is wrong if it cannot).
                guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                    return reply(.failure(DecodeFailure(.unreadable, tr("The file could not be read again."))))
                }
                return still(ByteSource(descriptor: descriptor, name: request.name))
            }
        case .thumbnailFile:
            // Another program may have written it: read here, and the pixels go from the
            // loader's pixbuf straight into the shared memory.
            let read = ThumbnailFile.decode(descriptor: descriptor, fitting: request.fitting) { pixbuf, size, text in
                SharedPixels.seal(pixbuf: pixbuf, sourceSize: size, format: "png").map { (fd: $0.fd, layout: $0.layout, text: text) }
            }
            switch read {
            case .success(let read)?: return (DecoderReply(id: request.id, outcome: .thumbnailFile(read.layout, text: read.text)), read.fd)
            case .failure(let failure)?: return reply(.failure(failure))
            case nil: return reply(.failure(DecodeFailure(.corrupt, "Not a whole thumbnail PNG.")))
            }
        case .date:
            if StillFormat.sniff(StillFormat.head(of: descriptor), name: request.name) == .video {
                return reply(.date(VideoDecoder.facts(descriptor: descriptor, cancellation: cancellation).map { DateTakenCache.Value($0.created) }))
            }
            return reply(.date(PhotoMetadata.readDate(descriptor: descriptor)))
        case .properties:
            return reply(.properties(PhotoProperties.readContent(descriptor: descriptor)))
        case .motionMovie:
            return reply(.motionMovie(MotionPhotoReader.find(descriptor: descriptor)))
        case .savedExif:
            // The original's EXIF is the photo's bytes: parsed and rewritten here.
            var start: [UInt8] = []
            _ = PhotoMetadata.readStart(descriptor: descriptor) { start += $0; return true }
            guard let block = JPEGExif.block(in: start).flatMap({ SavedExif.rewritten($0, size: request.fitting) }) else {
                return reply(.failure(DecodeFailure(.notAnImage, "The photo has no EXIF to keep.")))
            }
            switch SharedBytes.seal(block) {
            case .success(let fd): return (DecoderReply(id: request.id, outcome: .exifBlock(byteCount: block.count)), fd)
            case .failure(let failure): return reply(.failure(failure))
            }
        case .orientation:
            // The photo's EXIF is its bytes: read and changed here; the browser splices.
            switch OrientedExif.edit(descriptor: descriptor, turns: request.quarterTurns, set: request.orientation) {
            case .success(let edit):
                let outcome = DecoderReply.Outcome.orientationEdit(found: edit.found.value, segment: edit.segment, byteCount: edit.payload?.count ?? 0)
                guard let payload = edit.payload else { return reply(outcome) }
                switch SharedBytes.seal(payload) {
                case .success(let fd): return (DecoderReply(id: request.id, outcome: outcome), fd)
                case .failure(let failure): return reply(.failure(failure))
                }
            case .failure(let failure): return reply(.failure(failure))
            }
        case .embeddedPreview:
            let decoded = EmbeddedPreview.decode(descriptor: descriptor, fitting: request.fitting, cancellation: cancellation) {
                SharedPixels.seal(pixbuf: $0, sourceSize: $1, format: $2)
            }
            switch decoded {
            case .success(let (fd, layout)): return (DecoderReply(id: request.id, outcome: .pixels(layout)), fd)
            case .failure(let failure): return reply(.failure(failure))
            }
        case .webList:
            // The list's bytes are the web's: read here, and only the photos it names go back.
            let read = WebListReader.read(descriptor: descriptor, baseURL: request.baseURL ?? "", contentType: request.contentType,
                                          cancellation: cancellation)
            let bytes = read.map { $0.encoded() }
            switch bytes.flatMap({ bytes in SharedBytes.seal(bytes).map { (bytes.count, $0) } }) {
            case .success(let (count, fd)): return (DecoderReply(id: request.id, outcome: .webList(byteCount: count)), fd)
            case .failure(let failure): return reply(.failure(failure))
            }
        case .marks:
            // A sidecar's or a photo's XMP, and a photo's IPTC: bytes from outside, read here.
            guard let marks = XMPMarks.read(descriptor: descriptor) else {
                return reply(.failure(DecodeFailure(.corrupt, "The file holds no XMP that could be read.")))
            }
            return reply(.marks(marks))
        case .mergedSidecar:
            guard let marks = request.marks, let bytes = XMPMarks.readWhole(descriptor: descriptor),
                  let merged = XMPMarks.merged(marks, into: bytes) else {
                return reply(.failure(DecodeFailure(.corrupt, "The sidecar is not XMP that could be merged into.")))
            }
            switch SharedBytes.seal(merged) {
            case .success(let fd): return (DecoderReply(id: request.id, outcome: .sidecar(byteCount: merged.count)), fd)
            case .failure(let failure): return reply(.failure(failure))
            }
        case .region:
            guard let region = request.region, let descriptor = source.descriptor else {
                return reply(.failure(DecodeFailure(.unreadable, "A region request without a region.")))
            }
            let decoded = RegionDecoders.decode(descriptor: descriptor, region: region, maxPixels: request.maxPixels,
                                                   cancellation: cancellation) { SharedPixels.seal(pixbuf: $0, sourceSize: $1, format: $2) }
            switch decoded {
            case .success(let (fd, layout)): return (DecoderReply(id: request.id, outcome: .pixels(layout)), fd)
            case .failure(let failure): return reply(.failure(failure))
            }
        case .probe, .dates, .liveIdentifiers:
            return reply(.failure(DecodeFailure(.unreadable, "Unreachable.")))
        }
    }


}

/// Test mode: files that start with a marker make the decoder misbehave the way a hostile
/// file could, so the browser's recovery can be tested.
enum TestFault {
    static let crash = "GPHOTOBROWSE-TEST-CRASH"
    static let hang = "GPHOTOBROWSE-TEST-HANG"
    static let allocate = "GPHOTOBROWSE-TEST-ALLOCATE"
    /// Stops the process (SIGSTOP), every thread of it: a decoder that no longer answers
    /// anything, not even a cancel.
    static let stop = "GPHOTOBROWSE-TEST-STOP"
    /// Waits (at most 20 s) until the request is cancelled, then decodes as usual: a
    /// cancellation that reaches the decode is then certain, whatever the machine's speed.
    static let waitForCancel = "GPHOTOBROWSE-TEST-WAIT-FOR-CANCEL"
    /// Takes two seconds (less if cancelled), then decodes as usual: a thumbnail certainly
    /// still under way when a test acts a moment after asking for it.
    static let slow = "GPHOTOBROWSE-TEST-SLOW"

    static func trigger(_ descriptor: Int32, cancellation: CancellationFlag) {
        var head = [UInt8](repeating: 0, count: 64)
        let n = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return }
        let text = String(decoding: head[0..<n], as: UTF8.self)
        if text.hasPrefix(crash) {
            raise(SIGSEGV)
        } else if text.hasPrefix(hang) {
            let spin = Atomic<Int>(0)
            while true { spin.add(1, ordering: .relaxed) }
        } else if text.hasPrefix(stop) {
            raise(SIGSTOP)
        } else if text.hasPrefix(waitForCancel) {
            for _ in 0..<20_000 where !cancellation.isCancelled { usleep(1_000) }
        } else if text.hasPrefix(slow) {
            for _ in 0..<2_000 where !cancellation.isCancelled { usleep(1_000) }
        } else if text.hasPrefix(allocate) {
            var hoard: [UnsafeMutableRawPointer] = []
            while true {
                let block = UnsafeMutableRawPointer.allocate(byteCount: 16 << 20, alignment: 16)
                block.initializeMemory(as: UInt8.self, repeating: 1, count: 16 << 20)
                hoard.append(block)
            }
        }
    }
}

/// Test mode: what this process can reach beyond its descriptor, one line per attempt.
enum Probe {
    static func run(path: String?, port: Int?) -> String {
        var lines: [String] = []
        func outcome(_ ok: Bool) -> String { ok ? "succeeded" : "failed (\(String(cString: strerror(errno))))" }
        if let path {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            lines.append("read \(path): \(outcome(fd >= 0))")
            if fd >= 0 { close(fd) }
            let written = path + ".probe"
            let wfd = open(written, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            lines.append("create \(written): \(outcome(wfd >= 0))")
            if wfd >= 0 { close(wfd) }
        }
        if let port {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 {
                lines.append("connect 127.0.0.1:\(port): \(outcome(false))")
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                lines.append("connect 127.0.0.1:\(port): \(outcome(connected == 0))")
                close(fd)
            }
        }
        return lines.joined(separator: "\n")
    }
}
