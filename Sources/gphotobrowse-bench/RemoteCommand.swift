import Foundation

/// `remote [--photos N] [--latency MS] [--site DIR] [--proxy PATH] [--app PATH]`: the real app
/// on a folder of N photos (default 10,000; a `CameraPhotoFolder`, made in a temporary
/// folder removed after, or in DIR, kept, and used as it is when it already holds one of N
/// photos) on another machine: an sftp server on loopback (`SftpServer`: OpenSSH's sshd, the
/// key in an ssh-agent) reached through tests/servers/delay_proxy.py, which delays every
/// chunk MS ms (default 10) each way and counts the bytes the server sent; under the X
/// display in `DISPLAY` (run it with `xvfb-run -a`). Side by side with gThumb on the same
/// location and with GIO's own listing (`GioListingFloor`).
///
/// Every run has a fresh session bus, so a fresh GVfs that connects anew, in a home of its
/// own, as a login would. The app runs twice in one home after an untimed launch on an empty
/// local folder that brings its libraries into memory: cold (an empty thumbnail cache), then
/// warm (the cache the first run left). From its trace lines (`GPHOTOBROWSE_TRACE=all`):
/// the folder listed (`enumerated`, from launch: the connection included) and the first
/// screen of thumbnails (`visible-thumbnails`); from the proxy, the bytes the server sent
/// until each and until the app was idle, over the photos in the folder; from the server's
/// sftp log, the files opened, how often, and the bytes read from each. gThumb runs once,
/// cold (`GThumbRemoteVisit`). The ratios are gThumb's times and GIO's over the app's. The
/// last line is the summary the docs record.
enum RemoteCommand: BenchCommand {
    static let name = "remote"
    static let arguments = "[--photos N] [--latency MS] [--site DIR] [--proxy PATH] [--app PATH]"
    static let summary = "the app on a folder over sftp with added latency: listing, first screen, bytes a photo; against gThumb and gio list"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--photos": (10_000, 1), "--latency": (10, 0)],
                                    texts: ["--app": appBesideThisProgram, "--site": "", "--proxy": DelayProxyProcess.scriptInSourceTree ?? ""]) else { return 2 }
        let count = options.number("--photos"), latency = options.number("--latency"), app = options.text("--app")
        if let problem = problemRunningApp(app) { return usageError(problem) }
        let script = options.text("--proxy")
        guard FileManager.default.fileExists(atPath: script) else { return usageError("no proxy script (give --proxy tests/servers/delay_proxy.py)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return usageError("/usr/bin/python3 is needed for the proxy") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/libexec/gvfsd-sftp") else {
            return usageError("GVfs's sftp backend is missing: install gvfs-backends (build-aux/install-deps.sh test)")
        }
        guard which("dbus-daemon") != nil else { return usageError("dbus-daemon is missing: install dbus") }

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-remote-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let kept = options.text("--site")
        let folder = CameraPhotoFolder(root: kept.isEmpty ? work + "/photos" : URL(fileURLWithPath: kept).standardizedFileURL.path, count: count)
        if !folder.isMade {
            if !kept.isEmpty, FileManager.default.fileExists(atPath: kept),
               (try? FileManager.default.contentsOfDirectory(atPath: kept))?.isEmpty == false {
                return usageError("\(kept) holds something other than a folder of \(count) photos")
            }
            let seconds = time { _ = folder.make() }
            guard folder.isMade else { return 1 }
            print(String(format: "  (made the photos in %.1f s)", seconds))
        }
        var sizes: [String: Int] = [:]
        for index in 0..<count {
            let path = folder.root + "/" + folder.photoName(index)
            sizes[path] = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }
        let photoBytes = sizes.values.reduce(0, +)
        // Read once, so that no run pays for the server's disk.
        for path in sizes.keys { _ = FileManager.default.contents(atPath: path) }

        guard let server = SftpServer(folder: work + "/ssh") else { return 1 }
        defer { server.stop() }
        guard let proxy = DelayProxyProcess(script: script, target: server.port, latencyMilliseconds: latency) else { return 1 }
        defer { proxy.stop() }
        let uri = server.uri(folder.root, port: proxy.port)
        print("remote folder: \(count) photos (\(ServerStats.size(photoBytes)), \(ServerStats.size(photoBytes / count)) each on average: "
            + "\(CameraPhotoFolder.size.0)×\(CameraPhotoFolder.size.1) JPEGs with EXIF dates and a \(CameraPhotoFolder.previewSize.0)×"
            + "\(CameraPhotoFolder.previewSize.1) preview; the EXIF block ends at byte \(folder.metadataEnd(0))), OpenSSH's sshd on loopback behind delay_proxy.py adding \(latency) ms each way "
            + "(\(2 * latency) ms a round trip): \(uri)")

        guard let homes = DesktopSession() else { return 1 }
        defer { homes.end() }
        let empty = work + "/empty"
        try? FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        AppVisit(app, folder: empty, session: homes)?.end()  // untimed: its libraries into memory

        // The floor: GIO's own listing, best of three.
        var floors: [GioListingFloor] = []
        for _ in 0..<3 {
            guard let launch = CleanLaunch(homes) else { return 1 }
            defer { launch.finish() }
            guard let floor = GioListingFloor.run(uri: uri, launch: launch, server: server, proxy: proxy) else { return 1 }
            floors.append(floor)
        }
        let floor = floors.min { $0.mountMs + $0.listMs < $1.mountMs + $1.listMs }!
        print("  gio mount \(floor.mountMs) ms (\(ServerStats.size(floor.mountCounts.toClient)) from the server), then gio list -a "
            + "\(GioListingFloor.attributes) \(floor.listMs) ms for \(floor.listed) entries (\(ServerStats.size(floor.listCounts.toClient))); "
            + "together \(floor.mountMs + floor.listMs) ms (best of \(floors.count): "
            + floors.map { "\($0.mountMs)+\($0.listMs)" }.joined(separator: " / ") + " ms)")
        if floor.listed != count { printError("gio list listed \(floor.listed) entries, not \(count)") }

        let idleSeconds = max(120, Double(count) / 10)
        guard let launch = CleanLaunch(homes) else { return 1 }
        defer { launch.finish() }
        guard let cold = RemoteAppVisit.run(app, uri: uri, photos: count, launch: launch, server: server, proxy: proxy, idleSeconds: idleSeconds) else { return 1 }
        cold.report("gphotobrowse, cold (empty thumbnail cache)", photos: count, sizes: sizes).forEach { print($0) }
        guard let warm = RemoteAppVisit.run(app, uri: uri, photos: count, launch: launch, server: server, proxy: proxy, idleSeconds: idleSeconds) else { return 1 }
        warm.report("gphotobrowse, warm (the cold run's thumbnail cache)", photos: count, sizes: sizes).forEach { print($0) }
        if cold.listed != count { printError("the app listed \(cold.listed) photos, not \(count)") }

        var gthumbPart = ", gThumb not installed"
        if let gthumb = which("gthumb") {
            guard let theirs = GThumbRemoteVisit.run(gthumb, uri: uri, folder: folder, launch: CleanLaunch(homes), server: server,
                                                     proxy: proxy, oursCount: cold.visibleCount) else { return 1 }
            theirs.report(photos: count).forEach { print($0) }
            let window = theirs.withMount(theirs.window), screen = theirs.withMount(theirs.firstScreen)
            let same = theirs.withMount(theirs.asManyAsOurs)
            print(String(format: "  gThumb with its mount: window showing the folder %d ms (%.2fx gphotobrowse's enumerated), first screen of %d %d ms "
                + "(%.2fx gphotobrowse's first screen of %d), %d thumbnails %d ms (%.2fx)", window, ratio(window, cold.enumerated),
                GThumbRemoteVisit.screenTiles, screen, ratio(screen, cold.visible), cold.visibleCount, cold.visibleCount, same, ratio(same, cold.visible)))
            gthumbPart = String(format: ", gThumb (mounted first) window %d ms (%.2fx), first screen (%d) %d ms (%.2fx), %d thumbnails %d ms (%.2fx) with %@ a thumbnail",
                                window, ratio(window, cold.enumerated), GThumbRemoteVisit.screenTiles, screen, ratio(screen, cold.visible),
                                cold.visibleCount, same, ratio(same, cold.visible),
                                ServerStats.size(theirs.perThumbnail))
        } else {
            printError("gThumb is not installed: install it with `apt-get install gthumb` (as root) to compare; measuring gphotobrowse alone")
        }

        let listingFloor = floor.mountMs + floor.listMs
        func perPhoto(_ bytes: Int) -> String { ServerStats.size(bytes / count) }
        print(String(format: "  listing: enumerated %d ms, %.2fx gio mount + list (%d ms); first screen %d ms, %.2fx gio's listing; "
            + "warm: enumerated %d ms, first screen %d ms", cold.enumerated, ratio(cold.enumerated, listingFloor), listingFloor,
            cold.visible, ratio(cold.visible, listingFloor), warm.enumerated, warm.visible))
        print("remote: \(count) photos over sftp, \(latency) ms each way, enumerated \(cold.enumerated) ms (gio mount + list \(listingFloor) ms, "
            + String(format: "%.2fx", ratio(cold.enumerated, listingFloor)) + "), first screen (\(cold.visibleCount) tiles) \(cold.visible) ms, "
            + "\(perPhoto(cold.untilFirstScreen.toClient)) a photo by the first screen, \(perPhoto(cold.whole.toClient)) a photo until idle "
            + "(\(ServerStats.size(cold.whole.toClient))), warm first screen \(warm.visible) ms with \(perPhoto(warm.whole.toClient)) a photo" + gthumbPart)
        return 0
    }

    static func ratio(_ ours: Int, _ theirs: Int) -> Double { Double(ours) / Double(max(theirs, 1)) }
}
