import Foundation

/// One piece of a smoothed stroke: a cubic Bézier curve from `start` to `end` (cairo's
/// `curve_to` with the two controls).
public struct CubicSegment: Sendable, Equatable {
    public var start: ViewPoint
    public var control1: ViewPoint
    public var control2: ViewPoint
    public var end: ViewPoint

    public init(start: ViewPoint, control1: ViewPoint, control2: ViewPoint, end: ViewPoint) {
        self.start = start
        self.control1 = control1
        self.control2 = control2
        self.end = end
    }

    /// The point at `t` in 0...1 (0 is `start`, 1 is `end`).
    public func point(at t: Double) -> ViewPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return ViewPoint(x: a * start.x + b * control1.x + c * control2.x + d * end.x,
                         y: a * start.y + b * control1.y + c * control2.y + d * end.y)
    }

    /// Points along the curve, `start` first and `end` last, about `spacing` board pixels
    /// apart (at most 64 pieces): a polyline close to the curve, for hit tests.
    public func flattened(spacing: Double) -> [ViewPoint] {
        let length = start.distance(to: control1) + control1.distance(to: control2) + control2.distance(to: end)
        let pieces = min(64, max(1, Int((length / max(spacing, 0.01)).rounded(.up))))
        return (0...pieces).map { point(at: Double($0) / Double(pieces)) }
    }

    /// The curve moved by `offset`.
    public func offset(by offset: ViewPoint) -> CubicSegment {
        CubicSegment(start: start + offset, control1: control1 + offset, control2: control2 + offset, end: end + offset)
    }
}

/// Smoothing of freehand strokes: a centripetal Catmull-Rom spline through the points the
/// pointer went through, as cubic Bézier segments.
///
/// The curve passes through every point, so a stroke starts and ends exactly where the
/// pointer did; between points it follows the motion without the overshoot and loops a
/// uniform Catmull-Rom spline makes where points are unevenly spaced (the centripetal
/// parameterisation, α = ½: Yuksel, Schaefer and Keyser, "Parameterization and applications
/// of Catmull-Rom curves", 2011). The ends are extended by reflecting their neighbour, so
/// the first and last segments leave and reach their points along the stroke's direction.
///
/// Every curve lies within the convex hull of its segments' points and controls, so those
/// bound a stroke (`BoardItem.Content.bounds`).
public enum StrokeSmoothing {
    /// The segments through `points`: one fewer than the points, none for one point.
    public static func segments(through points: [ViewPoint]) -> [CubicSegment] {
        guard points.count >= 2 else { return [] }
        var segments: [CubicSegment] = []
        segments.reserveCapacity(points.count - 1)
        let last = points.count - 1
        for i in 0..<last {
            let p1 = points[i], p2 = points[i + 1]
            let p0 = i > 0 ? points[i - 1] : p1 + (p1 - p2)
            let p3 = i + 1 < last ? points[i + 2] : p2 + (p2 - p1)
            segments.append(segment(p0, p1, p2, p3))
        }
        return segments
    }

    /// The Bézier form of the centripetal Catmull-Rom piece from `p1` to `p2`.
    static func segment(_ p0: ViewPoint, _ p1: ViewPoint, _ p2: ViewPoint, _ p3: ViewPoint) -> CubicSegment {
        // Knot intervals: the square roots of the distances (α = ½).
        let d1 = p0.distance(to: p1).squareRoot(), d2 = p1.distance(to: p2).squareRoot(), d3 = p2.distance(to: p3).squareRoot()
        guard d2 > 1e-12 else { return CubicSegment(start: p1, control1: p1, control2: p2, end: p2) }
        let c1: ViewPoint
        if d1 > 1e-12 {
            let a = d1 * d1, b = d2 * d2, m = 2 * a + 3 * d1 * d2 + b, n = 3 * d1 * (d1 + d2)
            c1 = ViewPoint(x: (a * p2.x - b * p0.x + m * p1.x) / n, y: (a * p2.y - b * p0.y + m * p1.y) / n)
        } else {
            c1 = p1
        }
        let c2: ViewPoint
        if d3 > 1e-12 {
            let a = d3 * d3, b = d2 * d2, m = 2 * a + 3 * d3 * d2 + b, n = 3 * d3 * (d3 + d2)
            c2 = ViewPoint(x: (a * p1.x - b * p3.x + m * p2.x) / n, y: (a * p1.y - b * p3.y + m * p2.y) / n)
        } else {
            c2 = p2
        }
        return CubicSegment(start: p1, control1: c1, control2: c2, end: p2)
    }
}
