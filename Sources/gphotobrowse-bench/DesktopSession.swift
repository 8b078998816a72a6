import Foundation
import PhotoCore
import PhotoIO

// A desktop session for the apps a benchmark launches, and a fresh home for each launch.

/// What a desktop session gives the apps it launches: a session bus (GApplication
/// registers on it; GTK 4 asks the document portal for file transfers at start-up, which
/// the bus starts once) and a runtime folder. One for the whole benchmark, as a login
/// session outlives the apps launched in it; ended, with the portals it started, at the end.
/// The services the bus starts (the portals, GVfs's daemons) run in `environment`, this
/// process's when none is given; its folders are under `root` (made and removed with it),
/// a folder of its own in the temporary folder when none is given.
final class DesktopSession {
    let root: String
    var runtime: String { root + "/run" }
    /// The bus's address; "disabled:" when dbus-daemon is missing.
    private(set) var busAddress = "disabled:"
    private var bus: Process?

    init?(environment base: [String: String]? = nil, root given: String? = nil) {
        root = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-session-\(getpid())").path
        guard (try? FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)) != nil else {
            printError("cannot make \(runtime)")
            return nil
        }
        chmod(runtime, 0o700)
        guard let daemon = which("dbus-daemon") else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: daemon)
        process.arguments = ["--session", "--nofork", "--print-address"]
        var environment = base ?? ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime  // where the document portal mounts itself
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        bus = process
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if !address.isEmpty { busAddress = address }
    }

    func end() {
        if let bus {
            bus.terminate()  // the portals it started leave with it, unmounting what they mounted
            bus.waitUntilExit()
        }
        for _ in 0..<50 {
            if (try? FileManager.default.removeItem(atPath: root)) != nil { return }
            usleep(100_000)
        }
        printError("could not remove \(root)")
    }
}

/// A fresh home for one launch in `session`: its own HOME and XDG folders (so an empty
/// thumbnail cache and no settings), removed after.
final class CleanLaunch {
    let root: String
    var cache: String { root + "/home/.cache" }
    var config: String { root + "/home/.config" }
    let environment: [String: String]

    init?(_ session: DesktopSession) {
        root = session.root + "/launch-" + UUID().uuidString.prefix(8)
        let home = root + "/home"
        for folder in [home + "/.cache", home + "/.config", home + "/.local/share"] {
            guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else {
                printError("cannot make \(folder)")
                return nil
            }
        }
        var environment = ProcessInfo.processInfo.environment
        for name in ["GTK_THEME", "GDK_SCALE", "GDK_DPI_SCALE", "GTK_MODULES", "GPHOTOBROWSE_TRACE"] {
            environment[name] = nil
        }
        environment.merge([
            "HOME": home,
            "XDG_CACHE_HOME": home + "/.cache",
            "XDG_CONFIG_HOME": home + "/.config",
            "XDG_DATA_HOME": home + "/.local/share",
            "XDG_RUNTIME_DIR": session.runtime,
            "DBUS_SESSION_BUS_ADDRESS": session.busAddress,
            "GSK_RENDERER": "cairo",
            "GDK_BACKEND": "x11",
            "GSETTINGS_BACKEND": "memory",
            "NO_AT_BRIDGE": "1",
            "GTK_A11Y": "none",
            "LANG": "C.UTF-8",
        ]) { _, new in new }
        self.environment = environment
    }

    /// Seconds from `started` until every URI has a thumbnail of some size in this run's
    /// cache (checked every 5 ms); nil after `deadline` seconds.
    func waitForThumbnails(of uris: [String], since started: Date, deadline: Double) -> Double? {
        let layout = ThumbnailCacheLayout(cacheHome: cache)
        var missing = uris.map { uri in ThumbnailSize.allCases.map { layout.path(forURI: uri, size: $0) } }
        while true {
            missing.removeAll { candidates in candidates.contains { access($0, F_OK) == 0 } }
            let elapsed = Date().timeIntervalSince(started)
            if missing.isEmpty { return elapsed }
            if elapsed > deadline { return nil }
            usleep(5_000)
        }
    }

    func finish() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
