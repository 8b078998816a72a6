import Foundation

/// curl fetching addresses as a browser does: up to six connections to the server at once,
/// opened right away (`--parallel --parallel-immediate --parallel-max 6`, curl 7.68 or newer),
/// kept alive and reused; the bodies are discarded.
struct ParallelCurl {
    let curl: String
    let connections: Int

    /// The installed curl, when it has `--parallel-immediate`; nil (said on stderr) otherwise.
    static func installed(connections: Int = 6) -> ParallelCurl? {
        guard let curl = which("curl") else {
            printError("curl is not installed (build-aux/install-deps.sh test installs it)")
            return nil
        }
        let help = Process()
        help.executableURL = URL(fileURLWithPath: curl)
        help.arguments = ["--help", "all"]
        let output = Pipe()
        help.standardOutput = output
        help.standardError = FileHandle.nullDevice
        guard (try? help.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        help.waitUntilExit()
        guard text.contains("--parallel-immediate") else {
            printError("\(curl) has no --parallel-immediate (curl 7.68 or newer has)")
            return nil
        }
        return ParallelCurl(curl: curl, connections: connections)
    }

    /// Seconds from starting curl to its end, having fetched every address of `urls` (each
    /// answered 2xx); nil, said on stderr, when curl failed.
    func fetch(_ urls: [String]) -> Double? {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("gphotobrowse-curl-\(getpid()).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        let lines = urls.map { "url = \"\($0)\"\noutput = \"/dev/null\"\n" }.joined()
        guard FileManager.default.createFile(atPath: config, contents: Data(lines.utf8)) else {
            printError("cannot write \(config)")
            return nil
        }
        var status: Int32 = 0
        let seconds = time {
            status = spawnQuietly(curl, ["--silent", "--fail", "--parallel", "--parallel-immediate",
                                         "--parallel-max", String(connections), "--config", config])
        }
        guard status == 0 else {
            printError("curl failed (exit status \(status)) fetching \(urls.count) addresses")
            return nil
        }
        return seconds
    }
}
