import Foundation

/// What the sftp server's log says its clients read: each file opened, how many times, and
/// the bytes the server read from it for them (`SftpServer.sftpLog`, from `offset` on, so
/// one run's share of a log that several runs write to).
struct SftpReadLog {
    struct File {
        var opens = 0
        var bytesRead = 0
    }

    private(set) var files: [String: File] = [:]
    /// Folders listed (`opendir`).
    private(set) var foldersListed = 0

    /// The log's length now: where the next run's share starts.
    static func end(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    init(path: String, from offset: Int) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        // sftp-server ends its lines with CR LF, one Character in Swift: split on either.
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("opendir \"") {
                foldersListed += 1
            } else if line.hasPrefix("open \""), let path = Self.quoted(line) {
                files[path, default: File()].opens += 1
            } else if line.hasPrefix("close \""), let path = Self.quoted(line), let range = line.range(of: " bytes read ") {
                let number = line[range.upperBound...].prefix { $0.isNumber }
                files[path, default: File()].bytesRead += Int(number) ?? 0
            }
        }
    }

    /// The path between the line's first pair of double quotes.
    private static func quoted(_ line: Substring) -> String? {
        guard let open = line.firstIndex(of: "\"") else { return nil }
        let rest = line[line.index(after: open)...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close])
    }

    var filesOpened: Int { files.count }
    var opens: Int { files.values.reduce(0) { $0 + $1.opens } }
    var bytesRead: Int { files.values.reduce(0) { $0 + $1.bytesRead } }
    /// Files opened more than once.
    var openedAgain: [String] { files.filter { $0.value.opens > 1 }.keys.sorted() }

    /// Files the server read whole (at least their size in `sizes`, by path).
    func readWhole(_ sizes: [String: Int]) -> Int {
        files.filter { path, file in sizes[path].map { file.bytesRead >= $0 } ?? false }.count
    }

    /// Files the server read in part (less than their size in `sizes`), and the median of
    /// the bytes read from each.
    func readInPart(_ sizes: [String: Int]) -> (files: Int, medianBytes: Int) {
        let bytes = files.filter { path, file in sizes[path].map { file.bytesRead < $0 } ?? false }.map(\.value.bytesRead).sorted()
        return (bytes.count, bytes.isEmpty ? 0 : bytes[bytes.count / 2])
    }

    /// "1,234 files opened 1,300 times, 160.2 MB read (129.8 KB a file)".
    var description: String {
        let perFile = filesOpened == 0 ? 0 : bytesRead / filesOpened
        return "\(filesOpened) files opened \(opens) times, \(ServerStats.size(bytesRead)) read (\(ServerStats.size(perFile)) a file)"
    }
}
