import CGdkPixbuf
import Dispatch
import Foundation
import PhotoCore
import PhotoIO

/// `first-screen DIR [--runs N] [--app PATH]`: from launch to the first screen of thumbnails,
/// gphotobrowse side by side with gThumb, on a folder that fits one screen (twelve large
/// photos, say), under the X display in `DISPLAY` (run it with `xvfb-run -a`).
///
/// Both apps are measured the same way: each is started on DIR with a fresh home, thumbnail
/// cache and settings of its own, in one session (bus and runtime folder) that all the
/// launches share, as on a desktop; the time runs from its launch until
/// every photo of DIR has a thumbnail in that cache (the freedesktop cache both write: any
/// size). The runs alternate (gphotobrowse, gThumb, gphotobrowse, …) so that other load on
/// the machine falls on both alike, after one untimed run of each that brings their
/// libraries into memory; the medians are compared. For gphotobrowse its own trace lines
/// (`first-frame`, `visible-thumbnails`) are printed beside.
///
/// The floor is what decoding alone costs: the same files decoded at thumbnail scale by
/// gdk-pixbuf (libjpeg-turbo's scaled decoding, as the decoder processes do) and by
/// libjpeg-turbo's `djpeg -scale 1/8` when it is installed, one worker per core, best of
/// three. Both decode every byte of every file.
///
/// The last line is the summary the docs record:
/// `first-screen: N photos, gphotobrowse X s, gThumb Y s (Rx), decode floor F s`.
enum FirstScreenCommand: BenchCommand {
    static let name = "first-screen"
    static let arguments = "DIR [--runs N] [--app PATH]"
    static let summary = "launch to the first screen of thumbnails in the cache, against gThumb"

    static func run(_ arguments: [String]) -> Int32 {
        let options: BenchOptions
        switch BenchOptions.parse(arguments, numbers: ["--runs": (3, 1)], texts: ["--app": appBesideThisProgram]) {
        case .success(let parsed): options = parsed
        case .failure(let problem): return usageError(problem.message)
        }
        guard options.operands.count == 1, let folder = options.operands.first else { return usageError("give a folder") }
        let runs = options.number("--runs"), app = options.text("--app")
        if let problem = problemRunningApp(app) { return usageError(problem) }
        let folderPath = URL(fileURLWithPath: folder).standardizedFileURL.path
        guard let photos = listPhotos(in: [folderPath], command: name) else { return 1 }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let paths = photos.compactMap { URL(string: $0.id)?.path }
        let megabytes = Double(photos.reduce(0) { $0 + $1.size }) / 1_000_000
        print(String(format: "first screen: %d photos (%.1f MB) in %@, %d cores, median of %d runs each", photos.count, megabytes, folderPath, cores, runs))
        // Read once, so that no run pays for the disk.
        for path in paths { _ = FileManager.default.contents(atPath: path) }

        let gthumb = which("gthumb")
        if gthumb == nil {
            printError("gThumb is not installed: install it with `apt-get install gthumb` (as root) to compare; measuring gphotobrowse alone")
        }
        let uris = photos.map(\.id)
        guard let session = Session() else { return 1 }
        defer { session.end() }
        var ours: [AppRun] = [], theirs: [AppRun] = []
        // One untimed run of each first: their libraries and data come into the page cache.
        for round in 0...runs {
            guard let run = runOurs(app, folderPath, uris, session) else { return 1 }
            if round > 0 {
                ours.append(run)
                print("  gphotobrowse run \(round)  " + run.description)
            }
            guard let gthumb else { continue }
            guard let other = runGThumb(gthumb, folderPath, uris, session) else { return 1 }
            if round > 0 {
                theirs.append(other)
                print("  gThumb run \(round)        " + other.description)
            }
        }

        // A floor: the best of three.
        let floorPixbuf = (0..<3).map { _ in decodeFloor(paths, workers: cores) }.min()!
        print(String(format: "  decode floor: gdk-pixbuf at 256 px, %d workers   %.2f s (best of 3)", cores, floorPixbuf))
        var floor = floorPixbuf
        if let djpeg = which("djpeg") {
            let floorDjpeg = (0..<3).map { _ in djpegFloor(djpeg, paths, workers: cores) }.min()!
            print(String(format: "  decode floor: djpeg -scale 1/8, %d workers       %.2f s (best of 3)", cores, floorDjpeg))
            floor = min(floor, floorDjpeg)
        } else {
            printError("djpeg is not installed (apt-get install libjpeg-turbo-progs); the floor is gdk-pixbuf's")
        }

        guard let oursMedian = medianTime(ours) else {
            printError("gphotobrowse did not fill the cache in time")
            return 1
        }
        let firstFrame = median(ours.map { Double($0.firstFrame) })
        print(String(format: "  gphotobrowse median %.2f s (first-frame %.0f ms)", oursMedian, firstFrame))
        var summary = String(format: "first-screen: %d photos, gphotobrowse %.2f s", photos.count, oursMedian)
        if gthumb != nil {
            guard let theirsMedian = medianTime(theirs) else {
                printError("gThumb did not fill the cache in time")
                return 1
            }
            print(String(format: "  gThumb median       %.2f s", theirsMedian))
            summary += String(format: ", gThumb %.2f s (%.2fx)", theirsMedian, theirsMedian / oursMedian)
        } else {
            summary += ", gThumb not installed"
        }
        print(summary + String(format: ", decode floor %.2f s", floor))
        return 0
    }

    /// One launch: seconds until every photo had a thumbnail in the cache (nil: not within
    /// the deadline), and for gphotobrowse its trace milestones in ms.
    private struct AppRun: CustomStringConvertible {
        var seconds: Double?
        var firstFrame = -1, visible = -1

        var description: String {
            let time = seconds.map { String(format: "%.2f s", $0) } ?? "not within \(Int(FirstScreenCommand.deadline)) s"
            guard firstFrame >= 0 || visible >= 0 else { return time }
            return time + "  (first-frame \(firstFrame) ms, visible-thumbnails \(visible) ms)"
        }
    }

    static let deadline = 60.0

    private static func runOurs(_ app: String, _ folder: String, _ uris: [String], _ session: Session) -> AppRun? {
        guard let run = CleanRun(session) else { return nil }
        defer { run.finish() }
        let started = Date()
        guard let (process, stderr) = startTracedApp(app, [folder], cache: run.cache, config: run.config, environment: run.environment) else { return nil }
        let lines = TraceReader(stderr)
        var result = AppRun(seconds: run.waitForThumbnails(of: uris, since: started))
        result.firstFrame = lines.wait(for: "first-frame", seconds: 5) ?? -1
        result.visible = lines.wait(for: "visible-thumbnails", seconds: 5) ?? -1
        process.terminate()
        process.waitUntilExit()
        return result
    }

    private static func runGThumb(_ gthumb: String, _ folder: String, _ uris: [String], _ session: Session) -> AppRun? {
        guard let run = CleanRun(session) else { return nil }
        defer { run.finish() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gthumb)
        process.arguments = [folder]
        process.environment = run.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice  // exiv2's warnings about the files
        let started = Date()
        do { try process.run() } catch {
            printError("could not start \(gthumb): \(error)")
            return nil
        }
        let result = AppRun(seconds: run.waitForThumbnails(of: uris, since: started))
        process.terminate()
        process.waitUntilExit()
        return result
    }

    /// What a desktop session gives the apps it launches: a session bus (GApplication
    /// registers on it; GTK 4 asks the document portal for file transfers at start-up, which
    /// the bus starts once) and a runtime folder. One for the whole benchmark, as a login
    /// session outlives the apps launched in it; ended, with the portals it started, at the end.
    private final class Session {
        let root: String
        var runtime: String { root + "/run" }
        /// The bus's address; "disabled:" when dbus-daemon is missing.
        private(set) var busAddress = "disabled:"
        private var bus: Process?

        init?() {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-first-screen-\(getpid())").path
            guard (try? FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)) != nil else {
                printError("cannot make \(runtime)")
                return nil
            }
            chmod(runtime, 0o700)
            guard let daemon = which("dbus-daemon") else { return }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: daemon)
            process.arguments = ["--session", "--nofork", "--print-address"]
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_RUNTIME_DIR"] = runtime  // where the document portal mounts itself
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return }
            bus = process
            var line = Data()
            while !line.contains(0x0A) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            let address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !address.isEmpty { busAddress = address }
        }

        func end() {
            if let bus {
                bus.terminate()  // the portals it started leave with it, unmounting what they mounted
                bus.waitUntilExit()
            }
            for _ in 0..<50 {
                if (try? FileManager.default.removeItem(atPath: root)) != nil { return }
                usleep(100_000)
            }
            printError("could not remove \(root)")
        }
    }

    /// A fresh home for one launch in `session`: its own HOME and XDG folders (so an empty
    /// thumbnail cache and no settings), removed after.
    private final class CleanRun {
        let root: String
        var cache: String { root + "/home/.cache" }
        var config: String { root + "/home/.config" }
        let environment: [String: String]

        init?(_ session: Session) {
            root = session.root + "/launch-" + UUID().uuidString.prefix(8)
            let home = root + "/home"
            for folder in [home + "/.cache", home + "/.config", home + "/.local/share"] {
                guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else {
                    printError("cannot make \(folder)")
                    return nil
                }
            }
            var environment = ProcessInfo.processInfo.environment
            for name in ["GTK_THEME", "GDK_SCALE", "GDK_DPI_SCALE", "GTK_MODULES", "GPHOTOBROWSE_TRACE"] {
                environment[name] = nil
            }
            environment.merge([
                "HOME": home,
                "XDG_CACHE_HOME": home + "/.cache",
                "XDG_CONFIG_HOME": home + "/.config",
                "XDG_DATA_HOME": home + "/.local/share",
                "XDG_RUNTIME_DIR": session.runtime,
                "DBUS_SESSION_BUS_ADDRESS": session.busAddress,
                "GSK_RENDERER": "cairo",
                "GDK_BACKEND": "x11",
                "GSETTINGS_BACKEND": "memory",
                "NO_AT_BRIDGE": "1",
                "GTK_A11Y": "none",
                "LANG": "C.UTF-8",
            ]) { _, new in new }
            self.environment = environment
        }

        /// Seconds from `started` until every URI has a thumbnail of some size in this run's
        /// cache (checked every 5 ms); nil after `deadline`.
        func waitForThumbnails(of uris: [String], since started: Date) -> Double? {
            let layout = ThumbnailCacheLayout(cacheHome: cache)
            var missing = uris.map { uri in ThumbnailSize.allCases.map { layout.path(forURI: uri, size: $0) } }
            while true {
                missing.removeAll { candidates in candidates.contains { access($0, F_OK) == 0 } }
                let elapsed = Date().timeIntervalSince(started)
                if missing.isEmpty { return elapsed }
                if elapsed > FirstScreenCommand.deadline { return nil }
                usleep(5_000)
            }
        }

        func finish() {
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    /// Seconds to decode `paths` at thumbnail size with gdk-pixbuf, `workers` at a time.
    private static func decodeFloor(_ paths: [String], workers: Int) -> Double {
        let next = Counter()
        return time {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while true {
                    let i = next.increment() - 1
                    guard i < paths.count else { return }
                    if let pixbuf = gdk_pixbuf_new_from_file_at_scale(paths[i], 256, 256, 1, nil) {
                        g_object_unref(UnsafeMutableRawPointer(pixbuf))
                    }
                }
            }
        }
    }

    /// Seconds for `djpeg -scale 1/8` over `paths`, a process per file, `workers` at a time.
    private static func djpegFloor(_ djpeg: String, _ paths: [String], workers: Int) -> Double {
        let next = Counter()
        return time {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while true {
                    let i = next.increment() - 1
                    guard i < paths.count else { return }
                    spawnQuietly(djpeg, ["-scale", "1/8", "-outfile", "/dev/null", paths[i]])
                }
            }
        }
    }

    /// Runs a tool with no output and waits for it: posix_spawn, as a shell would (Foundation's
    /// Process closes every possible descriptor first, which costs tens of milliseconds here).
    private static func spawnQuietly(_ tool: String, _ arguments: [String]) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, tool, &actions, nil, &argv, environ) == 0 else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private static func medianTime(_ runs: [AppRun]) -> Double? {
        let times = runs.compactMap(\.seconds)
        return times.count == runs.count && !times.isEmpty ? median(times) : nil
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":") + ["/usr/bin", "/bin"]).map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
