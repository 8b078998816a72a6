import Foundation
import PhotoIO

/// `trash ACTION …`: the app's trash with undo (`PhotoIO.Trash`) from the command line, one
/// JSON object per line on standard output. The tests drive it in a child process with a
/// private `XDG_DATA_HOME`, since GLib fixes the trash's place at its first use in a process.
///
///     trash where                 {"trash":"file:///home/ann/.local/share/Trash"}
///     trash move FILE…            {"uri":…,"outcome":"trashed","item":{…}}
///                                 {"uri":…,"outcome":"trashed-without-undo","reason":…}
///                                 {"uri":…,"outcome":"failed","kind":…,"reason":…}
///     trash restore < ITEMS       {"item":{…},"restored":URI}  or  {"item":{…},"kind":…,"reason":…}
///     trash check FILE…           {"uri":…,"supported":true}
///     trash delete FILE…          {"uri":…,"deleted":true}  or  {"uri":…,"kind":…,"reason":…}
///
/// `restore` reads the lines `move` printed (or bare items) from standard input.
/// Exit status: 0 when everything worked, 1 when anything failed, 2 on usage errors.
enum TrashCommand: BenchCommand {
    static let name = "trash"
    static let arguments = "where | move FILE… | restore < LINES | check FILE… | delete FILE…"
    static let summary = "move files to the trash and back, as the app does (JSON lines)"

    /// One line of output; absent fields are left out.
    private struct Line: Codable {
        var trash: String?
        var uri: String?
        var outcome: String?
        var item: TrashedItem?
        var restored: String?
        var supported: Bool?
        var deleted: Bool?
        var kind: String?
        var reason: String?
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let action = arguments.first else { return usageError("no action given") }
        let files = arguments.dropFirst().map(FileStatus.uri(forCommandLineArgument:))
        switch action {
        case "-h", "--help":
            FileHandle.standardOutput.write(Data((usage + "\n").utf8))
            return 0
        case "where":
            emit(Line(trash: Trash.homeTrashURI))
            return 0
        case "move":
            guard !files.isEmpty else { return usageError("no file given") }
            var failed = false
            for result in Trash.move(files) {
                switch result.outcome {
                case .trashed(let item):
                    emit(Line(uri: result.uri, outcome: "trashed", item: item))
                case .trashedWithoutUndo(let reason):
                    emit(Line(uri: result.uri, outcome: "trashed-without-undo", reason: reason))
                case .failed(let failure):
                    emit(Line(uri: result.uri, outcome: "failed", kind: failure.kind.rawValue, reason: failure.message))
                    failed = true
                }
            }
            return failed ? 1 : 0
        case "restore":
            var failed = false
            while let text = readLine() {
                guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                let data = Data(text.utf8)
                guard let item = (try? JSONDecoder().decode(Line.self, from: data))?.item
                    ?? (try? JSONDecoder().decode(TrashedItem.self, from: data)) else {
                    printError("gphotobrowse-bench trash: not an item: \(text)")
                    failed = true
                    continue
                }
                switch Trash.restore(item) {
                case .success(let uri):
                    emit(Line(item: item, restored: uri))
                case .failure(let failure):
                    emit(Line(item: item, kind: failure.kind.rawValue, reason: failure.message))
                    failed = true
                }
            }
            return failed ? 1 : 0
        case "check":
            guard !files.isEmpty else { return usageError("no file given") }
            for uri in files { emit(Line(uri: uri, supported: Trash.isSupported(for: uri))) }
            return 0
        case "delete":
            guard !files.isEmpty else { return usageError("no file given") }
            var failed = false
            for (uri, result) in zip(files, Trash.deletePermanently(files)) {
                switch result {
                case .success:
                    emit(Line(uri: uri, deleted: true))
                case .failure(let failure):
                    emit(Line(uri: uri, kind: failure.kind.rawValue, reason: failure.message))
                    failed = true
                }
            }
            return failed ? 1 : 0
        default:
            return usageError("unknown action “\(action)”")
        }
    }

    private static func emit(_ line: Line) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(line) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
