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
}
