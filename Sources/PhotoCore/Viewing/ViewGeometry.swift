/// A point in device pixels, as Doubles.
///
/// In a viewport: from its top-left corner, x to the right, y down (GTK's coordinates).
/// In an image: from the top-left corner of its top-left pixel, in the image's own pixels
/// before any rotation by the viewer, so pixel (i, j) covers `i..<i+1` × `j..<j+1`.
/// Its own type rather than CoreGraphics' (not on Linux) or Foundation's.
public struct ViewPoint: Sendable, Hashable, CustomStringConvertible {
    /// Device pixels to the right of the origin.
    public var x: Double
    /// Device pixels below the origin.
    public var y: Double

    /// The point `x` to the right of the origin and `y` below it.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = ViewPoint(x: 0, y: 0)

    /// `(x, y)`, for test failures and traces.
    public var description: String { "(\(x), \(y))" }

    /// The sum, coordinate by coordinate: a point moved by an offset.
    public static func + (a: ViewPoint, b: ViewPoint) -> ViewPoint { ViewPoint(x: a.x + b.x, y: a.y + b.y) }
    /// The difference, coordinate by coordinate: the offset from `b` to `a`.
    public static func - (a: ViewPoint, b: ViewPoint) -> ViewPoint { ViewPoint(x: a.x - b.x, y: a.y - b.y) }
}

/// A size in device pixels, as Doubles: a viewport's, or an image's once scaled.
public struct ViewSize: Sendable, Hashable, CustomStringConvertible {
    /// Device pixels across.
    public var width: Double
    /// Device pixels down.
    public var height: Double

    /// A size `width` across and `height` down.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The size of `size`, exactly.
    public init(_ size: PixelSize) {
        self.init(width: Double(size.width), height: Double(size.height))
    }

    /// No size.
    public static let zero = ViewSize(width: 0, height: 0)

    /// The middle of a rectangle this size at the origin.
    public var center: ViewPoint { ViewPoint(x: width / 2, y: height / 2) }

    /// `width×height`, for test failures and traces.
    public var description: String { "\(width)×\(height)" }
}

/// A rectangle in device pixels, as Doubles: where an image lies in a viewport.
public struct ViewRect: Sendable, Hashable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: ViewPoint
    /// The width and height.
    public var size: ViewSize

    /// The rectangle of `size` whose top-left corner is `origin`.
    public init(origin: ViewPoint, size: ViewSize) {
        self.origin = origin
        self.size = size
    }

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge.
    public var minY: Double { origin.y }
    /// The right edge.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// The middle.
    public var center: ViewPoint { ViewPoint(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    /// `width×height at (x, y)`, for test failures and traces.
    public var description: String { "\(size) at \(origin)" }
}
