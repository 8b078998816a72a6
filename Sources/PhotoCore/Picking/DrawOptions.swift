/// What `gphotobrowse --draw` was asked for: the drawing board on a photo, or on a blank
/// board of a size.
///
///     gphotobrowse --draw [PHOTO] [--size WIDTHxHEIGHT]
public struct DrawOptions: Sendable, Equatable {
    /// A blank board's size when no `--size` is given: the usual screen's.
    public static let defaultSize = PixelSize(width: 1920, height: 1080)
    /// The sizes a blank board may have, each side in pixels.
    public static let sides = 16...16384

    /// The photo to mark up, as given (relative to the caller's folder); nil for a blank board.
    public var photo: String?
    /// The blank board's size (unused when a photo is given: the board is the photo's size).
    public var size = DrawOptions.defaultSize

    public init(photo: String? = nil, size: PixelSize = DrawOptions.defaultSize) {
        self.photo = photo
        self.size = size
    }

    /// Why a command line is not one: said on standard error, exit status 2.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The options of a command line's arguments (without the program's name); nil when
    /// `--draw` is not among them.
    public static func parse(_ arguments: [String]) throws(Problem) -> DrawOptions? {
        guard arguments.contains("--draw") else { return nil }
        var options = DrawOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--draw" { continue }
            if argument == "--size" || argument.hasPrefix("--size=") {
                let value = argument == "--size" ? rest.popFirst() ?? "" : String(argument.dropFirst("--size=".count))
                guard let size = Self.size(value) else {
                    throw Problem(message: tr("--size wants WIDTHxHEIGHT, 16 to 16384 pixels each: %s", value))
                }
                options.size = size
            } else if argument.hasPrefix("-") || options.photo != nil {
                throw Problem(message: tr("Unknown option %s.", argument))
            } else {
                options.photo = argument
            }
        }
        return options
    }

    /// "WIDTHxHEIGHT" (or "WIDTHXHEIGHT"), each a number of `sides` in decimal digits; nil
    /// for anything else.
    public static func size(_ text: String) -> PixelSize? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let sides = parts.map { part -> Int? in
            guard !part.isEmpty, part.count <= 5, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part).flatMap { Self.sides.contains($0) ? $0 : nil }
        }
        guard let width = sides[0], let height = sides[1] else { return nil }
        return PixelSize(width: width, height: height)
    }
}
