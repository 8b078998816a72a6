import Foundation

/// `search [--count N] [--app PATH]`: the real app searching a folder of N photos (hard links
/// to a few small JPEGs; one in a hundred with a sidecar tagging it "harbour"), under the X
/// display in `DISPLAY` (run it with `xvfb-run -a`). Opens the search bar and types "harbour"
/// a key at a time, timing each key from its press (xdotool) to the app's `trace filtered`
/// line, and from the app's `trace search-typed` (the key reached the search field) to it,
/// which leaves out xdotool's own start; prints the median and the worst of each. Twice: the first run with no photo index (marks
/// are read from the files as the search asks), the second on the index the first left
/// (`trace marks-indexed` at open), each on the same folder.
enum SearchCommand: BenchCommand {
    static let name = "search"
    static let arguments = "[--count N] [--app PATH]"
    static let summary = "the app searching N photos: each key typed to the filtered grid, median and worst"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--count": (100_000, 1)], texts: ["--app": appBesideThisProgram]) else { return 2 }
        let count = options.number("--count"), app = options.text("--app")
        if let problem = problemRunningApp(app) { return usageError(problem) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else { return usageError("xdotool is needed to type") }

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-search-\(getpid())").path
        let folder = work + "/photos"
        defer { try? FileManager.default.removeItem(atPath: work) }
        guard LinkedPhotoFolder.make(folder, count: count, sidecar: (Self.sidecar, 100)) else { return 1 }
        print("search: \(count) photos (hard links to 8 JPEGs, \(count / 100) tagged \"harbour\" in sidecars) in \(folder)")

        for pass in ["no index", "index filled"] {
            guard let run = runApp(app, folder: folder, cacheHome: work + "/cache") else { return 1 }
            func spread(_ times: [Int]) -> String {
                let sorted = times.sorted()
                return "median \(sorted.isEmpty ? -1 : sorted[sorted.count / 2]) ms, worst \(sorted.last ?? -1) ms"
            }
            print("  gphotobrowse (\(pass)): marks-indexed \(run.indexed) at \(run.indexedAt) ms; keys \(run.keys.map(String.init).joined(separator: " ")) ms, "
                + "in the app \(run.inApp.map(String.init).joined(separator: " ")) ms; \"harbour\" shows \(run.found) photos")
            print("search (\(pass)): \(count) photos, key to filtered grid \(spread(run.keys)); in the app \(spread(run.inApp))")
        }
        return 0
    }

    private struct AppRun {
        var keys: [Int] = []
        /// From the app's `trace search-typed` to its `trace filtered`, per key.
        var inApp: [Int] = []
        var found = -1
        var indexed = 0, indexedAt = -1
    }

    /// Starts the app on `folder`, waits until its grid shows, opens the search bar and types
    /// a key at a time, each once the previous one's result is shown; then, while marks are
    /// still read (the first run), waits for the app to be idle (five minutes at most) so that
    /// the index holds them, and ends it.
    private static func runApp(_ app: String, folder: String, cacheHome: String) -> AppRun? {
        guard let (process, stderr) = startTracedApp(app, [folder], cache: cacheHome, config: cacheHome + "/config") else { return nil }
        defer { process.terminate(); process.waitUntilExit() }
        var run = AppRun()
        let lines = TraceReader(stderr)
        guard lines.wait(for: "visible-thumbnails", seconds: 180) != nil else {
            printError("the app showed no thumbnails within 180 s")
            return nil
        }
        if let indexed = lines.waitForValue("marks-indexed", seconds: 60) { (run.indexed, run.indexedAt) = indexed }
        _ = runQuietly("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "^photos$", "windowfocus", "--sync", "key", "ctrl+f"])
        guard lines.wait(seconds: 20, { $0.count >= 3 && $0[0] == "shown" && $0[1] == "GtkSearchBar" }) != nil else {
            printError("the search bar did not open")
            return nil
        }
        for key in "harbour" {
            let before = lines.count(of: "filtered"), typedBefore = lines.count(of: "search-typed")
            let pressed = Date()
            _ = runQuietly("/usr/bin/xdotool", ["key", String(key)])
            guard let filtered = lines.wait(for: "filtered", after: before, seconds: 30) else {
                printError("no filtered grid within 30 s of \"\(key)\"")
                return nil
            }
            run.keys.append(Int(Date().timeIntervalSince(pressed) * 1000))
            let typed = lines.lines(named: "search-typed").dropFirst(typedBefore)
            if let typed = typed.first { run.inApp.append(filtered - typed.ms) }
        }
        // The marks the search asked for, read (and kept in the index) before the app ends.
        _ = waitUntilIdle(process.processIdentifier, seconds: 300)
        run.found = lines.lines(named: "filtered").last?.value ?? -1
        return run
    }

    /// The sidecar every hundredth photo has: the tag "harbour".
    private static let sidecar = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag>
        <rdf:li>harbour</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>
        """
}
