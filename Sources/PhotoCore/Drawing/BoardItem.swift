/// An item's identity on its board: stable for the board's life, whatever is moved, undone
/// or redone (an undone item comes back with the same id), never reused.
public struct BoardItemID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: BoardItemID, b: BoardItemID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// One thing drawn on a board, in board pixels (see `Board`): a stroke, a shape, a text, a
/// pixelated area or a photo fixed onto it.
public struct BoardItem: Sendable, Equatable, Identifiable {
    public let id: BoardItemID
    public var content: Content {
        didSet { bounds = content.bounds }
    }
    /// `content.bounds`, worked out once for each content: hit tests and repaints ask every
    /// item for it.
    public private(set) var bounds: ViewRect

    public init(id: BoardItemID, content: Content) {
        self.id = id
        self.content = content
        bounds = content.bounds
    }

    /// What an item is, with its geometry and style.
    public enum Content: Sendable, Equatable {
        /// A freehand stroke of the pen or the highlighter.
        case stroke(Stroke)
        /// A straight line, an arrow, a rectangle or an ellipse.
        case shape(Shape)
        /// A text.
        case text(TextLabel)
        /// A brush stroke that shows the board's photo in blocks under it.
        case pixelation(Pixelation)
        /// A photo fixed onto the board.
        case photo(InsertedPhoto)
    }
}

/// A point of a freehand stroke, with the stylus's pressure where the device gives one.
public struct StrokePoint: Sendable, Hashable {
    public var point: ViewPoint
    /// 0...1 (GDK_AXIS_PRESSURE); nil for a mouse or a touchpad.
    public var pressure: Double?

    public init(_ point: ViewPoint, pressure: Double? = nil) {
        self.point = point
        self.pressure = pressure.map { $0.isFinite ? min(max($0, 0), 1) : 1 }
    }
}

/// A freehand stroke: the points the pointer went through, drawn as a smooth curve through
/// all of them (`StrokeSmoothing`), so the stroke starts and ends exactly where the pointer
/// did.
///
/// The pen is opaque in its colour; with pressure its width follows the stylus, from a
/// quarter of `width` (no pressure) to `width` (full). The highlighter is a wide,
/// see-through stroke that darkens what is under it (multiply, at `highlighterOpacity`)
/// instead of covering it, drawn in drawing order like everything else: a highlighter over
/// text leaves the text readable, and a stroke drawn later over the highlighter stays as
/// strong as it was chosen. A stroke never darkens itself where it crosses itself. The
/// highlighter ignores pressure: its width is even, as a felt tip's.
public struct Stroke: Sendable, Equatable {
    public enum Tool: Sendable, Equatable { case pen, highlighter }

    public var tool: Tool
    public var colour: DrawingColour
    /// The width in board pixels (at full pressure).
    public var width: Double
    public private(set) var points: [StrokePoint]

    /// How much of the highlighter's colour shows: multiplied in at this opacity.
    public static let highlighterOpacity = 0.5
    /// The width with no pressure, as a fraction of `width`.
    public static let lightestPressureWidth = 0.25

    /// A stroke starting at `start`.
    public init(tool: Tool = .pen, colour: DrawingColour = .red, width: Double, start: StrokePoint) {
        self.init(tool: tool, colour: colour, width: width, points: [start])
    }

    /// A stroke through `points` (at least one).
    public init(tool: Tool = .pen, colour: DrawingColour = .red, width: Double, points: [StrokePoint]) {
        precondition(!points.isEmpty, "a stroke has at least one point")
        self.tool = tool
        self.colour = colour
        self.width = width.isFinite ? max(width, 0.1) : 1
        self.points = points
    }

    /// The pointer moved to `point`. Points closer than `minimumSpacing` (board pixels: a
    /// device pixel at the view's scale is a good choice) to the one before the last do not
    /// add a point but move the last one, so the stroke always ends under the pointer and
    /// slow, jittery motion adds no wobble.
    public mutating func extend(to point: StrokePoint, minimumSpacing: Double = 0) {
        guard point.point.x.isFinite, point.point.y.isFinite else { return }
        if points.count >= 2, points[points.count - 2].point.distance(to: point.point) < minimumSpacing {
            points[points.count - 1] = point
        } else {
            points.append(point)
        }
    }

    /// The stroke moved by `offset`.
    mutating func move(by offset: ViewPoint) {
        points = points.map { StrokePoint($0.point + offset, pressure: $0.pressure) }
    }

    /// Whether any point has a pressure (a stylus drew it).
    public var hasPressure: Bool { tool == .pen && points.contains { $0.pressure != nil } }

    /// The width drawn at a point of this pressure.
    public func width(atPressure pressure: Double?) -> Double {
        guard tool == .pen, let pressure else { return width }
        return width * (Self.lightestPressureWidth + (1 - Self.lightestPressureWidth) * pressure)
    }

    /// The smooth curve through the points (empty for a single point: a dot).
    public var curve: [CubicSegment] { StrokeSmoothing.segments(through: points.map(\.point)) }
}

/// A straight line, an arrow, a rectangle or an ellipse, given by the two points a drag went
/// between: the line's ends (the arrow points at `end`), the rectangle's opposite corners, the
/// corners of the rectangle the ellipse fills.
public struct Shape: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case line, arrow, rectangle, ellipse }

    public var kind: Kind
    public var start: ViewPoint
    public var end: ViewPoint
    public var colour: DrawingColour
    /// The line's width in board pixels.
    public var width: Double

    public init(_ kind: Kind, from start: ViewPoint, to end: ViewPoint, colour: DrawingColour = .red, width: Double) {
        self.kind = kind
        self.start = start
        self.end = end
        self.colour = colour
        self.width = width.isFinite ? max(width, 0.1) : 1
    }
}

/// A text on the board: its top-left corner, its size and colour, in board pixels.
///
/// `box` is the size the text takes as laid out, which hit tests and bounds use. The model
/// cannot lay text out (no Pango here): it starts with an estimate (`estimatedBox`), and the
/// renderer's measure (`BoardText.laidOut` in PhotoIO) replaces it with the exact one; the
/// app makes texts through that.
public struct TextLabel: Sendable, Equatable {
    public var text: String
    /// The top-left corner of the text's box.
    public var origin: ViewPoint
    /// The font's size: the distance between lines' baselines is about 1.2 times it.
    public var fontSize: Double
    public var colour: DrawingColour
    public var box: ViewSize

    public init(_ text: String, at origin: ViewPoint, fontSize: Double, colour: DrawingColour = .red, box: ViewSize? = nil) {
        self.text = text
        self.origin = origin
        self.fontSize = fontSize.isFinite ? max(fontSize, 1) : 12
        self.colour = colour
        self.box = box ?? Self.estimatedBox(text, fontSize: self.fontSize)
    }

    /// About the size `text` takes at `fontSize`: 0.6 em a character, 1 em a wide one
    /// (Chinese, Japanese, Korean), 1.2 em a line.
    public static func estimatedBox(_ text: String, fontSize: Double) -> ViewSize {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let widest = lines.map { line in
            line.unicodeScalars.reduce(0.0) { sum, scalar in sum + (scalar.value >= 0x1100 ? 1 : 0.6) }
        }.max() ?? 0
        return ViewSize(width: widest * fontSize, height: Double(max(lines.count, 1)) * fontSize * 1.2)
    }
}

/// A brush stroke that hides what is under it (faces, number plates): along the brush the
/// board shows its photo pixelated, in blocks `Board.pixelBlockSize` board pixels wide on a
/// grid fixed to the photo, each the mean colour of the photo's pixels in it.
///
/// The blocks are made from the photo's own full-resolution pixels, never from what is drawn
/// over it, so they are the same on screen at any zoom and in the saved file. Marks and
/// photos drawn before it are covered by it; on a blank board it paints the background.
public struct Pixelation: Sendable, Equatable {
    public private(set) var points: [ViewPoint]
    /// The brush's width in board pixels.
    public var width: Double

    public init(width: Double, start: ViewPoint) {
        self.init(width: width, points: [start])
    }

    public init(width: Double, points: [ViewPoint]) {
        precondition(!points.isEmpty, "a pixelation has at least one point")
        self.width = width.isFinite ? max(width, 1) : 1
        self.points = points
    }

    /// The brush moved to `point`; see `Stroke.extend(to:minimumSpacing:)`.
    public mutating func extend(to point: ViewPoint, minimumSpacing: Double = 0) {
        guard point.x.isFinite, point.y.isFinite else { return }
        if points.count >= 2, points[points.count - 2].distance(to: point) < minimumSpacing {
            points[points.count - 1] = point
        } else {
            points.append(point)
        }
    }

    /// The smooth curve the brush follows (empty for a single point: a round dab).
    public var curve: [CubicSegment] { StrokeSmoothing.segments(through: points) }
}

/// What the app calls an inserted photo's pixels by: any text that names them uniquely on
/// the board (a file's URI, or a made-up name for a pasted image). The renderer looks the
/// pixels up by it (`BoardImages` in PhotoIO).
public struct PhotoReference: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }
}

/// A photo fixed onto the board: its pixels' reference and size, and where it lies.
///
/// The placement is in board pixels: `centre` is where the photo's centre is on the board,
/// `scale` board pixels per pixel of the photo, `angle` radians clockwise.
public struct InsertedPhoto: Sendable, Equatable {
    public var reference: PhotoReference
    public var imageSize: PixelSize
    public var placement: Placement

    public init(reference: PhotoReference, imageSize: PixelSize, placement: Placement) {
        self.reference = reference
        self.imageSize = imageSize
        self.placement = placement
    }

    /// The photo's corners on the board: top-left, top-right, bottom-right, bottom-left
    /// (of the photo, turned with it).
    public var corners: [ViewPoint] {
        let w = Double(imageSize.width) * placement.scale / 2, h = Double(imageSize.height) * placement.scale / 2
        let c = placement.centre
        return [ViewPoint(x: -w, y: -h), ViewPoint(x: w, y: -h), ViewPoint(x: w, y: h), ViewPoint(x: -w, y: h)]
            .map { ($0 + c).rotated(by: placement.angle, around: c) }
    }

    /// The board point `point` in the photo's own pixels (from its top-left corner).
    public func photoPoint(forBoardPoint point: ViewPoint) -> ViewPoint {
        let scale = placement.scale > 0 ? placement.scale : 1
        let turned = point.rotated(by: -placement.angle, around: placement.centre) - placement.centre
        return ViewPoint(x: turned.x / scale + Double(imageSize.width) / 2, y: turned.y / scale + Double(imageSize.height) / 2)
    }
}
