import Foundation

/// `large-folder [--count N] [--app PATH]`: the real app on a folder of N photos (hard links
/// to a few small JPEGs made here), under the X display in `DISPLAY` (run it with
/// `xvfb-run -a`). Reads the app's trace lines (first-frame, enumerated,
/// visible-thumbnails) and its peak resident memory, once with an empty thumbnail cache
/// and once with the cache filled by the first run; and, side by side, how long `ls -f`
/// and `find` take to list the same folder, and the app's first frame on a folder of 6 of
/// the same photos, launched three times before each pass (the ratio the big folder's
/// start-up is held to is to the median of the three).
enum LargeFolderCommand: BenchCommand {
    static let name = "large-folder"
    static let arguments = "[--count N] [--app PATH]"
    static let summary = "the app on a folder of N photos: first frame, listing, thumbnails in view, peak memory"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--count": (100_000, 1)], texts: ["--app": appBesideThisProgram]) else { return 2 }
        let count = options.number("--count"), app = options.text("--app")
        if let problem = problemRunningApp(app) { return usageError(problem) }

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-large-\(getpid())").path
        let folder = work + "/photos"
        defer { try? FileManager.default.removeItem(atPath: work) }
        guard LinkedPhotoFolder.make(folder, count: count), makeSmallFolder(work + "/six", from: folder) else { return 1 }
        print("large folder: \(count) photos (hard links to 8 JPEGs) in \(folder)")

        let ls = time { spawnQuietly("/bin/ls", ["-f", folder]) }
        let find = time { spawnQuietly("/usr/bin/find", [folder, "-maxdepth", "1", "-type", "f"]) }
        print(String(format: "  ls -f                 %7.0f ms", ls * 1000))
        print(String(format: "  find -type f          %7.0f ms", find * 1000))

        var coldVisible = 0, ratios: [String] = []
        for pass in ["cold", "warm"] {
            // The small folder's first frame varies by a fifth from one launch to the next:
            // the ratio is to the median of three.
            var smalls: [Int] = []
            for launch in 1...3 {
                guard let small = smallFolderFirstFrame(app, folder: work + "/six", cacheHome: work + "/cache-six-\(pass)-\(launch)") else { return 1 }
                smalls.append(small)
            }
            let small = Int(median(smalls.map(Double.init)))
            print("  gphotobrowse on 6 photos (\(pass) thumbnail cache): first-frame \(small) ms (median of "
                + smalls.map(String.init).joined(separator: ", ") + ")")
            guard let run = runApp(app, folder: folder, cacheHome: work + "/cache") else { return 1 }
            print("  gphotobrowse (\(pass) thumbnail cache): first-frame \(run.firstFrame) ms, enumerated \(run.enumerated) ms, "
                + "visible-thumbnails \(run.visible) ms, End to the last screenful filled \(run.jumpToEnd) ms, peak RSS \(run.peakKiB / 1024) MiB")
            ratios.append(String(format: "%.2fx", Double(run.firstFrame) / Double(max(1, small))))
            if pass == "warm" {
                print(String(format: "large-folder: %d files, first-frame %d ms (", count, run.firstFrame)
                    + ratios.joined(separator: " / ") + " of 6 photos', cold / warm), "
                    + String(format: "enumerated %d ms (%.1fx find; ls -f %.0f ms, find %.0f ms), visible-thumbnails %d ms cold / %d ms warm, End %d ms, peak RSS %d MiB",
                             run.enumerated, Double(run.enumerated) / max(1, find * 1000),
                             ls * 1000, find * 1000, coldVisible, run.visible, run.jumpToEnd, run.peakKiB / 1024))
            } else {
                coldVisible = run.visible
            }
        }
        return 0
    }

    /// The app's first frame on the folder of 6 photos, ended once the first frame came.
    private static func smallFolderFirstFrame(_ app: String, folder: String, cacheHome: String) -> Int? {
        guard let (process, stderr) = startTracedApp(app, [folder], cache: cacheHome, config: cacheHome + "/config") else { return nil }
        let firstFrame = TraceReader(stderr).wait(for: "first-frame", seconds: 60)
        process.terminate()
        process.waitUntilExit()
        if firstFrame == nil { printError("the app showed no first frame on 6 photos within 60 s") }
        return firstFrame
    }

    /// A folder of 6 hard links to the first photos of `large`.
    private static func makeSmallFolder(_ folder: String, from large: String) -> Bool {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            printError("cannot make \(folder): \(error)")
            return false
        }
        for i in 0..<6 {
            let name = String(format: "/photo-%06d.jpg", i)
            guard link(large + name, folder + name) == 0 else {
                printError("cannot link photo \(i): \(String(cString: strerror(errno)))")
                return false
            }
        }
        return true
    }

    private struct AppRun {
        var firstFrame = -1, enumerated = -1, visible = -1, peakKiB = 0
        /// From pressing End (the grid jumps from the first photo to the last) to every tile
        /// in view showing its thumbnail; -1 without xdotool.
        var jumpToEnd = -1
    }

    /// Starts the app on `folder`, waits for its milestones (two minutes at most), presses
    /// End, waits for the app to finish its work (the dates, the thumbnails in view), reads
    /// its peak memory, and ends it.
    private static func runApp(_ app: String, folder: String, cacheHome: String) -> AppRun? {
        guard let (process, stderr) = startTracedApp(app, [folder], cache: cacheHome, config: cacheHome + "/config") else { return nil }
        var run = AppRun()
        let lines = TraceReader(stderr)
        run.firstFrame = lines.wait(for: "first-frame", seconds: 120) ?? -1
        run.enumerated = lines.wait(for: "enumerated", seconds: 120) ?? -1
        run.visible = lines.wait(for: "visible-thumbnails", seconds: 120) ?? -1  // the first: the screen is full
        if run.visible >= 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") {
            let before = lines.count(of: "visible-thumbnails")
            let pressed = Date()
            _ = runQuietly("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "^photos$", "windowfocus", "--sync", "key", "End"])
            if lines.wait(for: "visible-thumbnails", after: before, seconds: 60) != nil {
                run.jumpToEnd = Int(Date().timeIntervalSince(pressed) * 1000)
            } else {
                printError("the grid showed no thumbnails within 60 s of End")
            }
        }
        // The peak over the whole visit: after the listing, the dates and the thumbnails.
        if !waitUntilIdle(process.processIdentifier, seconds: 60) { printError("the app was still busy 60 s after End") }
        run.peakKiB = peakResidentKiB(process.processIdentifier)
        process.terminate()
        process.waitUntilExit()
        if run.visible < 0 { printError("the app did not report every milestone in time") }
        return run
    }
}
