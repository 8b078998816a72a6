// gphotobrowse-bench: benchmark commands. See docs/benchmarks.md.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
FileHandle.standardError.write(Data("usage: gphotobrowse-bench COMMAND …\n".utf8))
exit(arguments.isEmpty ? 2 : 0)
