import Foundation
import PhotoCore

/// `albums [--albums N] [--photos N] [--switches N] [--tree DIR] [--app PATH]`: the real app on
/// a tree of N albums (default 200) holding 50,000 photos (an `AlbumTree`, made in a temporary
/// folder removed after, or in DIR, which must not exist, and kept), under the X display in
/// `DISPLAY` (run it with `xvfb-run -a`), beside `find` walking the same tree and gThumb
/// loading its root in its folder tree.
///
/// From the app's trace lines: the first frame; the switcher's first albums
/// (`albums-first`, target: within 300 ms of the first frame); every album found with its
/// count (the first `albums` line with all N, target: within `find`'s time plus a second of
/// launch). Once the app is idle it moves with real key presses (xdotool): Ctrl+Page Down
/// through the first albums (`--switches`, default 8), then back to albums already seen:
/// Ctrl+Page Up (the one before, whose page the app keeps), Alt+2, Alt+3… (the first albums,
/// whose pages the app, keeping 6, has let go) and Alt+1 (All Photos, always kept). Each
/// wait runs from just before xdotool starts to the app's `album-shown` line, both on the
/// app's clock (target for an album already seen: 150 ms). Then the app's peak resident
/// memory (target: under 350 MB).
///
/// Each app runs once, after one untimed launch of each that brings its libraries into
/// memory, with a fresh home in one desktop session (`DesktopSession`), as first-screen
/// runs them. The last line is the summary the docs record.
enum AlbumsCommand: BenchCommand {
    static let name = "albums"
    static let arguments = "[--albums N] [--photos N] [--switches N] [--tree DIR] [--app PATH]"
    static let summary = "the app on a tree of albums: the switcher, every album, switching back, peak memory; against find and gThumb"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--albums": (200, 2), "--photos": (50_000, 2), "--switches": (8, 2)],
                                    texts: ["--app": appBesideThisProgram, "--tree": ""]) else { return 2 }
        let albumCount = options.number("--albums"), photoCount = options.number("--photos")
        let switches = options.number("--switches"), app = options.text("--app")
        guard photoCount >= albumCount else { return usageError("--photos must be at least --albums") }
        guard switches < albumCount else { return usageError("--switches must be less than --albums") }
        if let problem = problemRunningApp(app) { return usageError(problem) }
        guard let xdotool = which("xdotool") else { return usageError("xdotool is needed (build-aux/install-deps.sh test)") }

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-albums-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let kept = options.text("--tree")
        if !kept.isEmpty, FileManager.default.fileExists(atPath: kept) { return usageError("\(kept) exists: give a new folder for the tree") }
        let root = kept.isEmpty ? work + "/photos" : URL(fileURLWithPath: kept).standardizedFileURL.path
        let tree = AlbumTree(root: root, albumCount: albumCount, photoCount: photoCount)
        guard tree.make() else { return 1 }
        print("albums: " + tree.description)

        // Right after the tree was made: its folders and inodes are in the kernel's caches.
        let find = Int(time { spawnQuietly("/usr/bin/find", [tree.root, "-type", "f"]) } * 1000)
        print("  find DIR -type f                 \(find) ms (the tree just made, so in the kernel's caches)")

        guard let session = DesktopSession() else { return 1 }
        defer { session.end() }
        var gthumbRoot: Int?
        if let gthumb = which("gthumb") {
            _ = launchGThumb(gthumb, tree.root, xdotool, session)  // untimed: its libraries into memory
            gthumbRoot = launchGThumb(gthumb, tree.root, xdotool, session)
            print("  gThumb: launch to the root loaded (its window titled “\(URL(fileURLWithPath: tree.root).lastPathComponent)”, the folder tree at the root) "
                + (gthumbRoot.map { "\($0) ms" } ?? "not within 60 s"))
        } else {
            printError("gThumb is not installed: install it with `apt-get install gthumb` (as root) to compare; measuring gphotobrowse alone")
        }

        let empty = work + "/empty"
        try? FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        AppVisit(app, folder: empty, session: session)?.end()  // untimed: its libraries into memory
        guard let visit = AppVisit(app, folder: tree.root, session: session) else { return 1 }
        defer { visit.end() }
        guard let opening = visit.measureOpening(albums: albumCount) else { return 1 }
        print("  gphotobrowse: first-frame \(opening.firstFrame) ms, albums-first \(opening.firstAlbums.count) albums at "
            + "\(opening.firstAlbums.ms) ms (\(relative(opening.firstAlbums.ms - opening.firstFrame)) first-frame), every album (\(albumCount)) at "
            + "\(opening.everyAlbum) ms (find + 1 s: \(find + 1000) ms), All Photos' first screen (visible-thumbnails) \(opening.visible) ms")
        if opening.firstAlbumsLine != albumCount {
            print("  (the first `albums` line counted \(opening.firstAlbumsLine) albums)")
        }
        if !waitUntilIdle(visit.pid, seconds: 180, allowing: 1) { printError("the app was still busy 180 s after opening the tree") }
        print("  peak RSS once the tree was listed and its dates read: \(peakResidentKiB(visit.pid) / 1024) MiB")
        guard visit.focus() else {
            printError("the app showed no window to give the keyboard to")
            return 1
        }

        var switchesShown: [Int] = [], seen: [Int] = []
        for step in 1...switches {
            guard let wait = visit.show("ctrl+Page_Down", tree.albums[step - 1], kind: "first visit") else { return 1 }
            switchesShown.append(wait)
        }
        // The app keeps 6 pages, All Photos' always: after Ctrl+Page Up, those of the first
        // `switches - 5` albums (Alt+2 on) have been let go.
        let letGo = (0..<min(8, max(0, switches - (keptPages - 1)))).map { ("alt+\($0 + 2)", Optional(tree.albums[$0]), "seen, page let go") }
        let back = [("ctrl+Page_Up", tree.albums[switches - 2], "seen, page kept")] + letGo + [("alt+1", nil, "seen, page always kept")]
        for (key, album, kind) in back {
            guard let wait = visit.show(key, album, kind: kind, allPhotos: photoCount) else { return 1 }
            seen.append(wait)
        }
        if !waitUntilIdle(visit.pid, seconds: 20, allowing: 1) { printError("the app was still busy 20 s after the last switch") }
        let peak = peakResidentKiB(visit.pid)
        print("  peak RSS over the whole visit \(peak / 1024) MiB (\(peak * 1024 / 1_000_000) MB)")

        let sortedFirst = switchesShown.sorted()
        var summary = "albums: \(albumCount) albums, \(photoCount) photos, albums-first \(relative(opening.firstAlbums.ms - opening.firstFrame)) "
            + "first-frame (target 300 after), every album at \(opening.everyAlbum) ms (find \(find) ms + 1 s), album-shown "
            + "first visit median \(sortedFirst[sortedFirst.count / 2]) ms / worst \(sortedFirst.last!) ms, "
            + "seen \(seen.map(String.init).joined(separator: " / ")) ms (target 150), peak RSS \(peak * 1024 / 1_000_000) MB (target 350)"
        if let gthumbRoot {
            summary += String(format: ", gThumb root %d ms (%.2fx albums-first)", gthumbRoot, Double(gthumbRoot) / Double(opening.firstAlbums.ms))
        }
        print(summary)
        return 0
    }

    /// "12 ms after" or "40 ms before".
    private static func relative(_ ms: Int) -> String { ms < 0 ? "\(-ms) ms before" : "\(ms) ms after" }

    /// How many albums' pages the app keeps (`OpenFolder.keptPages`), All Photos' among them.
    private static let keptPages = 6

    /// gThumb launched on `root` with a fresh home: milliseconds until its window is titled
    /// with the root's name, which it does as it loads the folder, within a frame or a few of
    /// the end (polled with xdotool every 10 ms); nil when not within a minute.
    private static func launchGThumb(_ gthumb: String, _ root: String, _ xdotool: String, _ session: DesktopSession) -> Int? {
        guard let launch = CleanLaunch(session) else { return nil }
        defer { launch.finish() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gthumb)
        process.arguments = [root]
        process.environment = launch.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let title = "^" + URL(fileURLWithPath: root).lastPathComponent + "$"
        let started = Date()
        guard (try? process.run()) != nil else { return nil }
        defer { process.terminate(); process.waitUntilExit() }
        while Date().timeIntervalSince(started) < 60 {
            if spawnQuietly(xdotool, ["search", "--onlyvisible", "--name", title]) == 0 {
                return Int(Date().timeIntervalSince(started) * 1000)
            }
            usleep(10_000)
        }
        return nil
    }
}
