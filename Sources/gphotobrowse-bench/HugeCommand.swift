import CGdkPixbuf
import Foundation
import PhotoCore

/// `huge [--app PATH] [--pans N] [--photos LIST] [--others yes|no]`: the real app showing
/// photos far larger than the screen (a 160 MP and a 60 MP JPEG, a 100 MP PNG and a 100 MP
/// TIFF in deflate strips, written by vips as scanners and editors write them; photo-like:
/// gradients and noise; `--photos` picks some), under the X display in `DISPLAY` (run it
/// with `xvfb-run -a -s "-screen 0 1920x1080x24"`). For each photo: the time from key 1
/// (100%) to every visible tile sharp (`trace tiles-sharp`), the time from each of N pans
/// (six presses of Right, then of Down, in turn: a tenth of the view each) to the view sharp
/// again, the peak resident memory of the browser and of each decoder process. Eye of GNOME
/// and gThumb, where installed (and unless `--others no`), open the same file: the time until
/// they are idle and their peak memory.
enum HugeCommand: BenchCommand {
    static let name = "huge"
    static let arguments = "[--app PATH] [--pans N] [--photos jpeg160,jpeg61,png,tiff] [--others yes|no]"
    static let summary = "JPEGs of 160 and 60 MP, a PNG and a TIFF of 100 MP at 100%: time to sharp tiles, pan latency, peak memory"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--pans": (8, 1)],
                                    texts: ["--app": appBesideThisProgram, "--photos": "jpeg160,jpeg61,png,tiff", "--others": "yes"]) else { return 2 }
        let app = options.text("--app"), pans = options.number("--pans"), others = options.text("--others") != "no"
        let chosen = Set(options.text("--photos").split(separator: ",").map(String.init))
        if let problem = problemRunningApp(app) { return usageError(problem) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else { return usageError("xdotool is needed (build-aux/install-deps.sh test)") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-huge-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        var summary: [String] = []
        let photos = [("jpeg160", 16000, 10000, "jpeg"), ("jpeg61", 9600, 6400, "jpeg"), ("png", 12500, 8000, "png"), ("tiff", 12500, 8000, "tiff")]
        for (_, width, height, type) in photos.filter({ chosen.contains($0.0) }) {
            let folder = work + "/\(width)-\(type)"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/huge-\(width)x\(height).\(type == "jpeg" ? "jpg" : type == "tiff" ? "tif" : type)"
            let made = Date()
            guard makePhoto(path, width: width, height: height, type: type) else {
                printError("could not make \(path)" + (type == "tiff" ? " (vips makes the TIFF: build-aux/install-deps.sh test)" : ""))
                return 1
            }
            let megapixels = width * height / 1_000_000
            let kind = type == "jpeg" ? "JPEG" : type.uppercased()
            print("huge: \(width)×\(height) (\(megapixels) MP) \(kind) made in \(String(format: "%.1f", Date().timeIntervalSince(made))) s")
            guard let line = visit(app, path, work: work, pans: pans) else { return 1 }
            print("  gphotobrowse: " + line)
            summary.append("\(megapixels) MP \(kind): \(line)")
            for (tool, arguments) in [("eog", [path]), ("gthumb", [path])] where others {
                guard let found = which(tool) else {
                    print("  \(tool): not installed")
                    continue
                }
                print("  \(tool): " + otherViewer(found, arguments))
            }
        }
        print("huge: " + summary.joined(separator: "; "))
        return 0
    }

    /// The app on `path`: 100%, then `pans` presses of Right.
    private static func visit(_ app: String, _ path: String, work: String, pans: Int) -> String? {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard let (process, stderr) = startTracedApp(app, [path], cache: work + "/cache", config: work + "/config") else { return nil }
        defer { process.terminate(); process.waitUntilExit() }
        let pid = process.processIdentifier
        let lines = TraceReader(stderr)
        guard let fitMs = lines.wait(for: "full-image", 0, seconds: 120) else {
            printError("the app did not show \(name)")
            return nil
        }
        // The window as large as the screen (there is no window manager to maximise it).
        let title = "^" + NSRegularExpression.escapedPattern(for: name) + "$"
        _ = runQuietly("/usr/bin/xdotool", ["search", "--sync", "--name", title, "windowsize", "100%", "100%", "windowmove", "0", "0"])
        _ = runQuietly("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", title, "windowfocus", "--sync"])
        _ = waitUntilIdle(pid, seconds: 10)
        let peakAtFit = peakResidentKiB(pid)
        var decoders: [Int32: Int] = [:]
        func pressAndWaitSharp(_ keys: [String]) -> Int? {
            let before = lines.count(of: "tiles-sharp")
            let pressed = Trace.millisecondsSinceStart(ofProcess: pid) ?? 0
            _ = runQuietly("/usr/bin/xdotool", ["key", "--delay", "20"] + keys)
            guard let sharp = lines.wait(for: "tiles-sharp", after: before, seconds: 30) else { return nil }
            // Decoder processes end after 20 s idle: their peaks are read while they run.
            decoders.merge(decoderPeaksKiB(under: pid)) { max($0, $1) }
            return sharp - pressed
        }
        guard let actualSize = pressAndWaitSharp(["1"]) else {
            printError("no sharp tiles at 100% for \(name)")
            return nil
        }
        var panWaits: [Int] = []
        for _ in 0..<pans {
            // Six presses, six tenths of the view, right then down in turn: at least a tile's
            // width on a screen of 1024 pixels or more, so the view shows other tiles, and
            // traces when they are sharp.
            let key = panWaits.count % 2 == 0 ? "Right" : "Down"
            guard let wait = pressAndWaitSharp(Array(repeating: key, count: 6)) else { break }
            panWaits.append(wait)
        }
        let browserPeak = peakResidentKiB(pid)
        decoders.merge(decoderPeaksKiB(under: pid)) { max($0, $1) }
        let sorted = panWaits.sorted()
        let median = sorted.isEmpty ? -1 : sorted[sorted.count / 2], worst = sorted.last ?? -1
        return "fit shown at \(fitMs) ms; key 1 to sharp \(actualSize) ms; pan to sharp median \(median) ms, worst \(worst) ms "
            + "(\(panWaits.count) of \(pans)); peak RSS at fit \(peakAtFit / 1024) MiB, after \(browserPeak / 1024) MiB; decoders "
            + (decoders.isEmpty ? "not found" : decoders.values.sorted().map { "\($0 / 1024)" }.joined(separator: ", ") + " MiB")
    }

    /// Another viewer on the same file: the time until it is idle (its window shown and the
    /// photo decoded), and its peak resident memory then.
    private static func otherViewer(_ tool: String, _ arguments: [String]) -> String {
        let started = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return "could not start (\(error))" }
        defer { process.terminate(); process.waitUntilExit() }
        Thread.sleep(forTimeInterval: 1)
        let idle = waitUntilIdle(process.processIdentifier, seconds: 120)
        let seconds = Date().timeIntervalSince(started) - 1  // the idle second
        return String(format: "idle after %.1f s%@, peak RSS %d MiB", seconds, idle ? "" : " (still busy)",
                      peakResidentKiB(process.processIdentifier) / 1024)
    }

    /// The peak resident memory of each decoder process below `pid`.
    private static func decoderPeaksKiB(under pid: Int32) -> [Int32: Int] {
        var parents: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(end, offsetBy: 2)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
        }
        var found: [Int32] = [], frontier = [pid]
        while let parent = frontier.popLast() {
            let children = parents.filter { $0.value == parent }.map(\.key)
            found += children
            frontier += children
        }
        let decoders = found.filter { child in
            let comm = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
            return comm.hasPrefix("gphotobrowse-de")
        }
        return Dictionary(uniqueKeysWithValues: decoders.map { ($0, peakResidentKiB($0)) })
    }

    /// A photo-like JPEG, PNG or TIFF: gradients and noise, so that decoding has real work.
    /// The TIFF is the PNG rewritten by vips in deflate strips of 128 rows (gdk-pixbuf would
    /// write one strip for the whole photo).
    private static func makePhoto(_ path: String, width: Int, height: Int, type: String) -> Bool {
        guard type == "tiff" else { return makePhoto(path, width: width, height: height, type: type, options: type == "png" ? ["compression": "3"] : [:]) }
        guard let vips = which("vips") else { return false }
        let png = path + ".png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        return makePhoto(png, width: width, height: height, type: "png", options: ["compression": "1"])
            && runQuietly(vips, ["copy", png, path + "[compression=deflate]"]) == 0
    }

    private static func makePhoto(_ path: String, width: Int, height: Int, type: String, options: [String: String]) -> Bool {
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        var seed: UInt32 = 2_463_534_242
        for y in 0..<height {
            let row = pixels + y * stride
            for x in 0..<width {
                seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5
                let noise = Int(seed & 15)
                row[x * 3] = UInt8(truncatingIfNeeded: (x * 255 / width + noise + (x / 64 + y / 64) % 2 * 40) & 255)
                row[x * 3 + 1] = UInt8(truncatingIfNeeded: (y * 255 / height + noise) & 255)
                row[x * 3 + 2] = UInt8(truncatingIfNeeded: ((x + y) * 128 / (width + height) + noise * 2) & 255)
            }
        }
        let keys = options.keys.sorted(), values = keys.map { options[$0]! }
        var keyPointers = keys.map { strdup($0) } + [nil], valuePointers = values.map { strdup($0) } + [nil]
        defer { (keyPointers + valuePointers).forEach { free($0) } }
        return gdk_pixbuf_savev(pixbuf, path, type, &keyPointers, &valuePointers, nil) != 0
    }
}
