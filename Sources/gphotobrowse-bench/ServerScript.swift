import Foundation

/// Starts one of the test servers' scripts (tests/servers/*.py) in `process` with Debian's
/// python3, and returns the first line it prints, which says its ports, as fields split at
/// white space; nil, said on stderr, when it cannot be started. It ends with this process
/// (the scripts watch their parent) or when `process` is terminated.
func startServerScript(_ process: Process, script: String, arguments: [String]) -> [Substring]? {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch {
        printError("could not start \(script): \(error)")
        return nil
    }
    var line = Data()
    while !line.contains(0x0A) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
    }
    return String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
}
