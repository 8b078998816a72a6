import Foundation

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
