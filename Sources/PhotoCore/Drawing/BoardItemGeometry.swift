import Foundation

// Where an item is: its bounds (what the renderer repaints), its distance from a point
// (selection and the eraser), and the edits that change its geometry or style.

extension BoardItem.Content {
    /// A rectangle holding every pixel the item paints (board pixels), antialiasing
    /// included.
    public var bounds: ViewRect {
        let margin = 1.0  // antialiasing spills over by up to a pixel
        switch self {
        case .stroke(let stroke):
            let controls = stroke.curve.flatMap { [$0.control1, $0.control2] }
            let points = stroke.points.map(\.point) + controls
            return ViewRect(bounding: points)!.expanded(by: stroke.width / 2 + margin)
        case .shape(let shape):
            var points = [shape.start, shape.end]
            if shape.kind == .arrow { points += shape.arrowHead.map { [$0.left, $0.right] } ?? [] }
            // A miter join at a rectangle's corner reaches width/√2 past it.
            return ViewRect(bounding: points)!.expanded(by: shape.width * 0.75 + margin)
        case .text(let label):
            return ViewRect(origin: label.origin, size: label.box).expanded(by: margin)
        case .pixelation(let brush):
            let points = brush.points + brush.curve.flatMap { [$0.control1, $0.control2] }
            return ViewRect(bounding: points)!.expanded(by: brush.width / 2 + margin)
        case .photo(let photo):
            return ViewRect(bounding: photo.corners)!.expanded(by: margin)
        }
    }

    /// How far `point` is from what the item paints, in board pixels: 0 on it (on a line's
    /// width, inside a text's box or a photo).
    ///
    /// Rectangles and ellipses are outlines: their inside is not part of them, so one can
    /// select what lies inside a frame drawn around it.
    public func distance(to point: ViewPoint) -> Double {
        switch self {
        case .stroke(let stroke):
            guard stroke.points.count > 1 else { return max(0, point.distance(to: stroke.points[0].point) - stroke.width / 2) }
            var best = Double.infinity
            for (segment, halfWidth) in zip(stroke.curve, stroke.segmentHalfWidths) {
                best = min(best, point.distance(toPolyline: segment.flattened(spacing: max(1, halfWidth))) - halfWidth)
            }
            return max(0, best)
        case .shape(let shape):
            return max(0, point.distance(toPolyline: shape.outline) - shape.width / 2)
        case .text(let label):
            return ViewRect(origin: label.origin, size: label.box).distance(to: point)
        case .pixelation(let brush):
            guard brush.points.count > 1 else { return max(0, point.distance(to: brush.points[0]) - brush.width / 2) }
            let line = brush.curve.flatMap { $0.flattened(spacing: max(1, brush.width / 4)) }
            return max(0, point.distance(toPolyline: line) - brush.width / 2)
        case .photo(let photo):
            let inside = photo.photoPoint(forBoardPoint: point)
            let dx = max(0, -inside.x, inside.x - Double(photo.imageSize.width))
            let dy = max(0, -inside.y, inside.y - Double(photo.imageSize.height))
            return (dx * dx + dy * dy).squareRoot() * photo.placement.scale
        }
    }

    /// The item moved by `offset` board pixels.
    public func moved(by offset: ViewPoint) -> BoardItem.Content {
        switch self {
        case .stroke(var stroke):
            stroke.move(by: offset)
            return .stroke(stroke)
        case .shape(var shape):
            shape.start = shape.start + offset
            shape.end = shape.end + offset
            return .shape(shape)
        case .text(var label):
            label.origin = label.origin + offset
            return .text(label)
        case .pixelation(let brush):
            return .pixelation(Pixelation(width: brush.width, points: brush.points.map { $0 + offset }))
        case .photo(var photo):
            photo.placement.centre = photo.placement.centre + offset
            return .photo(photo)
        }
    }

    /// The item's colour; nil for what has none of its own (a pixelation, a photo).
    public var colour: DrawingColour? {
        switch self {
        case .stroke(let stroke): stroke.colour
        case .shape(let shape): shape.colour
        case .text(let label): label.colour
        case .pixelation, .photo: nil
        }
    }

    /// The item in `colour` (unchanged when it has no colour).
    public func recoloured(_ colour: DrawingColour) -> BoardItem.Content {
        switch self {
        case .stroke(var stroke):
            stroke.colour = colour
            return .stroke(stroke)
        case .shape(var shape):
            shape.colour = colour
            return .shape(shape)
        case .text(var label):
            label.colour = colour
            return .text(label)
        case .pixelation, .photo:
            return self
        }
    }

    /// The line's or brush's width; nil for a text or a photo.
    public var width: Double? {
        switch self {
        case .stroke(let stroke): stroke.width
        case .shape(let shape): shape.width
        case .pixelation(let brush): brush.width
        case .text, .photo: nil
        }
    }

    /// The item with its line or brush `width` board pixels wide (unchanged when it has
    /// no width).
    public func withWidth(_ width: Double) -> BoardItem.Content {
        switch self {
        case .stroke(var stroke):
            stroke.width = max(width, 0.1)
            return .stroke(stroke)
        case .shape(var shape):
            shape.width = max(width, 0.1)
            return .shape(shape)
        case .pixelation(var brush):
            brush.width = max(width, 1)
            return .pixelation(brush)
        case .text, .photo:
            return self
        }
    }
}

extension Stroke {
    /// Half the width drawn along each segment of `curve` (the mean of its ends' widths).
    public var segmentHalfWidths: [Double] {
        guard points.count > 1 else { return [] }
        return (1..<points.count).map { (width(atPressure: points[$0 - 1].pressure) + width(atPressure: points[$0].pressure)) / 4 }
    }
}

extension Shape {
    /// An arrow's head: a filled triangle whose tip is `end`, 4 widths and 8 pixels long,
    /// 28° each side of the shaft; nil for other shapes and for an arrow of no length.
    public var arrowHead: (left: ViewPoint, tip: ViewPoint, right: ViewPoint)? {
        guard kind == .arrow else { return nil }
        let direction = end - start
        let length = direction.length
        guard length > 1e-9 else { return nil }
        let headLength = min(4 * width + 8, length)
        let back = direction * (-headLength / length)
        let spread = 28 * Double.pi / 180
        return (end + back.rotated(by: -spread, around: .zero), end, end + back.rotated(by: spread, around: .zero))
    }

    /// The outline the shape draws, as a polyline (the ellipse in 96 pieces).
    public var outline: [ViewPoint] {
        switch kind {
        case .line:
            return [start, end]
        case .arrow:
            guard let head = arrowHead else { return [start, end] }
            return [start, end, head.left, head.right, end]
        case .rectangle:
            let r = ViewRect(corner: start, end)
            return [r.origin, ViewPoint(x: r.maxX, y: r.minY), ViewPoint(x: r.maxX, y: r.maxY),
                    ViewPoint(x: r.minX, y: r.maxY), r.origin]
        case .ellipse:
            let r = ViewRect(corner: start, end)
            let c = r.center, a = r.size.width / 2, b = r.size.height / 2
            return (0...96).map { i in
                let t = Double(i) / 96 * 2 * .pi
                return ViewPoint(x: c.x + a * cos(t), y: c.y + b * sin(t))
            }
        }
    }
}

extension ViewRect {
    /// How far `point` is from the rectangle (0 inside).
    public func distance(to point: ViewPoint) -> Double {
        let dx = max(0, minX - point.x, point.x - maxX), dy = max(0, minY - point.y, point.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}
