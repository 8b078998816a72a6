// gphotobrowse-bench: benchmark commands, and the small tools they build on, side by side
// with the tools a person would otherwise run. See docs/benchmarks.md.
// One command per file (a `BenchCommand`); list each in `commands`.
import Foundation

let commands: [any BenchCommand.Type] = [
    MakeThumbnailsCommand.self,
    ThumbnailsCommand.self,
    LargeFolderCommand.self,
    ViewerCommand.self,
    FirstScreenCommand.self,
    AlbumsCommand.self,
    WalkCommand.self,
    TrashCommand.self,
    WebCommand.self,
    RemoteCommand.self,
    BoardCommand.self,
    HugeCommand.self,
    SearchCommand.self,
]

exit(BenchCommandLine(commands: commands).run(Array(CommandLine.arguments.dropFirst())))
