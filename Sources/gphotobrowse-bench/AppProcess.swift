import Foundation

// What the commands that run the real app share.

/// The gphotobrowse executable built next to this one.
var appBesideThisProgram: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("gphotobrowse").path
}

/// Peak resident memory (VmHWM) of a running process, in KiB; 0 when it cannot be read.
func peakResidentKiB(_ pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
    return Int(line.split(separator: " ")[1]) ?? 0
}

/// Waits until a running process has used no CPU time for a second, `seconds` at most;
/// false when it was still busy then (or its CPU time cannot be read). With `allowing`, up
/// to that many clock ticks (10 ms) in each quarter of that second still count as idle.
func waitUntilIdle(_ pid: Int32, seconds: Double, allowing: Int = 0) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var last = cpuTicks(ofProcess: pid), quiet = 0
    while Date() < deadline {
        Thread.sleep(forTimeInterval: 0.25)
        guard let now = cpuTicks(ofProcess: pid) else { return false }
        quiet = last.map { now - $0 <= allowing } == true ? quiet + 1 : 0
        if quiet >= 4 { return true }
        last = now
    }
    return false
}

/// The CPU time a running process has used, in clock ticks (10 ms), or nil.
func cpuTicks(ofProcess pid: Int32) -> Int? {
    // utime and stime are the 14th and 15th fields; the command name (2nd) may hold spaces.
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let end = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
}

/// Runs a tool with its output discarded; returns its exit status (-1 when it cannot start).
@discardableResult
func runQuietly(_ tool: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}

/// Runs a tool with no output and waits for it; returns its exit status (-1 when it cannot
/// start or was killed). posix_spawn, as a shell would (Foundation's Process closes every
/// possible descriptor first, which costs tens of milliseconds here).
@discardableResult
func spawnQuietly(_ tool: String, _ arguments: [String]) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, tool, &actions, nil, &argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
}

/// The path of `tool` on `PATH` (or in /usr/bin, /bin), or nil.
func which(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return (path.split(separator: ":") + ["/usr/bin", "/bin"]).map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Why the real app cannot be run from here (no executable at `app`, or no X display), or nil.
func problemRunningApp(_ app: String) -> String? {
    if !FileManager.default.isExecutableFile(atPath: app) { return "no app at \(app) (give --app)" }
    if ProcessInfo.processInfo.environment["DISPLAY"] == nil { return "no DISPLAY: run it under xvfb-run -a" }
    return nil
}

/// Starts the app with `arguments`, milestones traced on its stderr (returned for reading;
/// `trace: "all"` adds a line per tile), its cache and settings in the folders given,
/// drawing with cairo (Xvfb has no GPU), in this process's environment or the one given.
func startTracedApp(_ app: String, _ arguments: [String], cache: String, config: String,
                    environment base: [String: String]? = nil, trace: String = "1") -> (process: Process, stderr: FileHandle)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: app)
    process.arguments = arguments
    var environment = base ?? ProcessInfo.processInfo.environment
    environment["GPHOTOBROWSE_TRACE"] = trace
    environment["XDG_CACHE_HOME"] = cache
    environment["XDG_CONFIG_HOME"] = config
    environment["GSK_RENDERER"] = environment["GSK_RENDERER"] ?? "cairo"
    environment["NO_AT_BRIDGE"] = "1"
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    do { try process.run() } catch {
        printError("could not start \(app): \(error)")
        return nil
    }
    return (process, errors.fileHandleForReading)
}

/// The app's trace lines, read from its stderr on a thread as they come.
final class TraceReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [[Substring]] = []
    /// The last lines that were not trace lines (what the app said of a failure).
    private var otherLines: [String] = []

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    let fields = line.split(separator: " ")
                    guard fields.first == "trace" else {
                        condition.lock()
                        otherLines.append(line)
                        if otherLines.count > 400 { otherLines.removeFirst() }
                        condition.unlock()
                        continue
                    }
                    condition.lock()
                    lines.append(Array(fields.dropFirst()))
                    condition.broadcast()
                    condition.unlock()
                }
            }
        }
    }

    /// Waits for `trace NAME VALUE MS`; returns its MS.
    func wait(for name: String, _ value: Int, seconds: Double) -> Int? {
        wait(seconds: seconds) { $0.count == 3 && $0[0] == name && Int($0[1]) == value }?.ms
    }

    /// Waits for the `skip + 1`th `trace NAME … MS` line; returns its MS.
    func wait(for name: String, after skip: Int = 0, seconds: Double) -> Int? {
        waitForValue(name, after: skip, seconds: seconds)?.ms
    }

    /// Waits for the `skip + 1`th `trace NAME VALUE MS` line; returns its VALUE and MS.
    func waitForValue(_ name: String, after skip: Int = 0, seconds: Double) -> (value: Int, ms: Int)? {
        var seen = 0
        return wait(seconds: seconds) { fields in
            guard fields.first.map(String.init) == name else { return false }
            seen += 1
            return seen > skip
        }
    }

    /// Waits for the first `trace NAME VALUE MS` line with VALUE at least `least`; returns its
    /// VALUE and MS.
    func waitForValue(_ name: String, atLeast least: Int, seconds: Double) -> (value: Int, ms: Int)? {
        wait(seconds: seconds) { $0.count == 3 && $0[0] == name && (Int($0[1]) ?? -1) >= least }
    }

    /// Waits up to `seconds` for a line (its fields after `trace`) that `matches`; returns
    /// the line's last field (MS) and the one before it (VALUE, -1 when there is none).
    func wait(seconds: Double, _ matches: ([Substring]) -> Bool) -> (value: Int, ms: Int)? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        var checked = 0
        while true {
            while checked < lines.count {
                let line = lines[checked]
                checked += 1
                guard matches(line), let ms = line.last.flatMap({ Int($0) }) else { continue }
                return (line.count >= 3 ? Int(line[line.count - 2]) ?? -1 : -1, ms)
            }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// The `trace NAME [VALUE] MS` lines that came so far: each one's VALUE (-1 when it has
    /// none) and MS.
    func lines(named name: String) -> [(value: Int, ms: Int)] {
        condition.lock()
        defer { condition.unlock() }
        return lines.compactMap { line in
            guard line.first.map(String.init) == name, let ms = line.last.flatMap({ Int($0) }) else { return nil }
            return (line.count >= 3 ? Int(line[line.count - 2]) ?? -1 : -1, ms)
        }
    }

    /// The last 400 lines of the app's stderr that were not trace lines.
    var lastOtherLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return otherLines
    }

    /// How many `trace NAME …` lines came so far.
    func count(of name: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return lines.filter { $0.first.map(String.init) == name }.count
    }
}
