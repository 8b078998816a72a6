import Foundation
import PhotoCore

/// One visit of the real app to a web album: started on its address in `launch`'s home (a
/// second visit in the same home has the first one's download cache), traced with a line per
/// tile, and the photo server's stats read as its first screen is shown and once it is idle.
struct WebVisit {
    /// Milliseconds since the app started.
    var firstFrame = -1, webList = -1, enumerated = -1, visible = -1
    /// The first `tile-requested` line: a tile had its place in the grid, so the frame
    /// before it drew the placeholders (see `run`).
    var firstTilePlaced = -1
    /// Tiles in view in the first screen (`visible-thumbnails COUNT`).
    var visibleCount = 0
    /// `tile-requested` lines before `visible-thumbnails`, and their indices.
    var tilesRequestedBeforeVisible: [Int] = []
    /// What the server answered from launch until the bench read `visible-thumbnails`, and
    /// until the app was idle after.
    var untilFirstScreen = ServerStats(), whole = ServerStats()
    var peakKiB = 0

    /// Runs the app on `url` until its first screen of thumbnails and then until it is idle
    /// (the prefetch done; a minute at most); nil, said on stderr, when a milestone does not
    /// come within two minutes.
    ///
    /// Placeholders: the grid's scheduler runs at the start of a frame, and asks for a tile's
    /// thumbnail (`tile-requested`) only once the tile has a size and a place, which a
    /// layout gives it; GTK paints in the same frame as it lays out, so the tile's placeholder
    /// was drawn in the frame before the first `tile-requested` line. That line is thus at
    /// most a frame (about 17 ms) after the placeholders were drawn: an upper bound.
    static func run(_ app: String, url: String, launch: CleanLaunch, server: PhotoServerProcess) -> WebVisit? {
        let before = server.stats()
        guard let (process, stderr) = startTracedApp(app, [url], cache: launch.cache, config: launch.config,
                                                    environment: launch.environment, trace: "all") else { return nil }
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let lines = TraceReader(stderr)
        var visit = WebVisit()
        func missing(_ what: String) -> WebVisit? {
            printError("the app did not report \(what) within 120 s")
            return nil
        }
        guard let firstFrame = lines.wait(for: "first-frame", seconds: 120) else { return missing("first-frame") }
        guard let webList = lines.wait(for: "web-list", seconds: 120) else { return missing("web-list") }
        guard let enumerated = lines.wait(for: "enumerated", seconds: 120) else { return missing("enumerated") }
        guard let visible = lines.waitForValue("visible-thumbnails", seconds: 120) else { return missing("visible-thumbnails") }
        visit.untilFirstScreen = server.stats().since(before)
        guard let placed = lines.wait(for: "tile-requested", seconds: 5) else { return missing("tile-requested") }
        (visit.firstFrame, visit.webList, visit.enumerated, visit.firstTilePlaced) = (firstFrame, webList, enumerated, placed)
        (visit.visibleCount, visit.visible) = visible
        visit.tilesRequestedBeforeVisible = lines.lines(named: "tile-requested").filter { $0.ms <= visible.ms }.map(\.value)
        if !waitUntilIdle(process.processIdentifier, seconds: 60, allowing: 1) { printError("the app was still busy 60 s after its first screen") }
        visit.whole = server.statsOnceQuiet(seconds: 10).since(before)
        visit.peakKiB = peakResidentKiB(process.processIdentifier)
        return visit
    }

    /// The visit's lines for the report, its server figures split by kind of target.
    func report(_ label: String, site: WebAlbumSite) -> [String] {
        let isThumbnail = { (target: String) in target.hasPrefix("/t/") }
        let isList = { (target: String) in target.hasPrefix("/" + WebAlbumSite.listName) }
        let photos = whole.filter { !isThumbnail($0) && !isList($0) }
        var lines = [
            "  \(label): first-frame \(firstFrame) ms, web-list \(webList) ms, enumerated \(enumerated) ms (\(enumerated - webList) ms after web-list), "
                + "first tile placed \(firstTilePlaced) ms (\(firstTilePlaced - webList) ms after web-list), "
                + "visible-thumbnails \(visibleCount) at \(visible) ms (\(visible - webList) ms after web-list)",
            "    until the first screen: " + untilFirstScreen.description + "; of them thumbnails: "
                + "\(untilFirstScreen.filter(isThumbnail).requests), tiles asked for (tile-requested) \(tilesRequestedBeforeVisible.count)",
            "    whole visit (until idle): " + whole.description + "; list " + whole.filter(isList).description
                + "; thumbnails " + whole.filter(isThumbnail).description + "; photos " + photos.description,
            "    peak RSS \(peakKiB / 1024) MiB",
        ]
        let repeated = whole.repeated
        if !repeated.isEmpty {
            lines.append("    requested more than once in this visit: \(repeated.count) targets, e.g. " + repeated.prefix(5).joined(separator: " "))
        }
        let firstScreen = Set(0..<visibleCount)
        let asked = Set(tilesRequestedBeforeVisible)
        if !firstScreen.isSubset(of: asked) && !tilesRequestedBeforeVisible.isEmpty {
            lines.append("    (tiles 0–\(visibleCount - 1) are the first screen; \(firstScreen.subtracting(asked).count) of them were not asked for by then)")
        }
        return lines
    }
}
