/// What `gphotobrowse --pick` was asked for: choose photos in a window and write them to
/// standard output for the program that started it, as nsxiv's `-o`, zenity or kdialog do.
///
///     gphotobrowse --pick [--multiple] [--null] [--uri] [--title TEXT] [FOLDER | URL]
public struct PickOptions: Sendable, Equatable {
    /// More than one photo may be chosen (check boxes on the tiles).
    public var multiple = false
    /// Each chosen photo is followed by a NUL instead of a newline (names may hold newlines).
    public var nullSeparated = false
    /// URIs are written instead of paths.
    public var uris = false
    /// The window's title, instead of the folder's name.
    public var title: String?
    /// The folder or address to choose from, as given (relative to the caller's folder);
    /// nil for the Pictures folder.
    public var location: String?

    public init() {}

    /// Why a command line is not one: said on standard error, exit status 2.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The options of a command line's arguments (without the program's name); nil when
    /// `--pick` is not among them.
    public static func parse(_ arguments: [String]) throws(Problem) -> PickOptions? {
        guard arguments.contains("--pick") else { return nil }
        var options = PickOptions()
        var rest = arguments[...]
        var onlyOperands = false
        while let argument = rest.popFirst() {
            if !onlyOperands && argument.hasPrefix("-") && argument != "-" {
                switch argument {
                case "--pick": continue
                case "--multiple": options.multiple = true
                case "--null", "-0": options.nullSeparated = true
                case "--uri": options.uris = true
                case "--title":
                    guard let title = rest.popFirst() else { throw Problem(message: tr("--title needs a title.")) }
                    options.title = title
                case "--": onlyOperands = true
                default:
                    if argument.hasPrefix("--title=") {
                        options.title = String(argument.dropFirst("--title=".count))
                    } else {
                        throw Problem(message: tr("Unknown option %s for --pick.", argument))
                    }
                }
                continue
            }
            guard options.location == nil else { throw Problem(message: tr("--pick chooses from one folder or address, not more.")) }
            options.location = argument
        }
        return options
    }
}
