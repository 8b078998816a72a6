/// What `gphotobrowse --help` and `gphotobrowse --version` answer: text for standard
/// output and exit status 0, as every command-line tool does, written by the process that
/// was started (whether or not an instance of the app runs already).
public enum CommandLineInfo: Sendable, Equatable {
    case help
    case version

    /// The question a command line asks, when it asks one (`--help`, `-h`, `--version`);
    /// nil otherwise. The value of `--title` and operands after `--` are not options.
    public static func asked(in arguments: [String]) -> CommandLineInfo? {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--": return nil
            case "--title", "--size": _ = rest.popFirst()
            case "--help", "-h", "-?": return .help
            case "--version": return .version
            default: continue
            }
        }
        return nil
    }

    /// The text to write to standard output, ending with a newline.
    public var text: String {
        switch self {
        case .version:
            return "\(AppInfo.name) \(AppInfo.version)\n"
        case .help:
            return [
                tr("Usage:"),
                "  \(AppInfo.name) [FOLDER | PHOTO | URL]",
                "  \(AppInfo.name) --pick [--multiple] [--null] [--uri] [--title TEXT] [FOLDER | URL]",
                "  \(AppInfo.name) --draw [PHOTO] [--size WIDTHxHEIGHT]",
                "",
                tr("Browse the photos of a folder, of a folder on another machine or of a web album."),
                "",
                tr("Options:"),
                "  --pick         " + tr("choose photos; their paths go to standard output"),
                "  --multiple     " + tr("with --pick: more than one photo may be chosen"),
                "  --null, -0     " + tr("with --pick: a NUL after each path instead of a newline"),
                "  --uri          " + tr("with --pick: write URIs instead of paths"),
                "  --title TEXT   " + tr("with --pick: the window’s title"),
                "  --draw         " + tr("open the photo, or a blank board, on the drawing board"),
                "  --size WxH     " + tr("with --draw: the blank board’s size in pixels"),
                "  --help, -h     " + tr("show this help and exit"),
                "  --version      " + tr("show the version and exit"),
            ].joined(separator: "\n") + "\n"
        }
    }
}
