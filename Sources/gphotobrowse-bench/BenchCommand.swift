import Foundation
import PhotoCore
import PhotoIO

/// One subcommand of gphotobrowse-bench.
protocol BenchCommand {
    /// The word that selects it: `gphotobrowse-bench NAME …`.
    static var name: String { get }
    /// Its arguments, for the usage line: `[--size SIZE] FILE_OR_DIR…`.
    static var arguments: String { get }
    /// One line on what it does.
    static var summary: String { get }
    /// Runs it with the arguments after its name; returns the exit status.
    static func run(_ arguments: [String]) -> Int32
}

extension BenchCommand {
    static var usage: String { "usage: gphotobrowse-bench \(name) \(arguments)" }

    /// Reports a mistake in the arguments, with the usage line; exit status 2.
    static func usageError(_ message: String) -> Int32 {
        printError("gphotobrowse-bench \(name): \(message)\n\(usage)")
        return 2
    }

    /// The options in `arguments` (as `BenchOptions.parse` reads them), or nil once a
    /// mistake in them is reported (`usageError`: the command exits with status 2).
    static func options(_ arguments: [String], numbers: [String: (default: Int, atLeast: Int)] = [:],
                        texts: [String: String] = [:], takesOperands: Bool = false) -> BenchOptions? {
        switch BenchOptions.parse(arguments, numbers: numbers, texts: texts, takesOperands: takesOperands) {
        case .success(let options): return options
        case .failure(let problem):
            _ = usageError(problem.message)
            return nil
        }
    }
}

/// Picks the command named by the first argument and runs it.
struct BenchCommandLine {
    let commands: [any BenchCommand.Type]

    func run(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            printError(help)
            return 2
        }
        if ["-h", "--help", "help"].contains(name) {
            print(help)
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("gphotobrowse-bench: unknown command “\(name)”\n\(help)")
            return 2
        }
        return command.run(Array(arguments.dropFirst()))
    }

    var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
        return (["usage: gphotobrowse-bench COMMAND [ARGUMENT…]", "", "commands:"] + lines).joined(separator: "\n")
    }
}

/// Writes a line on standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The middle value of `values` (the mean of the two middle ones for an even count); not empty.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// A command's arguments: `--NAME VALUE` options, numbers (each with its least value) or
/// text, and operands (the rest), where the command takes any.
struct BenchOptions {
    private(set) var numbers: [String: Int] = [:]
    private(set) var texts: [String: String] = [:]
    private(set) var operands: [String] = []

    /// Reads `arguments`: `numbers` maps each number option to its default and least value,
    /// `texts` each text option to its default; an operand is an unknown argument unless
    /// `takesOperands`. Returns the problem when one is given badly.
    static func parse(_ arguments: [String], numbers: [String: (default: Int, atLeast: Int)] = [:],
                      texts: [String: String] = [:], takesOperands: Bool = false) -> Result<BenchOptions, BenchUsageProblem> {
        var options = BenchOptions()
        options.numbers = numbers.mapValues(\.default)
        options.texts = texts
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if let limits = numbers[argument] {
                guard let value = rest.popFirst().flatMap(Int.init), value >= limits.atLeast else {
                    return .failure(BenchUsageProblem(message: "\(argument) takes a number of at least \(limits.atLeast)"))
                }
                options.numbers[argument] = value
            } else if texts[argument] != nil {
                guard let value = rest.popFirst() else { return .failure(BenchUsageProblem(message: "\(argument) takes a value")) }
                options.texts[argument] = value
            } else if argument.hasPrefix("-") || !takesOperands {
                return .failure(BenchUsageProblem(message: "unknown argument \(argument)"))
            } else {
                options.operands.append(argument)
            }
        }
        return .success(options)
    }

    func number(_ name: String) -> Int { numbers[name]! }
    func text(_ name: String) -> String { texts[name]! }
}

/// What is wrong with a command's arguments.
struct BenchUsageProblem: Error {
    let message: String
}

/// The photos of `folders` as the app lists them, or nil (said on stderr, as `command`) when a
/// folder cannot be listed or none holds a photo.
func listPhotos(in folders: [String], command: String) -> [Photo]? {
    var photos: [Photo] = []
    for folder in folders {
        if case .failure(let error) = FolderListing(uri: FileStatus.uri(forCommandLineArgument: folder)).run(deliver: { photos.append(contentsOf: $0) }) {
            printError("gphotobrowse-bench \(command): \(error.message)")
            return nil
        }
    }
    guard !photos.isEmpty else {
        printError("gphotobrowse-bench \(command): no photos in \(folders.first ?? "")")
        return nil
    }
    return photos
}
