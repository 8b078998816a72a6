import Dispatch
import Foundation
import PhotoCore
import PhotoIO

/// `thumbnails DIR`: cold and warm thumbnail throughput of the app's pipeline over the
/// photos of DIR and its subfolders, side by side with `vipsthumbnail -s 256` and
/// `gdk-pixbuf-thumbnailer -s 256`, on the same files and the same number of cores, in one run.
///
/// - Cold: the `large` (256 px) thumbnails of every photo in DIR are removed from the cache
///   under `XDG_CACHE_HOME` (with their failure records), then made by `ThumbnailProvider`,
///   the code the app runs, one worker per core: first decoding in this process, then, as
///   the app does, in decoder processes (`IsolatedDecoder`). Files are read once before,
///   so both passes find them in the page cache.
/// - The other tools run one process per file, as file managers run thumbnailers, as many
///   at once as there are cores, writing PNGs into a temporary folder.
/// - Warm: every thumbnail is loaded back from the cache, its file read as the app reads it,
///   in decoder processes (other programs write the cache too), and, for comparison, in
///   this process.
///
/// With `--phone N`, DIR is made (or reused) as a phone's folder of N files, JPEG, HEIC and
/// MP4 (`PhoneFolder`), and the run adds gThumb: gphotobrowse and gThumb each launched on
/// the folder with an empty cache, `--runs` times in turns, timed until every file has a
/// thumbnail (`PhoneFolderVisits`).
///
/// The last line is the summary the docs record:
/// `thumbnails: N files, cold X files/s (in-process I files/s, X/I), warm Y files/s (in-process W files/s, Y/W), warm/cold Z, vs vipsthumbnail Rx, vs gdk-pixbuf-thumbnailer Sx`
/// (and with `--phone`, `, app launch to every thumbnail: gThumb G s, gphotobrowse A s (G/A)x`).
enum ThumbnailsCommand: BenchCommand {
    static let name = "thumbnails"
    static let arguments = "[--phone N [--runs R] [--app APP]] DIR"
    static let summary = "cold and warm thumbnail throughput against vipsthumbnail and gdk-pixbuf-thumbnailer (and gThumb, on a phone's folder)"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--phone": (0, 1), "--runs": (3, 1)], texts: ["--app": appBesideThisProgram], takesOperands: true) else { return 2 }
        guard options.operands.count == 1, let folder = options.operands.first else { return usageError("give one folder") }
        let phoneCount = options.number("--phone")
        let phone = phoneCount > 0 ? PhoneFolder(root: URL(fileURLWithPath: folder).standardizedFileURL.path, count: phoneCount) : nil
        if let phone {
            if let problem = problemRunningApp(options.text("--app")) { return usageError(problem) }
            guard phone.make() else { return 1 }
            print("a phone's folder: \(phone.mix)")
        }
        guard let photos = listPhotos(in: [folder] + subfolders(of: folder), command: name) else { return 1 }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let requests = photos.map { ThumbnailRequest(photo: $0, size: .large) }
        print("thumbnails of \(photos.count) photos in \(folder), \(cores) cores")

        let layout = ThumbnailCacheLayout.userDefault()
        func clearCache() {
            for request in requests {
                unlink(layout.path(forURI: request.uri, size: .large))
                unlink(layout.failurePath(forURI: request.uri))
            }
        }
        // Every file is read once first, so that no pass below pays for the disk and the
        // in-process and decoder-process passes see the same page cache.
        for photo in photos { _ = URL(string: photo.id).flatMap { FileManager.default.contents(atPath: $0.path) } }

        // Cold, decoding in this process (as before decoder processes), then as the app
        // does: in decoder processes (`IsolatedDecoder`), one process per core.
        clearCache()
        let inProcessProvider = ThumbnailProvider(decoder: PixbufDecoder())
        var failedInProcess = 0
        let inProcess = time {
            failedInProcess = forEach(requests, workers: cores) { inProcessProvider.thumbnail(for: $0, cancellation: CancellationFlag()) }
        }
        report("gphotobrowse cold, in-process", photos.count, inProcess, note: failedInProcess > 0 ? "\(failedInProcess) failed" : nil)

        clearCache()
        // The app starts its decoder processes when a window opens, before it lists the folder.
        IsolatedDecoder.shared.prestart(wait: true)
        let provider = ThumbnailProvider(decoder: IsolatedDecoder.shared)
        var failed = 0
        let cold = time {
            failed = forEach(requests, workers: cores) { provider.thumbnail(for: $0, cancellation: CancellationFlag()) }
        }
        report("gphotobrowse cold", photos.count, cold, note: failed > 0 ? "\(failed) failed" : nil)
        print("  decoding: \(IsolatedDecoder.shared.status)")
        // Best of three warm passes: one pass over a small folder takes tens of milliseconds,
        // where a single scheduling hiccup would decide the figure.
        let warm = (0..<3).map { _ in
            time { _ = forEach(requests, workers: cores) { provider.thumbnail(for: $0, cancellation: CancellationFlag()) } }
        }.min()!
        report("gphotobrowse warm (best of 3)", photos.count, warm)
        let warmInProcess = (0..<3).map { _ in
            time { _ = forEach(requests, workers: cores) { inProcessProvider.thumbnail(for: $0, cancellation: CancellationFlag()) } }
        }.min()!
        report("gphotobrowse warm, in-process", photos.count, warmInProcess)

        let paths = photos.compactMap { URL(string: $0.id)?.path }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let vips = runTool("vipsthumbnail", paths, workers: cores) { path, n in
            ["-s", "256", "-o", "\(output)/vips-\(n).png[compression=0]", path]  // our level: a fair race
        }
        let pixbuf = runTool("gdk-pixbuf-thumbnailer", paths, workers: cores) { path, n in
            ["-s", "256", path, "\(output)/pixbuf-\(n).png"]
        }
        if let vips { report("vipsthumbnail -s 256", paths.count, vips) }
        if let pixbuf { report("gdk-pixbuf-thumbnailer -s 256", paths.count, pixbuf) }

        let coldRate = Double(photos.count) / cold, warmRate = Double(photos.count) / warm
        func ratio(_ seconds: Double?) -> String {
            guard let seconds else { return "n/a" }
            return String(format: "%.2f", coldRate / (Double(paths.count) / seconds))
        }
        let inProcessRate = Double(photos.count) / inProcess, warmInProcessRate = Double(photos.count) / warmInProcess
        var visits = ""
        if phone != nil {
            guard let compared = PhoneFolderVisits.compare(app: options.text("--app"), folder: folder, uris: photos.map(\.id),
                                                           runs: options.number("--runs")) else { return 1 }
            visits = ", app launch to every thumbnail: " + compared
        }
        print(String(format: "thumbnails: %d files, cold %.1f files/s (in-process %.1f files/s, %.2fx), warm %.1f files/s (in-process %.1f files/s, %.2fx), warm/cold %.1f, vs vipsthumbnail %@x, vs gdk-pixbuf-thumbnailer %@x",
                     photos.count, coldRate, inProcessRate, coldRate / inProcessRate, warmRate, warmInProcessRate, warmRate / warmInProcessRate,
                     warmRate / coldRate, ratio(vips), ratio(pixbuf)) + visits)
        return 0
    }

    /// The folders below `folder`, at any depth (the corpus keeps its photos in subfolders).
    private static func subfolders(of folder: String) -> [String] {
        let root = URL(fileURLWithPath: folder)
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey]) else { return [] }
        return walk.compactMap { item -> String? in
            guard let url = item as? URL,
                  let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey]),
                  values.isDirectory == true, values.isSymbolicLink != true else { return nil }
            return url.path
        }.sorted()
    }

    /// Runs `body` for every element on `workers` threads; returns how many failed.
    private static func forEach(
        _ requests: [ThumbnailRequest], workers: Int,
        _ body: @escaping @Sendable (ThumbnailRequest) -> Result<DecodedImage, DecodeFailure>
    ) -> Int {
        forEachIndex(below: requests.count, workers: workers) { i in
            if case .failure = body(requests[i]) { return false }
            return true
        }
    }

    /// Runs `tool` once per file, `workers` at a time; nil when the tool is not installed.
    private static func runTool(_ tool: String, _ paths: [String], workers: Int, arguments: @escaping @Sendable (String, Int) -> [String]) -> Double? {
        guard let executable = which(tool) else {
            printError("\(tool) is not installed; skipping it (build-aux/install-deps.sh test installs it)")
            return nil
        }
        return time {
            forEachIndex(below: paths.count, workers: workers) { i in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments(paths[i], i)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                guard (try? process.run()) != nil else { return false }
                process.waitUntilExit()
                return true
            }
        }
    }

    private static func report(_ what: String, _ count: Int, _ seconds: Double, note: String? = nil) {
        let line = "  " + what.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "%7.2f s  %8.1f files/s", seconds, Double(count) / seconds)
        print(line + (note.map { "  (\($0))" } ?? ""))
    }
}

/// Seconds `body` took, on the monotonic clock.
func time(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
