import Foundation

/// The listing floor: GIO's own tool on the same folder through the same proxy, in a session
/// of its own (`RemoteSession`: a new GVfs, nothing mounted): `gio mount URI` (the
/// connection: ssh's handshake and login, the sftp session), then
/// `gio list -a standard::name,standard::size,time::modified URI`, each timed from its
/// launch to its exit, with the bytes the server sent for each.
struct GioListingFloor {
    var mountMs = 0, listMs = 0
    var listed = 0
    var mountCounts = DelayProxyProcess.Counts(), listCounts = DelayProxyProcess.Counts()

    static let attributes = "standard::name,standard::size,time::modified"

    /// One mount and listing; nil, said on stderr, when either fails.
    static func run(uri: String, launch: CleanLaunch, server: SftpServer, proxy: DelayProxyProcess) -> GioListingFloor? {
        guard let gio = which("gio") else {
            printError("gio is missing (libglib2.0-bin)")
            return nil
        }
        guard let session = RemoteSession(launch, agentSocket: server.agentSocket) else { return nil }
        defer { session.end() }
        let environment = session.environment
        var floor = GioListingFloor()
        var before = proxy.counts()
        guard let mount = runToEnd(gio, ["mount", uri], environment) else { return nil }
        guard mount.status == 0 else {
            printError("gio mount \(uri) failed: \(mount.errors.trimmingCharacters(in: .whitespacesAndNewlines)); sshd said: "
                + server.sshdLogText.suffix(600))
            return nil
        }
        floor.mountMs = mount.ms
        floor.mountCounts = proxy.counts() - before
        before = proxy.counts()
        guard let list = runToEnd(gio, ["list", "-a", attributes, uri], environment), list.status == 0 else {
            printError("gio list \(uri) failed")
            return nil
        }
        floor.listMs = list.ms
        floor.listCounts = proxy.counts() - before
        floor.listed = list.lines
        _ = runToEnd(gio, ["mount", "-u", uri], environment)
        return floor
    }
}

/// Runs `tool` in `environment` to its end: its exit status, milliseconds from launch to
/// exit, lines of output and its stderr.
func runToEnd(_ tool: String, _ arguments: [String], _ environment: [String: String])
    -> (status: Int32, ms: Int, lines: Int, errors: String)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.environment = environment
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    let started = Date()
    guard (try? process.run()) != nil else { return nil }
    // Read both to their ends (a thread for stderr), so neither pipe fills.
    let errorText = CapturedData()
    let reader = Thread { errorText.data = errors.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let ms = Int(Date().timeIntervalSince(started) * 1000)
    while errorText.data == nil { usleep(1_000) }
    return (process.terminationStatus, ms, data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) },
            String(decoding: errorText.data ?? Data(), as: UTF8.self))
}

/// Bytes one thread reads and another waits for.
private final class CapturedData: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Data?
    var data: Data? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
