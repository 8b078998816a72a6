import Foundation

/// `web [--photos N] [--latency MS] [--runs N] [--site DIR] [--server PATH] [--app PATH]`: the
/// real app on a web album of N photos (default 1,000; a `WebAlbumSite` made in a temporary
/// folder removed after, or in DIR, kept, and used as it is when it already holds one of N
/// photos) served on loopback by tests/servers/photo_server.py answering each request MS
/// later (default 20), under the X display in `DISPLAY` (run it with `xvfb-run -a`); beside
/// curl fetching the same first screen over six connections, as a browser would.
///
/// The app runs twice in one home after an untimed launch that brings its libraries into
/// memory: a first visit with an empty download cache, then a second with the cache the
/// first left. From its trace lines (`GPHOTOBROWSE_TRACE=all`): the list read (`web-list`),
/// the album listed (`enumerated`), the first tile placed in the grid (the first
/// `tile-requested`: at most a frame after the placeholders were drawn, see `WebVisit`;
/// target: within 200 ms of `web-list`) and the first screen of thumbnails
/// (`visible-thumbnails`), from launch and from `web-list`. From the server's stats: what
/// each visit asked for, answered with a body or 304, and the body bytes it was sent, until
/// the first screen and until the app was idle (the prefetch done).
///
/// curl then fetches, best of `--runs` (default 3): the first screen's thumbnails (the
/// first visit's `visible-thumbnails COUNT` photos: the grid's first COUNT, as the list is
/// newest first), and the list followed by them. The ratios are the app's times over
/// curl's: its overhead over the network. The last line is the summary the docs record.
enum WebCommand: BenchCommand {
    static let name = "web"
    static let arguments = "[--photos N] [--latency MS] [--runs N] [--site DIR] [--server PATH] [--app PATH]"
    static let summary = "the app on a web album over a slow loopback server: placeholders, first screen, second visit; against curl"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--photos": (1000, 1), "--latency": (20, 0), "--runs": (3, 1)],
                                    texts: ["--app": appBesideThisProgram, "--site": "", "--server": PhotoServerProcess.scriptInSourceTree ?? ""]) else { return 2 }
        let count = options.number("--photos"), latency = options.number("--latency"), app = options.text("--app")
        if let problem = problemRunningApp(app) { return usageError(problem) }
        let script = options.text("--server")
        guard FileManager.default.fileExists(atPath: script) else { return usageError("no photo server script (give --server tests/servers/photo_server.py)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return usageError("/usr/bin/python3 is needed for the photo server") }
        guard let curl = ParallelCurl.installed() else { return 1 }

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-web-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let kept = options.text("--site")
        let site = WebAlbumSite(root: kept.isEmpty ? work + "/site" : URL(fileURLWithPath: kept).standardizedFileURL.path, count: count)
        if !site.isMade {
            if !kept.isEmpty, FileManager.default.fileExists(atPath: kept) { return usageError("\(kept) exists and holds no site of \(count) photos") }
            let seconds = time { _ = site.make() }
            guard site.isMade else { return 1 }
            print(String(format: "  (made the site in %.1f s)", seconds))
        }
        let bytes = site.bytes()
        print("web album: \(count) photos (\(ServerStats.size(bytes.photos)), 1.2 to 3.1 MP JPEGs), thumbnails of "
            + "\(WebAlbumSite.thumbnailSize.0)×\(WebAlbumSite.thumbnailSize.1) (\(ServerStats.size(bytes.thumbnails / count)) each on average), "
            + "list \(ServerStats.size(bytes.list)), served on loopback by photo_server.py with \(latency) ms added to each request")

        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        // The server rewrites its stats file before each answer: in memory (tmpfs) where there
        // is one, so that this costs it well under a millisecond a request.
        let memory = "/dev/shm"
        let stats = (access(memory, W_OK) == 0 ? memory + "/gphotobrowse-web-\(getpid())" : work) + "-stats.json"
        defer { try? FileManager.default.removeItem(atPath: stats) }
        guard let server = PhotoServerProcess(script: script, root: site.root, stats: stats, latencyMilliseconds: latency) else { return 1 }
        defer { server.stop() }
        let listURL = server.url(WebAlbumSite.listName)
        guard let session = DesktopSession() else { return 1 }
        defer { session.end() }
        let empty = work + "/empty"
        try? FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        AppVisit(app, folder: empty, session: session)?.end()  // untimed: its libraries into memory

        guard let launch = CleanLaunch(session) else { return 1 }
        defer { launch.finish() }
        guard let first = WebVisit.run(app, url: listURL, launch: launch, server: server) else { return 1 }
        first.report("gphotobrowse, first visit (empty download cache)", site: site).forEach { print($0) }
        guard let second = WebVisit.run(app, url: listURL, launch: launch, server: server) else { return 1 }
        second.report("gphotobrowse, second visit (the first visit's cache)", site: site).forEach { print($0) }

        let thumbnails = (0..<first.visibleCount).map { server.url(site.thumbnailPath($0)) }
        var alone: [Double] = [], withList: [Double] = []
        for _ in 0..<options.number("--runs") {
            guard let fetched = curl.fetch(thumbnails) else { return 1 }
            alone.append(fetched)
            guard let list = curl.fetch([listURL]), let then = curl.fetch(thumbnails) else { return 1 }
            withList.append(list + then)
        }
        let curlThumbnails = Int(alone.min()! * 1000), curlWithList = Int(withList.min()! * 1000)
        let floor = (thumbnails.count + curl.connections - 1) / curl.connections * latency
        print("  curl --parallel --parallel-immediate --parallel-max \(curl.connections), the first screen's \(thumbnails.count) thumbnails: "
            + "\(curlThumbnails) ms; the list, then them: \(curlWithList) ms (best of \(alone.count); runs "
            + alone.map { String(Int($0 * 1000)) }.joined(separator: "/") + " and " + withList.map { String(Int($0 * 1000)) }.joined(separator: "/")
            + " ms); the latency alone: \(floor) ms for the thumbnails (\(thumbnails.count) requests, \(curl.connections) at a time, \(latency) ms each)")

        let asked = Set(first.untilFirstScreen.targets.keys)
        let notAsked = (0..<first.visibleCount).filter { !asked.contains("/" + site.thumbnailPath($0)) }
        if !notAsked.isEmpty {
            printError("the app's first screen did not download the thumbnails of photos \(notAsked.prefix(5)) that curl fetches: another order?")
        }
        let afterList = first.visible - first.webList, afterPlaced = first.visible - first.firstTilePlaced
        let placeholders = first.firstTilePlaced - first.webList
        print(String(format: "  first screen: from web-list %d ms, %.2fx curl's thumbnails; from launch %d ms, %.2fx curl's list and thumbnails",
                     afterList, ratio(afterList, curlThumbnails), first.visible, ratio(first.visible, curlWithList))
            + String(format: "; from the first tile placed %d ms, %.2fx curl's thumbnails", afterPlaced, ratio(afterPlaced, curlThumbnails)))
        let secondAsked = second.whole
        print("web: \(count) photos, \(latency) ms latency, placeholders \(placeholders) ms after web-list (target 200; enumerated "
            + "\(first.enumerated - first.webList) ms after), first screen (\(first.visibleCount) thumbnails) \(afterList) ms after web-list / "
            + "\(first.visible) ms from launch, curl \(curlThumbnails) ms / \(curlWithList) ms with the list "
            + String(format: "(%.2fx / %.2fx)", ratio(afterList, curlThumbnails), ratio(first.visible, curlWithList))
            + ", first visit \(first.whole.requests) requests \(ServerStats.size(first.whole.bodyBytes)), second visit "
            + "\(secondAsked.requests) request\(secondAsked.requests == 1 ? "" : "s") (\(secondAsked.withBody) with a body, \(secondAsked.notModified) × 304) "
            + "\(ServerStats.size(secondAsked.bodyBytes)), first screen \(second.visible) ms from launch")
        return 0
    }

    private static func ratio(_ ours: Int, _ theirs: Int) -> Double { Double(ours) / Double(max(theirs, 1)) }
}
