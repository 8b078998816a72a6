import CGdkPixbuf
import Foundation
import PhotoCore
import PhotoIO

/// `board [--megapixels M] [--strokes N] [--moves N] [--app PATH]`: the drawing board on an
/// M-megapixel photo.
///
/// - Pen latency: the real app (`--draw PHOTO`, under the X display in `DISPLAY`) drawing
///   with the mouse, one real move at a time (xdotool); each move is timed from just before
///   xdotool sends it to the app's `trace board-drawn` of the frame that shows it, next to
///   xdotool's own time for the same move with nothing waiting on it.
/// - Undo and redo: N strokes drawn on the board with its screen picture kept up to date (as
///   the window does), then every one undone and redone, each step with its repaint; the
///   steps with N items on the board against those with 5.
/// - Saving: the board with those strokes written at full resolution as a JPEG beside the
///   photo (EXIF and all, as Ctrl+S does), against ImageMagick drawing one line on the same
///   photo and writing it.
enum BoardCommand: BenchCommand {
    static let name = "board"
    static let arguments = "[--megapixels M] [--strokes N] [--moves N] [--app PATH]"
    static let summary = "the drawing board on a large photo: pen latency, undo and redo of many strokes, saving"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--megapixels": (24, 1), "--strokes": (500, 10), "--moves": (200, 20)],
                                  texts: ["--app": appBesideThisProgram]) else { return 2 }
        let megapixels = options.number("--megapixels"), strokes = options.number("--strokes")
        let width = Int((Double(megapixels) * 1_000_000 * 1.5).squareRoot()), height = width * 2 / 3
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-board-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let photoPath = work + "/IMG_0042.jpg"
        guard let pixels = makePhoto(photoPath, width: width, height: height) else { return 1 }
        print("board: a \(width)×\(height) photo (\(width * height / 1_000_000) MP)")

        let app = options.text("--app")
        if problemRunningApp(app) == nil, FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), ProcessInfo.processInfo.environment["DISPLAY"] != nil {
            guard penLatency(app: app, photo: photoPath, work: work, moves: options.number("--moves")) else { return 1 }
        } else {
            print("  pen latency: skipped (needs the app, xdotool and an X display: run under xvfb-run -a)")
        }

        let board = undoAndRedo(strokes: strokes, photo: pixels)
        saving(board, photo: pixels, original: photoPath)
        return 0
    }

    // MARK: Pen latency

    private static func penLatency(app: String, photo: String, work: String, moves: Int) -> Bool {
        guard let (process, stderr) = startTracedApp(app, ["--draw", photo], cache: work + "/cache", config: work + "/config") else { return false }
        defer { process.terminate(); process.waitUntilExit() }
        let lines = TraceReader(stderr)
        guard lines.wait(for: "board-ready", after: 0, seconds: 60) != nil,
              lines.wait(seconds: 10, { $0.first == "board-view" && $0.count == 10 }) != nil else {
            printError("the board did not open: \(lines.lastOtherLines.suffix(5).joined(separator: "\n"))")
            return false
        }
        guard runQuietly("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "^Mark Up", "windowfocus", "--sync"]) == 0 else {
            printError("no Mark Up window")
            return false
        }
        let geometry = windowGeometry()
        let (x0, y0) = (geometry.x + 200, geometry.y + 200)
        _ = runQuietly("/usr/bin/xdotool", ["mousemove", String(x0), String(y0)])
        _ = runQuietly("/usr/bin/xdotool", ["mousedown", "1"])
        var latencies: [Double] = []
        for move in 1...moves {
            // A zigzag across the photo, 4 px a move.
            let x = x0 + move * 4, y = y0 + (move % 40 < 20 ? move % 20 : 20 - move % 20) * 4
            let sent = Date()
            spawnQuietly("/usr/bin/xdotool", ["mousemove", String(x), String(y)])
            guard lines.wait(seconds: 5, { $0.first == "board-drawn" && $0.count == 3 && (Int($0[1]) ?? 0) >= move }) != nil else {
                printError("move \(move) was never drawn")
                return false
            }
            latencies.append(Date().timeIntervalSince(sent) * 1000)
        }
        _ = runQuietly("/usr/bin/xdotool", ["mouseup", "1"])
        // xdotool alone: the same moves with the button up, nothing drawn and nothing waited on.
        var alone: [Double] = []
        for move in 1...moves {
            let sent = Date()
            spawnQuietly("/usr/bin/xdotool", ["mousemove", String(x0 + move * 4), String(y0 + 300)])
            alone.append(Date().timeIntervalSince(sent) * 1000)
        }
        let median = percentile(latencies, 0.5), p95 = percentile(latencies, 0.95), worst = latencies.max() ?? 0
        let xdotool = percentile(alone, 0.5)
        print(String(format: "  pen latency over %d moves (xdotool move to the frame that shows it): median %.1f ms, 95th percentile %.1f ms, worst %.1f ms",
                     moves, median, p95, worst))
        print(String(format: "    xdotool alone sending the same move: median %.1f ms; the app's share: median %.1f ms (a 60 Hz frame is 16.7 ms)",
                     xdotool, median - xdotool))
        return true
    }

    private static func windowGeometry() -> (x: Int, y: Int) {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = ["search", "--name", "^Mark Up", "getwindowgeometry", "--shell"]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (0, 0) }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        return (values["X"] ?? 0, values["Y"] ?? 0)
    }

    // MARK: Undo and redo

    private static func undoAndRedo(strokes: Int, photo: BoardPhoto) -> Board {
        var board = Board(photoSize: photo.size)
        let view = BoardView(board: board, viewport: ViewSize(width: 1280, height: 800))
        let rendered = RenderedBoard(images: BoardImages(photo: photo))
        _ = rendered.update(board, for: view)
        var generator = SystemRandomNumberGenerator()
        let size = photo.size
        var adding: [Double] = []
        for _ in 0..<strokes {
            var x = Double.random(in: 0..<Double(size.width), using: &generator)
            var y = Double.random(in: 0..<Double(size.height), using: &generator)
            var stroke = Stroke(colour: DrawingColour.presets.randomElement(using: &generator)!, width: board.suggestedWidth, start: StrokePoint(ViewPoint(x: x, y: y)))
            for _ in 0..<40 {
                x += Double.random(in: -60...60, using: &generator); y += Double.random(in: -60...60, using: &generator)
                stroke.extend(to: StrokePoint(ViewPoint(x: x, y: y)))
            }
            adding.append(timed { board.add(.stroke(stroke)); _ = rendered.update(board, for: view) })
        }
        var undos: [Double] = []
        for _ in 0..<strokes { undos.append(timed { board.undo(); _ = rendered.update(board, for: view) }) }
        var redos: [Double] = []
        for _ in 0..<strokes { redos.append(timed { board.redo(); _ = rendered.update(board, for: view) }) }
        // undos[0] is the step with every stroke on the board, undos[strokes - 5] the one with 5.
        let many = Array(undos.prefix(20)), few = Array(undos[(strokes - 20)...].prefix(16))
        let redoFew = Array(redos.prefix(20)), redoMany = Array(redos.suffix(20))
        print(String(format: "  %d strokes of 40 points on the board, its screen picture (1280×800) repainted after each step:", strokes))
        print(String(format: "    adding a stroke: median %.2f ms; all undone in %.0f ms, all redone in %.0f ms",
                     percentile(adding, 0.5), undos.reduce(0, +), redos.reduce(0, +)))
        print(String(format: "    an undo with %d strokes on the board: median %.2f ms; with 5 to 20: median %.2f ms (ratio %.2f)",
                     strokes, percentile(many, 0.5), percentile(few, 0.5), percentile(many, 0.5) / max(0.001, percentile(few, 0.5))))
        print(String(format: "    a redo with %d strokes on the board: median %.2f ms; with 1 to 20: median %.2f ms (ratio %.2f)",
                     strokes, percentile(redoMany, 0.5), percentile(redoFew, 0.5), percentile(redoMany, 0.5) / max(0.001, percentile(redoFew, 0.5))))
        return board
    }

    // MARK: Saving

    private static func saving(_ board: Board, photo: BoardPhoto, original: String) {
        let uri = URL(fileURLWithPath: original).absoluteString
        var savedURI = ""
        let ours = timed {
            switch BoardSaving.saveBeside(original: uri, board: board, images: BoardImages(photo: photo), format: .jpeg(quality: 90)) {
            case .success(let saved): savedURI = saved
            case .failure(let failure): printError("saving failed: \(failure.message)")
            }
        }
        let savedPath = URL(string: savedURI)?.path ?? "?"
        var line = String(format: "  saving at full resolution (JPEG, quality 90, %d strokes): %.0f ms → %@", board.items.count, ours,
                          (savedPath as NSString).lastPathComponent)
        if let convert = which("convert") {
            let theirs = timed {
                _ = runQuietly(convert, [original, "-fill", "none", "-stroke", "#FC5C46", "-strokewidth", "16",
                                         "-draw", "line 100,100 5000,3000", "-quality", "90", original + ".convert.jpg"])
            }
            line += String(format: "; ImageMagick drawing one line and writing the photo: %.0f ms (ratio %.2f)", theirs, ours / theirs)
        }
        print(line)
    }

    // MARK: Tools

    private static func timed(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    private static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }

    /// A photo-like JPEG (`grainyPixbuf`: a gradient and grain) at `path`; its pixels as the board's.
    private static func makePhoto(_ path: String, width: Int, height: Int) -> BoardPhoto? {
        guard let pixbuf = grainyPixbuf(index: 0, width: width, height: height) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        guard gdk_pixbuf_savev(pixbuf, path, "jpeg", nil, nil, nil) != 0 else {
            printError("cannot write \(path)")
            return nil
        }
        let packed = PixelBuffer(count: width * 3 * height) { storage in
            let bytes = storage.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height { (bytes + y * width * 3).update(from: pixels + y * stride, count: width * 3) }
        }
        let size = PixelSize(width: width, height: height)
        return BoardPhoto(DecodedImage(size: size, stride: width * 3, hasAlpha: false, pixels: packed, sourceSize: size, format: "jpeg"))
    }
}
