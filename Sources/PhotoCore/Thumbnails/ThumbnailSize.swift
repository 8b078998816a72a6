/// The sizes of the freedesktop thumbnail cache, each a folder of `<cache>/thumbnails/`.
///
/// A thumbnail of a size fits in a square of `edge`×`edge` pixels (its longer side is
/// `edge`, unless the original is smaller: originals are never enlarged).
public enum ThumbnailSize: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case normal = 128
    case large = 256
    case xLarge = 512
    case xxLarge = 1024

    /// The longest side of a thumbnail of this size, in pixels.
    public var edge: Int { rawValue }

    /// The folder name under `<cache>/thumbnails/`, as the specification names it.
    public var directoryName: String {
        switch self {
        case .normal: "normal"
        case .large: "large"
        case .xLarge: "x-large"
        case .xxLarge: "xx-large"
        }
    }

    public var description: String { directoryName }

    /// The size named `name` (`normal`, `large`, `x-large`, `xx-large`), if any.
    public init?(directoryName name: String) {
        guard let size = Self.allCases.first(where: { $0.directoryName == name }) else { return nil }
        self = size
    }

    /// The smallest size whose edge is at least `edge` device pixels (a tile's edge times
    /// the display's scale), so a thumbnail is shrunk to a tile and never blown up;
    /// `xxLarge` for anything larger.
    public static func `for`(edge: Int) -> ThumbnailSize {
        allCases.first { $0.edge >= edge } ?? .xxLarge
    }

    /// The sizes larger than this one, smallest first.
    public var larger: [ThumbnailSize] { Self.allCases.filter { $0 > self } }

    public static func < (a: ThumbnailSize, b: ThumbnailSize) -> Bool { a.rawValue < b.rawValue }
}
