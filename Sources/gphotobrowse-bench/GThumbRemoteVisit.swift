import Foundation

/// gThumb on the same folder on the server, once, cold: a fresh home (an empty thumbnail
/// cache) in a session of its own (`RemoteSession`). gThumb does not connect by itself: given
/// an sftp:// location that is not mounted, it opens its home folder instead (GLib warns
/// `g_file_new_for_path: assertion 'path != NULL' failed`), so the location is mounted first
/// with `gio mount`, as Files would have, and that is timed on its own.
///
/// From gThumb's launch: its window titled with the folder's name (it titles it as it loads
/// the folder; polled with xdotool every 10 ms); its first screen of thumbnails, as
/// first-screen detects it, by the thumbnails it writes to the freedesktop cache under the
/// remote URIs: those of the first `screenTiles` photos in its order (oldest modified first,
/// its default: photo N-1, N-2, …), the tiles its window shows on a 1280 × 1024 screen; and
/// as many thumbnails as the app's first screen had tiles. The proxy's counts at each. gThumb
/// thumbnails the whole folder in the background after (about four photos a second here),
/// so it is ended there.
struct GThumbRemoteVisit {
    var mountMs = 0
    /// Milliseconds from gThumb's launch; -1 when it did not come within the deadline.
    var window = -1, firstThumbnail = -1, firstScreen = -1, asManyAsOurs = -1
    var oursCount = 0
    var untilWindow = DelayProxyProcess.Counts(), untilFirstScreen = DelayProxyProcess.Counts(), untilAsManyAsOurs = DelayProxyProcess.Counts()
    var mountCounts = DelayProxyProcess.Counts()

    /// gThumb's window on a 1280 × 1024 screen (its default size, 990 × 790) shows 4 × 4 tiles
    /// of 128 px.
    static let screenTiles = 16
    static let deadline = 180.0

    /// One run; nil, said on stderr, when the mount fails or gThumb cannot start.
    static func run(_ gthumb: String, uri: String, folder: CameraPhotoFolder, launch: CleanLaunch?, server: SftpServer,
                    proxy: DelayProxyProcess, oursCount: Int) -> GThumbRemoteVisit? {
        guard let launch, let gio = which("gio"), let xdotool = which("xdotool") else {
            printError("gThumb's run needs gio (libglib2.0-bin) and xdotool")
            return nil
        }
        defer { launch.finish() }
        guard let session = RemoteSession(launch, agentSocket: server.agentSocket) else { return nil }
        defer { session.end() }
        var visit = GThumbRemoteVisit()
        visit.oursCount = oursCount
        var before = proxy.counts()
        guard let mount = runToEnd(gio, ["mount", uri], session.environment), mount.status == 0 else {
            printError("gio mount \(uri) failed before gThumb's run; sshd said: " + server.sshdLogText.suffix(600))
            return nil
        }
        visit.mountMs = mount.ms
        visit.mountCounts = proxy.counts() - before

        before = proxy.counts()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gthumb)
        process.arguments = [uri]
        process.environment = session.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice  // exiv2's and GLib's warnings
        let started = Date()
        do { try process.run() } catch {
            printError("could not start \(gthumb): \(error)")
            return nil
        }
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        func since() -> Int { Int(Date().timeIntervalSince(started) * 1000) }
        let title = "^" + NSRegularExpression.escapedPattern(for: URL(fileURLWithPath: folder.root).lastPathComponent) + "$"
        while Date().timeIntervalSince(started) < deadline {
            if spawnQuietly(xdotool, ["search", "--onlyvisible", "--name", title]) == 0 {
                visit.window = since()
                visit.untilWindow = proxy.counts() - before
                break
            }
            usleep(10_000)
        }
        // Its order: oldest modified first, so the folder's last photo first.
        let order = (0..<folder.count).reversed().map { "\(uri)/\(folder.photoName($0))" }
        func wait(for count: Int) -> Int {
            launch.waitForThumbnails(of: Array(order.prefix(count)), since: started, deadline: deadline).map { Int($0 * 1000) } ?? -1
        }
        visit.firstThumbnail = wait(for: 1)
        visit.firstScreen = wait(for: min(screenTiles, folder.count))
        visit.untilFirstScreen = proxy.counts() - before
        visit.asManyAsOurs = wait(for: min(oursCount, folder.count))
        visit.untilAsManyAsOurs = proxy.counts() - before
        return visit
    }

    func report(photos: Int) -> [String] {
        func ms(_ value: Int) -> String { value >= 0 ? "\(value) ms" : "not within \(Int(Self.deadline)) s" }
        func perPhoto(_ bytes: Int) -> String { ServerStats.size(bytes / max(photos, 1)) }
        return [
            "  gThumb, cold (empty thumbnail cache): gio mount first \(mountMs) ms (\(ServerStats.size(mountCounts.toClient))); from its launch: "
                + "window titled with the folder \(ms(window)), first thumbnail \(ms(firstThumbnail)), first screen (\(Self.screenTiles) thumbnails) "
                + "\(ms(firstScreen)), \(oursCount) thumbnails (as many as gphotobrowse's first screen) \(ms(asManyAsOurs))",
            "    from the server (proxy), from its launch: until its window \(ServerStats.size(untilWindow.toClient)), until its first screen "
                + "\(ServerStats.size(untilFirstScreen.toClient)) (\(perPhoto(untilFirstScreen.toClient)) a photo), until \(oursCount) thumbnails "
                + "\(ServerStats.size(untilAsManyAsOurs.toClient)) (after its window \(ServerStats.size(perThumbnail)) a thumbnail)",
        ]
    }

    /// What the server sent for each thumbnail, from the window (the listing) to the app's
    /// first screen's count of thumbnails.
    var perThumbnail: Int { (untilAsManyAsOurs.toClient - untilWindow.toClient) / max(oursCount, 1) }

    /// Milliseconds from launch with the mount before it: what the app's figures include.
    func withMount(_ value: Int) -> Int { value >= 0 ? mountMs + value : -1 }
}
