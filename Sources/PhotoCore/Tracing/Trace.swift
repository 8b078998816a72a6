import Foundation

/// Milestone lines on stderr for benchmarks and tests, when `GPHOTOBROWSE_TRACE` is set.
///
/// Each line is `trace NAME [VALUE…] MS`, where MS counts milliseconds since the process
/// started (read from the kernel, so it includes start-up before `main`). Benchmarks parse
/// these lines: keep the format.
public enum Trace {
    /// Milestones: `GPHOTOBROWSE_TRACE=1` (or `all`).
    public static let isEnabled: Bool = ["1", "all"].contains(ProcessInfo.processInfo.environment["GPHOTOBROWSE_TRACE"])
    /// Also a line per tile (`tile-loaded INDEX`, `tile-failed INDEX`): `GPHOTOBROWSE_TRACE=all`.
    public static let tilesEnabled: Bool = ProcessInfo.processInfo.environment["GPHOTOBROWSE_TRACE"] == "all"

    /// Writes `trace <name> <values…> <ms>` when tracing is on.
    public static func milestone(_ name: String, _ values: Int...) {
        guard isEnabled else { return }
        let fields = [name] + values.map(String.init) + [String(millisecondsSinceStart())]
        FileHandle.standardError.write(Data(("trace " + fields.joined(separator: " ") + "\n").utf8))
    }

    /// Writes `trace <name> <text> <ms>` when tracing is on: a milestone about a file
    /// (`saved PATH`), whose text may hold spaces; readers take the last field as MS.
    public static func milestone(_ name: String, text: String) {
        guard isEnabled else { return }
        let line = "trace \(name) \(text.replacingOccurrences(of: "\n", with: " ")) \(millisecondsSinceStart())\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Milliseconds since this process was started.
    public static func millisecondsSinceStart() -> Int {
        Int(((bootClockSeconds() - processStartSeconds) * 1000).rounded())
    }

    /// Milliseconds of processor time the calling thread has used: what a stretch of the
    /// main thread's work cost, whatever else the machine ran meanwhile.
    public static func threadMilliseconds() -> Double {
        var used = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used)
        return Double(used.tv_sec) * 1000 + Double(used.tv_nsec) / 1e6
    }

    /// Milliseconds since process `pid` started, on the clock of its trace lines; nil when
    /// its start time cannot be read. Benchmarks place their own events (a key pressed) on it.
    public static func millisecondsSinceStart(ofProcess pid: Int32) -> Int? {
        guard let start = startSeconds(stat: "/proc/\(pid)/stat") else { return nil }
        return Int(((bootClockSeconds() - start) * 1000).rounded())
    }

    private static let processStartSeconds: Double = startSeconds(stat: "/proc/self/stat") ?? bootClockSeconds()

    /// A process's start, in seconds after boot, from its `/proc/PID/stat`.
    private static func startSeconds(stat path: String) -> Double? {
        // Field 22: start time in clock ticks after boot. The command name (field 2) may
        // hold spaces, so count fields after its closing parenthesis.
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func bootClockSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
