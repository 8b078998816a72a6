/// The edge of the grid's square tiles, in pixels: from small (96) to large (384), changed
/// in steps (Ctrl+plus, Ctrl+minus, Ctrl+scroll, the Preferences window).
///
/// Any edge within the range is kept as it is (a value set from outside, say with
/// `gsettings`, between two steps stays); stepping goes to the next step above or below.
/// The thumbnails a tile shows come from the freedesktop cache size that fits its edge on
/// the display (`thumbnailSize(scale:)`): normal (128) for small tiles, large (256), then
/// x-large (512).
public struct TileSize: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let smallest = 96
    public static let largest = 384
    /// The edges stepping goes through, smallest first.
    public static let steps = [96, 128, 160, 192, 256, 320, 384]
    /// The size a grid has until the person chooses another.
    public static let standard = TileSize(edge: 160)

    /// The tile's edge in logical pixels, within `smallest...largest`.
    public let edge: Int

    /// A tile size of `edge` pixels, brought into the range.
    public init(edge: Int) {
        self.edge = min(max(edge, Self.smallest), Self.largest)
    }

    /// The next step up (the largest size stays).
    public var larger: TileSize { TileSize(edge: Self.steps.first { $0 > edge } ?? Self.largest) }

    /// The next step down (the smallest size stays).
    public var smaller: TileSize { TileSize(edge: Self.steps.last { $0 < edge } ?? Self.smallest) }

    /// `count` steps up (positive) or down (negative).
    public func stepped(by count: Int) -> TileSize {
        var size = self
        for _ in 0..<abs(count) { size = count > 0 ? size.larger : size.smaller }
        return size
    }

    public var isLargest: Bool { edge == Self.largest }
    public var isSmallest: Bool { edge == Self.smallest }

    /// The index in `steps` of the step nearest this size (the lower one of two as near).
    public var nearestStep: Int {
        Self.steps.indices.min { abs(Self.steps[$0] - edge) < abs(Self.steps[$1] - edge) } ?? 0
    }

    /// The size at `steps[index]`, the index brought into range.
    public init(step index: Int) {
        self.init(edge: Self.steps[min(max(index, 0), Self.steps.count - 1)])
    }

    /// The cache size whose thumbnails fit a tile on a display of `scale` device pixels a
    /// logical pixel: shrunk to the tile, never blown up (`ThumbnailSize.for(edge:)`).
    public func thumbnailSize(scale: Int) -> ThumbnailSize {
        .for(edge: edge * max(1, scale))
    }

    public var description: String { "\(edge) px" }

    public static func < (a: TileSize, b: TileSize) -> Bool { a.edge < b.edge }
}
