import Foundation
import Testing

/// The shared test corpus (real photos and hostile files), beside the repository as
/// `../shared/corpus`: present in CI, absent on a user's machine, where the tests that need
/// it are skipped with a reason.
enum SharedCorpus {
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // PhotoIOTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // the repository
        .deletingLastPathComponent()
        .appendingPathComponent("shared/corpus").path

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root) }

    static let absence = "the shared corpus (../shared/corpus) is absent"

    /// Whether the corpus holds `path` (relative to its root).
    static func has(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + path) }

    /// The reason a test that needs `path` (relative to the root) is skipped when it is not there.
    static func missing(_ path: String) -> Comment {
        Comment(rawValue: isPresent ? "\(path) is missing from the shared corpus" : absence)
    }

    /// The reason a test that needs the corpus is skipped when it is absent.
    static var absent: Comment { Comment(rawValue: absence) }

    /// Every file under `folder` that is not a folder (links and FIFOs included), without
    /// following links into folders: the corpus holds links that loop.
    static func files(under folder: String) -> [String] {
        var out: [String] = []
        var pending = [folder]
        while let dir = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for name in names.sorted() {
                let path = dir + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR { pending.append(path) } else { out.append(path) }
            }
        }
        return out
    }
}

/// ImageMagick, which some tests read the corpus with to compare: installed by
/// `build-aux/install-deps.sh test`, absent on a user's machine.
enum ImageMagick {
    /// `identify`'s path, when installed.
    static let identify = ["/usr/bin/identify", "/usr/local/bin/identify"].first(where: FileManager.default.isExecutableFile)

    static let absent: Comment = "ImageMagick's identify is not installed"

    /// What `identify` prints for each of `formats` (`%[EXIF:Model]`…) of the first image of
    /// `path`; nil for an empty one, or all nil when it does not run.
    static func fields(_ identify: String, of path: String, _ formats: [String]) -> [String?] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: identify)
        // One line per format; a missing field prints nothing on its line.
        process.arguments = ["-format", formats.joined(separator: "\\n") + "\\n", path + "[0]"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return formats.map { _ in nil } }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return formats.indices.map { i in
            i < lines.count && !lines[i].trimmingCharacters(in: .whitespaces).isEmpty ? lines[i] : nil
        }
    }
}
