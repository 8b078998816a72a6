import CGdkPixbuf
import Foundation

/// `viewer [--count N] [--megapixels M] [--app PATH]`: the real app paging through N photos of
/// M megapixels with real key presses (xdotool), under the X display in `DISPLAY` (run it
/// with `xvfb-run -a`). For each Right press it times the wait until the app reports the
/// photo's full image on screen (`trace full-image`), reads the app's peak resident memory
/// after 10 photos and after all of them, and holds Right for two seconds to count the full
/// images decoded while paging had not settled (there should be none).
enum ViewerCommand: BenchCommand {
    static let name = "viewer"
    static let arguments = "[--count N] [--megapixels M] [--app PATH]"
    static let summary = "the viewer paging through large photos: time to full image, peak memory"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--count": (50, 12), "--megapixels": (24, 1)], texts: ["--app": appBesideThisProgram]) else { return 2 }
        let count = options.number("--count"), megapixels = options.number("--megapixels"), app = options.text("--app")
        if let problem = problemRunningApp(app) { return usageError(problem) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else { return usageError("xdotool is needed (build-aux/install-deps.sh test)") }

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-viewer-\(getpid())").path
        let folder = work + "/photos"
        defer { try? FileManager.default.removeItem(atPath: work) }
        let width = Int((Double(megapixels) * 1_000_000 * 1.5).squareRoot()), height = width * 2 / 3
        guard makePhotos(in: folder, count: count, width: width, height: height) else { return 1 }
        print("viewer: \(count) photos of \(width)×\(height) (\(width * height / 1_000_000) MP), 6 distinct JPEGs hard-linked")

        try? FileManager.default.createDirectory(atPath: work + "/config/gphotobrowse", withIntermediateDirectories: true)
        try? "[browser]\nsort-by=name\nsort-reversed=false\n".write(toFile: work + "/config/gphotobrowse/settings.ini", atomically: true, encoding: .utf8)
        guard let (process, stderr) = startTracedApp(app, [folder + "/photo-000.jpg"], cache: work + "/cache", config: work + "/config") else {
            return 1
        }
        defer { process.terminate(); process.waitUntilExit() }
        let lines = TraceReader(stderr)
        guard lines.wait(for: "full-image", 0, seconds: 60) != nil else {
            printError("the app did not show the first photo")
            return 1
        }
        _ = runQuietly("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "^photo-000\\.jpg$", "windowfocus", "--sync"])

        var waits: [Int] = []
        var peakAfterTen = 0
        for index in 1..<count {
            let pressed = Date()
            _ = runQuietly("/usr/bin/xdotool", ["key", "Right"])
            guard lines.wait(for: "full-image", index, seconds: 30) != nil else {
                printError("no full image for photo \(index)")
                return 1
            }
            waits.append(Int(Date().timeIntervalSince(pressed) * 1000))
            if index == 10 { peakAfterTen = peakResidentKiB(process.processIdentifier) }
        }
        let peak = peakResidentKiB(process.processIdentifier)

        // Hold Left for two seconds: pages fly by on thumbnails; no full image until it stops.
        let before = lines.count(of: "full-image"), pagesBefore = lines.count(of: "page")
        _ = runQuietly("/usr/bin/xdotool", ["keydown", "Left"])
        Thread.sleep(forTimeInterval: 2)
        let pagesHeld = lines.count(of: "page") - pagesBefore
        let fullWhileHeld = lines.count(of: "full-image") - before
        _ = runQuietly("/usr/bin/xdotool", ["keyup", "Left"])
        Thread.sleep(forTimeInterval: 1)
        _ = lines.count(of: "page")

        let sorted = waits.sorted()
        let median = sorted[sorted.count / 2], worst = sorted.last ?? 0
        let settle = 150
        print("  Right, one press at a time: key to full image median \(median) ms, worst \(worst) ms "
            + "(paging settles \(settle) ms after the last key: worst \(max(0, worst - settle)) ms after settling)")
        print("  peak RSS after 10 photos \(peakAfterTen / 1024) MiB, after \(count) photos \(peak / 1024) MiB")
        print("  Left held for 2 s: \(pagesHeld) pages shown, \(fullWhileHeld) full images decoded meanwhile")
        print("viewer: \(count) photos of \(width * height / 1_000_000) MP, full image median \(median) ms / worst \(worst) ms after the key, "
            + "peak RSS \(peak / 1024) MiB (\(peakAfterTen / 1024) MiB after 10), \(fullWhileHeld) full images while a key was held")
        return 0
    }

    /// Six distinct photo-like JPEGs (gradients and texture, so the decoder has real work),
    /// hard-linked `count` times.
    private static func makePhotos(in folder: String, count: Int, width: Int, height: Int) -> Bool {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            printError("cannot make \(folder): \(error)")
            return false
        }
        var sources: [String] = []
        for n in 0..<6 {
            guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else { return false }
            let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
            let pixels = gdk_pixbuf_get_pixels(pixbuf)!
            var seed: UInt32 = 2_463_534_242 &+ UInt32(n)
            for y in 0..<height {
                let row = pixels + y * stride
                for x in 0..<width {
                    seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5
                    let noise = Int(seed & 31)
                    row[x * 3] = UInt8(truncatingIfNeeded: (x * 255 / width + n * 40 + noise) & 255)
                    row[x * 3 + 1] = UInt8(truncatingIfNeeded: (y * 255 / height + noise) & 255)
                    row[x * 3 + 2] = UInt8(truncatingIfNeeded: ((x + y) * 128 / (width + height) + n * 70) & 255)
                }
            }
            let path = folder + "/../source-\(n).jpg"
            guard gdk_pixbuf_savev(pixbuf, path, "jpeg", nil, nil, nil) != 0 else { return false }
            g_object_unref(UnsafeMutableRawPointer(pixbuf))
            sources.append(path)
        }
        for i in 0..<count where link(sources[i % sources.count], folder + String(format: "/photo-%03d.jpg", i)) != 0 {
            printError("cannot link photo \(i): \(String(cString: strerror(errno)))")
            return false
        }
        return true
    }
}
