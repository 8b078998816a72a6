/// What a drag on the board does: the tools of the drawing board's toolbar.
public enum BoardTool: String, Sendable, CaseIterable {
    case pen, highlighter, line, arrow, rectangle, ellipse, text, pixelate, eraser, select, crop

    /// The key that picks the tool (the toolbar says so in its tooltips).
    public var key: Character {
        switch self {
        case .pen: "p"
        case .highlighter: "h"
        case .line: "l"
        case .arrow: "a"
        case .rectangle: "r"
        case .ellipse: "o"
        case .text: "t"
        case .pixelate: "b"
        case .eraser: "e"
        case .select: "v"
        case .crop: "c"
        }
    }

    /// Whether the tool draws in the chosen colour (the colour buttons then apply to it).
    public var usesColour: Bool { ![.pixelate, .eraser, .select, .crop].contains(self) }
}

/// One drag of a drawing tool, from the press to the release, in board pixels: the item it
/// makes as it goes (to draw over the board while the drag lasts), and what it makes of it
/// at the end. Tools that change items in place (eraser, select) and the crop are the
/// editor's; this makes the items that are added.
public struct ToolDrag: Sendable, Equatable {
    public let tool: BoardTool
    public let start: ViewPoint
    /// The item as drawn so far (nil for tools that add none).
    public private(set) var content: BoardItem.Content?
    private var spacing: Double

    /// A drag beginning at `start`, in `colour` and `width` (board pixels), `pressure` from
    /// a stylus (0…1) when it gives one; `spacing`: the least distance between the points of
    /// a stroke (a device pixel, in board pixels).
    public init(_ tool: BoardTool, at start: ViewPoint, colour: DrawingColour, width: Double, pressure: Double? = nil, spacing: Double = 0) {
        self.tool = tool
        self.start = start
        self.spacing = spacing
        switch tool {
        case .pen: content = .stroke(Stroke(tool: .pen, colour: colour, width: width, start: StrokePoint(start, pressure: pressure)))
        case .highlighter: content = .stroke(Stroke(tool: .highlighter, colour: colour, width: width * 4, start: StrokePoint(start)))
        case .line: content = .shape(Shape(.line, from: start, to: start, colour: colour, width: width))
        case .arrow: content = .shape(Shape(.arrow, from: start, to: start, colour: colour, width: width))
        case .rectangle: content = .shape(Shape(.rectangle, from: start, to: start, colour: colour, width: width))
        case .ellipse: content = .shape(Shape(.ellipse, from: start, to: start, colour: colour, width: width))
        case .pixelate: content = .pixelation(Pixelation(width: width * 8, start: start))
        case .text, .eraser, .select, .crop: content = nil
        }
    }

    /// The pointer moved to `point`.
    public mutating func move(to point: ViewPoint, pressure: Double? = nil) {
        switch content {
        case .stroke(var stroke)?:
            stroke.extend(to: StrokePoint(point, pressure: stroke.tool == .pen ? pressure : nil), minimumSpacing: spacing)
            content = .stroke(stroke)
        case .shape(var shape)?:
            shape.end = point
            content = .shape(shape)
        case .pixelation(var pixelation)?:
            pixelation.extend(to: point, minimumSpacing: spacing)
            content = .pixelation(pixelation)
        default:
            break
        }
    }

    /// What the released drag adds to the board: nil for a shape with no size (a click).
    public var finished: BoardItem.Content? {
        if case .shape(let shape)? = content, shape.start == shape.end { return nil }
        return content
    }

    /// The rectangle between the press and `point` (the crop tool's), in board pixels.
    public func rectangle(to point: ViewPoint) -> ViewRect {
        ViewRect(origin: ViewPoint(x: min(start.x, point.x), y: min(start.y, point.y)),
                 size: ViewSize(width: abs(point.x - start.x), height: abs(point.y - start.y)))
    }
}
