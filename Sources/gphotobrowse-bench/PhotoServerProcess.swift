import Foundation

/// tests/servers/photo_server.py serving a folder on a loopback port, each request answered
/// after an added latency, counting what it answered per request target in its stats file.
/// It ends with this process (it watches its parent) or at `stop`.
final class PhotoServerProcess {
    private let process = Process()
    private let statsPath: String
    private(set) var port = 0

    /// The server script in this source tree (see `fileInSourceTree`).
    static var scriptInSourceTree: String? { fileInSourceTree("tests/servers/photo_server.py") }

    /// Starts `script` with Debian's python3 on `root`; nil, said on stderr, when it does not
    /// print its port.
    init?(script: String, root: String, stats: String, latencyMilliseconds: Int) {
        statsPath = stats
        guard let fields = startServerScript(process, script: script, arguments: ["--root", root, "--stats", stats, "--latency", String(latencyMilliseconds)]),
              fields.count == 2, fields[0] == "port", let port = Int(fields[1]) else {
            printError("the photo server did not say its port")
            stop()
            return nil
        }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/" + path }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// What the server has answered so far.
    func stats() -> ServerStats {
        guard let data = FileManager.default.contents(atPath: statsPath),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else { return ServerStats() }
        var stats = ServerStats()
        for (target, entry) in json {
            stats.targets[target] = ServerStats.Target(statuses: entry["statuses"] as? [Int] ?? [],
                                                       bodyBytes: entry["body_bytes"] as? Int ?? 0)
        }
        return stats
    }

    /// The stats once they have not changed for a second (`seconds` at most).
    func statsOnceQuiet(seconds: Double) -> ServerStats {
        let deadline = Date().addingTimeInterval(seconds)
        var last = stats(), quiet = 0
        while Date() < deadline && quiet < 4 {
            Thread.sleep(forTimeInterval: 0.25)
            let now = stats()
            quiet = now == last ? quiet + 1 : 0
            last = now
        }
        return last
    }
}

/// The photo server's stats at one moment, or what changed between two moments: per request
/// target (path and query), the status of each request and the body bytes sent.
struct ServerStats: Equatable {
    struct Target: Equatable {
        var statuses: [Int] = []
        var bodyBytes = 0
    }

    var targets: [String: Target] = [:]

    /// What the server answered after `earlier`.
    func since(_ earlier: ServerStats) -> ServerStats {
        var change = ServerStats()
        for (target, now) in targets {
            let before = earlier.targets[target] ?? Target()
            let new = Target(statuses: Array(now.statuses.dropFirst(before.statuses.count)), bodyBytes: now.bodyBytes - before.bodyBytes)
            if !new.statuses.isEmpty || new.bodyBytes != 0 { change.targets[target] = new }
        }
        return change
    }

    /// Only the targets that `include` accepts.
    func filter(_ include: (String) -> Bool) -> ServerStats {
        ServerStats(targets: targets.filter { include($0.key) })
    }

    var requests: Int { targets.values.reduce(0) { $0 + $1.statuses.count } }
    /// Requests answered with a body (200).
    var withBody: Int { count { $0 == 200 } }
    /// Requests answered 304 Not Modified (no body).
    var notModified: Int { count { $0 == 304 } }
    var bodyBytes: Int { targets.values.reduce(0) { $0 + $1.bodyBytes } }
    /// Targets requested more than once.
    var repeated: [String] { targets.filter { $0.value.statuses.count > 1 }.keys.sorted() }

    private func count(_ matches: (Int) -> Bool) -> Int {
        targets.values.reduce(0) { $0 + $1.statuses.filter(matches).count }
    }

    /// "41 requests (40 with a body, 1 × 304), 812.3 KB of bodies".
    var description: String {
        var parts = ["\(withBody) with a body", "\(notModified) × 304"]
        let other = requests - withBody - notModified
        if other > 0 { parts.append("\(other) other") }
        return "\(requests) request\(requests == 1 ? "" : "s") (" + parts.joined(separator: ", ") + "), " + Self.size(bodyBytes) + " of bodies"
    }

    /// Bytes for people: "812.3 KB", "12.6 MB".
    static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? String(format: "%.1f MB", Double(bytes) / 1e6) : String(format: "%.1f KB", Double(bytes) / 1e3)
    }
}

/// The file at `relative` in this source tree: found from this program's folder upward (a
/// build tree inside the checkout), then from the current folder upward; nil when neither
/// holds it.
func fileInSourceTree(_ relative: String) -> String? {
    let starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
                  URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
    for start in starts {
        var folder = start.standardizedFileURL
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
    }
    return nil
}
