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
        guard let options = options(arguments, numbers: ["--runs": (3, 1)], texts: ["--app": appBesideThisProgram], takesOperands: true) else { return 2 }
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
        guard let session = DesktopSession() else { return 1 }
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

    private static func runOurs(_ app: String, _ folder: String, _ uris: [String], _ session: DesktopSession) -> AppRun? {
        guard let run = CleanLaunch(session) else { return nil }
        defer { run.finish() }
        let started = Date()
        guard let (process, stderr) = startTracedApp(app, [folder], cache: run.cache, config: run.config, environment: run.environment) else { return nil }
        let lines = TraceReader(stderr)
        var result = AppRun(seconds: run.waitForThumbnails(of: uris, since: started, deadline: deadline))
        result.firstFrame = lines.wait(for: "first-frame", seconds: 5) ?? -1
        result.visible = lines.wait(for: "visible-thumbnails", seconds: 5) ?? -1
        process.terminate()
        process.waitUntilExit()
        return result
    }

    private static func runGThumb(_ gthumb: String, _ folder: String, _ uris: [String], _ session: DesktopSession) -> AppRun? {
        guard let run = CleanLaunch(session) else { return nil }
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
        let result = AppRun(seconds: run.waitForThumbnails(of: uris, since: started, deadline: deadline))
        process.terminate()
        process.waitUntilExit()
        return result
    }

    /// Seconds to decode `paths` at thumbnail size with gdk-pixbuf, `workers` at a time.
    private static func decodeFloor(_ paths: [String], workers: Int) -> Double {
        time {
            forEachIndex(below: paths.count, workers: workers) { i in
                guard let pixbuf = gdk_pixbuf_new_from_file_at_scale(paths[i], 256, 256, 1, nil) else { return false }
                g_object_unref(UnsafeMutableRawPointer(pixbuf))
                return true
            }
        }
    }

    /// Seconds for `djpeg -scale 1/8` over `paths`, a process per file, `workers` at a time.
    private static func djpegFloor(_ djpeg: String, _ paths: [String], workers: Int) -> Double {
        time {
            forEachIndex(below: paths.count, workers: workers) { i in
                spawnQuietly(djpeg, ["-scale", "1/8", "-outfile", "/dev/null", paths[i]])
                return true
            }
        }
    }

    private static func medianTime(_ runs: [AppRun]) -> Double? {
        let times = runs.compactMap(\.seconds)
        return times.count == runs.count && !times.isEmpty ? median(times) : nil
    }
}
