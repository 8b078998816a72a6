import Foundation
import Glibc

/// `tests/servers/photo_server.py` on a free loopback port, serving a temporary folder, for
/// as long as this object lives (or until `stop`).
final class PhotoServer {
    /// What the server counted for one request target (see the script's description).
    struct Counts: Decodable {
        let requests: Int
        let statuses: [Int]
        let conditional: Int
        let body_bytes: Int
        let agents: [String]
        let ports: [Int]
    }

    let files = TempFolder()
    let port: Int
    let scheme: String
    private let process = Process()
    private let statsPath: String

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tests/servers/photo_server.py").path

    /// Starts the server; with `certificate` (a PEM certificate and key), over TLS.
    init(certificate: (cert: String, key: String)? = nil) throws {
        statsPath = files.path + ".stats.json"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var arguments = [Self.script, "--root", files.path, "--stats", statsPath]
        if let certificate { arguments += ["--cert", certificate.cert, "--key", certificate.key] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        scheme = certificate == nil ? "http" : "https"
        // The first line is "port N"; a server that fails to start closes the pipe instead.
        let descriptor = output.fileHandleForReading.fileDescriptor
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count == 2, words[0] == "port", let port = Int(words[1]) else {
            kill(process.processIdentifier, SIGKILL)
            struct NoServer: Error {}
            throw NoServer()
        }
        self.port = port
    }

    deinit {
        stop()
        unlink(statsPath)
    }

    /// Ends the server: from now on, connections to its port are refused.
    func stop() {
        guard process.isRunning else { return }
        // SIGKILL: the test runner's threads block SIGTERM, and the server inherits the mask.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The address of `target` (a path with its query) on this server.
    func url(_ target: String) -> String { "\(scheme)://127.0.0.1:\(port)\(target)" }

    /// What the server counted for `target` so far (zero when it never saw it).
    func counts(_ target: String) -> Counts {
        let data = FileManager.default.contents(atPath: statsPath) ?? Data("{}".utf8)
        let all = (try? JSONDecoder().decode([String: Counts].self, from: data)) ?? [:]
        return all[target] ?? Counts(requests: 0, statuses: [], conditional: 0, body_bytes: 0, agents: [], ports: [])
    }

    /// Puts `bytes` at `name` in the served folder.
    @discardableResult
    func serve(_ name: String, bytes: [UInt8]) -> [UInt8] {
        files.file(name, bytes: bytes)
        return bytes
    }
}

/// Random bytes (incompressible, like a photo's).
func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

/// The files in `folder` (none when it does not exist).
func filesIn(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// The bytes of the file at `path`.
func contents(_ path: String) -> [UInt8] {
    FileManager.default.contents(atPath: path).map { Array($0) } ?? []
}
