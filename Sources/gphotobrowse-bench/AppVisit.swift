import Foundation
import PhotoCore

/// The app running on a folder with a fresh home in a desktop session, its trace lines read
/// as they come: what the albums benchmark asks of it.
final class AppVisit {
    private let launch: CleanLaunch
    private let process: Process
    private let lines: TraceReader
    var pid: Int32 { process.processIdentifier }

    init?(_ app: String, folder: String, session: DesktopSession) {
        guard let launch = CleanLaunch(session) else { return nil }
        guard let (process, stderr) = startTracedApp(app, [folder], cache: launch.cache, config: launch.config,
                                                    environment: launch.environment) else {
            launch.finish()
            return nil
        }
        self.launch = launch
        self.process = process
        lines = TraceReader(stderr)
        // A visit that is only to bring the app into memory ends at its first frame.
        _ = lines.wait(for: "first-frame", seconds: 60)
    }

    /// Ends the app and removes its home.
    func end() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        launch.finish()
    }

    /// The opening of a tree of albums, in ms since launch.
    struct Opening {
        var firstFrame: Int
        /// `albums-first`: how many albums the switcher showed first, and when.
        var firstAlbums: (count: Int, ms: Int)
        /// The first `albums` line, with the walk over: how many albums it counted.
        var firstAlbumsLine: Int
        /// When an `albums` line counted all of them.
        var everyAlbum: Int
        /// All Photos' first screen of thumbnails.
        var visible: Int
    }

    /// Waits for the opening's trace lines (two minutes each at most); nil, said on stderr,
    /// when one does not come.
    func measureOpening(albums: Int) -> Opening? {
        func missing(_ what: String) -> Opening? {
            printError("the app did not report \(what) in time")
            return nil
        }
        guard let firstFrame = lines.wait(for: "first-frame", seconds: 120) else { return missing("first-frame") }
        guard let firstAlbums = lines.waitForValue("albums-first", seconds: 120) else { return missing("albums-first") }
        guard let walked = lines.waitForValue("albums", seconds: 120) else { return missing("albums") }
        let every = walked.value == albums ? walked.ms : lines.wait(for: "albums", albums, seconds: 120)
        guard let every else { return missing("albums \(albums)") }
        let visible = lines.wait(for: "visible-thumbnails", seconds: 120) ?? -1
        return Opening(firstFrame: firstFrame, firstAlbums: (firstAlbums.value, firstAlbums.ms), firstAlbumsLine: walked.value,
                       everyAlbum: every, visible: visible)
    }

    /// Gives the app's window the keyboard; false when it has no window shown within 20 s.
    func focus() -> Bool {
        spawnQuietly("/usr/bin/timeout", ["20", which("xdotool") ?? "xdotool", "search", "--sync", "--onlyvisible",
                                          "--pid", String(pid), "", "windowfocus", "--sync"]) == 0
    }

    /// Presses `key` with xdotool and waits for the app's next `album-shown` line; prints a
    /// line on it and returns the milliseconds from just before xdotool started to that line,
    /// on the app's clock; nil (said on stderr) when none came within 30 s. `album` is the one
    /// expected (nil: All Photos, of `allPhotos` photos), checked against the line's count.
    /// Waits for the app to be idle after (the rest of the album's thumbnails), so that each
    /// switch starts from rest: a tick of CPU time per quarter second is allowed, since the
    /// traced app keeps its frame clock running while a grid it no longer shows has not
    /// completed its view (its `visible-thumbnails` watch).
    func show(_ key: String, _ album: AlbumTree.Album?, kind: String, allPhotos: Int = 0) -> Int? {
        let before = lines.count(of: "album-shown")
        guard let pressed = Trace.millisecondsSinceStart(ofProcess: pid) else {
            printError("cannot read the app's clock")
            return nil
        }
        spawnQuietly(which("xdotool") ?? "xdotool", ["key", key])
        let name = album?.path ?? "All Photos", expected = album?.photos ?? allPhotos
        guard let shown = lines.waitForValue("album-shown", after: before, seconds: 30) else {
            printError("no album-shown within 30 s of \(key) (to \(name))")
            return nil
        }
        let wait = shown.ms - pressed
        let check = shown.value == expected ? "" : "  (expected \(expected) photos: another album?)"
        let label = "\(key) → \(name) (\(shown.value) photos, \(kind))"
        print("  " + label.padding(toLength: 68, withPad: " ", startingAt: 0) + " album-shown \(wait) ms after the key" + check)
        if !waitUntilIdle(pid, seconds: 20, allowing: 1) { printError("the app was still busy 20 s after \(key)") }
        return wait
    }
}
