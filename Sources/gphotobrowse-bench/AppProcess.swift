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
