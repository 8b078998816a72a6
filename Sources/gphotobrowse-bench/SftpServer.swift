import Foundation

/// A real sftp server on loopback, as a person's other machine would be: OpenSSH's sshd on
/// a free port from a config of its own (in `folder`), accepting this user's login with a
/// fresh key that an ssh-agent holds (as a desktop session's agent does, so no password is
/// asked), its sftp subsystem logging every file it opens and the bytes it read from it.
/// Ended, with the agent, at `stop`.
final class SftpServer {
    let folder: String
    let port: Int
    let user: String
    /// The agent's socket: `SSH_AUTH_SOCK` for the clients.
    var agentSocket: String { folder + "/agent.sock" }
    /// The sftp subsystem's log: `open "PATH" flags READ …` and `close "PATH" bytes read N …`
    /// lines, one pair for each time a file was opened.
    var sftpLog: String { folder + "/sftp.log" }
    private var sshdLog: String { folder + "/sshd.log" }
    private var sshd: SpawnedDaemon?
    private var agent: SpawnedDaemon?

    /// Starts sshd and the agent; nil, said on stderr, when a tool is missing or either does
    /// not come up within ten seconds.
    init?(folder: String) {
        self.folder = folder
        user = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        guard let port = freeLoopbackPort() else {
            printError("no free port on 127.0.0.1")
            return nil
        }
        self.port = port
        let tools = ["/usr/sbin/sshd", "/usr/lib/openssh/sftp-server", "/usr/bin/ssh-keygen", "/usr/bin/ssh-agent", "/usr/bin/ssh-add"]
        if let missing = tools.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
            printError("\(missing) is missing: install openssh-server and openssh-client (build-aux/install-deps.sh test)")
            return nil
        }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            printError("cannot make \(folder): \(error)")
            return nil
        }
        for name in ["host", "client"] where runQuietly("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", folder + "/" + name]) != 0 {
            printError("ssh-keygen could not make a key in \(folder)")
            return nil
        }
        let authorized = folder + "/authorized_keys"
        guard (try? FileManager.default.copyItem(atPath: folder + "/client.pub", toPath: authorized)) != nil else { return nil }
        chmod(authorized, 0o600)
        // The subsystem through the shell, so that its log goes to a file: sshd runs
        // internal-sftp's logging nowhere when it runs in the foreground.
        let config = [
            "Port \(port)", "ListenAddress 127.0.0.1", "HostKey \(folder)/host", "AuthorizedKeysFile \(authorized)",
            "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password",
            "StrictModes no", "UsePAM no", "PidFile \(folder)/sshd.pid", "MaxStartups 50",
            "Subsystem sftp /usr/lib/openssh/sftp-server -e -l INFO 2>>\(sftpLog)", "",
        ].joined(separator: "\n")
        guard FileManager.default.createFile(atPath: folder + "/sshd_config", contents: Data(config.utf8)),
              FileManager.default.createFile(atPath: sshdLog, contents: nil),
              FileManager.default.createFile(atPath: sftpLog, contents: nil) else {
            printError("cannot write sshd's config in \(folder)")
            return nil
        }
        if getuid() == 0 { try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }  // privilege separation
        sshd = SpawnedDaemon("/usr/sbin/sshd", ["-D", "-e", "-f", folder + "/sshd_config"], errors: sshdLog)
        agent = SpawnedDaemon("/usr/bin/ssh-agent", ["-D", "-a", agentSocket], errors: "/dev/null")
        guard sshd != nil, agent != nil, waitUntil({ isListening(port: port) }, seconds: 10),
              waitUntil({ FileManager.default.fileExists(atPath: agentSocket) }, seconds: 10) else {
            printError("sshd or ssh-agent did not start: " + ((try? String(contentsOfFile: sshdLog, encoding: .utf8)) ?? ""))
            stop()
            return nil
        }
        let add = Process()
        add.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-add")
        add.arguments = ["-q", folder + "/client"]
        add.environment = ProcessInfo.processInfo.environment.merging(["SSH_AUTH_SOCK": agentSocket]) { _, new in new }
        add.standardError = FileHandle.nullDevice
        guard (try? add.run()) != nil else { stop(); return nil }
        add.waitUntilExit()
        guard add.terminationStatus == 0 else {
            printError("ssh-add could not give the key to the agent")
            stop()
            return nil
        }
    }

    /// sftp://USER@127.0.0.1:PORT/PATH for `path` on this server, reached through `port`.
    func uri(_ path: String, port: Int) -> String { "sftp://\(user)@127.0.0.1:\(port)" + path }

    /// What sshd logged (for a failed connection).
    var sshdLogText: String { (try? String(contentsOfFile: sshdLog, encoding: .utf8)) ?? "" }

    func stop() {
        sshd?.stop()
        agent?.stop()
        (sshd, agent) = (nil, nil)
    }
}

/// A server started with posix_spawn and ended at `stop`. Not Foundation's `Process`:
/// that watches a child through a socket the child inherits, and takes the socket's closing
/// for the child's end, then waits for it without end; sshd and ssh-agent close every
/// descriptor they inherit as they start, which leaves every later `Process` unreaped.
final class SpawnedDaemon {
    private var pid: pid_t = 0

    /// Starts `tool` with its output discarded and its stderr appended to `errors`; nil when
    /// it cannot start.
    init?(_ tool: String, _ arguments: [String], errors: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        var argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // No signal blocked or ignored, as from a shell: this process's threads block some,
        // and sshd's session, which runs the sftp subsystem, cannot start with them.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        guard posix_spawn(&pid, tool, &actions, &attributes, &argv, environ) == 0 else { return nil }
    }

    /// Ends it (SIGTERM) and waits for it.
    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
    }
}

/// A port on 127.0.0.1 that nothing listens on now, or nil.
func freeLoopbackPort() -> Int? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
}

/// Whether something accepts connections on 127.0.0.1:`port`.
func isListening(port: Int) -> Bool {
    connectToLoopback(port: port).map { close($0); return true } ?? false
}

/// A connected socket to 127.0.0.1:`port`, or nil.
func connectToLoopback(port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    if connected { return fd }
    close(fd)
    return nil
}

private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// Polls `condition` every 50 ms for `seconds` at most; whether it held.
func waitUntil(_ condition: () -> Bool, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}
