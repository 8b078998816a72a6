import Foundation

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
