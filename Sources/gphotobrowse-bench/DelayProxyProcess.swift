import Foundation

/// tests/servers/delay_proxy.py between the clients and a server on loopback: each chunk
/// forwarded after an added latency in each direction, the bytes it forwarded counted. It
/// ends with this process (it watches its parent) or at `stop`.
final class DelayProxyProcess {
    private let process = Process()
    private(set) var port = 0
    private var statsPort = 0

    static var scriptInSourceTree: String? { fileInSourceTree("tests/servers/delay_proxy.py") }

    /// What the proxy has forwarded so far.
    struct Counts: Equatable {
        var connections = 0
        /// Bytes sent on to the clients (what the server sent), and on to the server.
        var toClient = 0, toServer = 0

        static func - (later: Counts, earlier: Counts) -> Counts {
            Counts(connections: later.connections - earlier.connections, toClient: later.toClient - earlier.toClient,
                   toServer: later.toServer - earlier.toServer)
        }
    }

    /// Starts `script` with Debian's python3 in front of 127.0.0.1:`target`; nil, said on
    /// stderr, when it does not print its ports.
    init?(script: String, target: Int, latencyMilliseconds: Int) {
        guard let fields = startServerScript(process, script: script, arguments: ["--target", String(target), "--latency", String(latencyMilliseconds)]),
              fields.count == 4, fields[0] == "port", fields[2] == "stats", let port = Int(fields[1]), let stats = Int(fields[3]) else {
            printError("the delay proxy did not say its ports")
            stop()
            return nil
        }
        self.port = port
        statsPort = stats
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// The counts now (all zero when the proxy cannot be asked).
    func counts() -> Counts {
        guard let fd = connectToLoopback(port: statsPort) else { return Counts() }
        defer { close(fd) }
        var line = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 512)
        while !line.contains(0x0A) {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            line += buffer[0..<n]
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Int] else { return Counts() }
        return Counts(connections: json["connections"] ?? 0, toClient: json["to_client"] ?? 0, toServer: json["to_server"] ?? 0)
    }
}
