import Foundation

// The plane arithmetic the board needs: points as vectors, rectangles as bounds, and the
// distance from a point to a segment (hit tests, the eraser). Board points are `ViewPoint`s
// in board pixels (see `Board`), rectangles `ViewRect`s in the same pixels.

extension ViewPoint {
    /// The point scaled by `factor` about the origin: an offset made longer or shorter.
    public static func * (point: ViewPoint, factor: Double) -> ViewPoint {
        ViewPoint(x: point.x * factor, y: point.y * factor)
    }

    /// The distance from the origin: an offset's length.
    public var length: Double { (x * x + y * y).squareRoot() }

    /// The distance to `other`.
    public func distance(to other: ViewPoint) -> Double { (self - other).length }

    /// The point turned by `angle` radians (clockwise, y down) about `centre`.
    public func rotated(by angle: Double, around centre: ViewPoint) -> ViewPoint {
        let d = self - centre, c = cos(angle), s = sin(angle)
        return ViewPoint(x: centre.x + d.x * c - d.y * s, y: centre.y + d.x * s + d.y * c)
    }

    /// The distance from the point to the segment from `a` to `b` (to `a` when they are
    /// the same point).
    public func distance(toSegmentFrom a: ViewPoint, to b: ViewPoint) -> Double {
        let ab = b - a, ap = self - a
        let lengthSquared = ab.x * ab.x + ab.y * ab.y
        guard lengthSquared > 0 else { return ap.length }
        let t = min(max((ap.x * ab.x + ap.y * ab.y) / lengthSquared, 0), 1)
        return distance(to: a + ab * t)
    }

    /// The distance from the point to the polyline through `points` (infinity when empty).
    public func distance(toPolyline points: [ViewPoint]) -> Double {
        guard let first = points.first else { return .infinity }
        guard points.count > 1 else { return distance(to: first) }
        var best = Double.infinity
        for i in 1..<points.count {
            best = min(best, distance(toSegmentFrom: points[i - 1], to: points[i]))
        }
        return best
    }
}

extension ViewRect {
    /// The smallest rectangle holding every point of `points`; nil when there are none.
    public init?(bounding points: some Sequence<ViewPoint>) {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        var minX = first.x, minY = first.y, maxX = first.x, maxY = first.y
        while let p = iterator.next() {
            minX = min(minX, p.x); minY = min(minY, p.y)
            maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        self.init(origin: ViewPoint(x: minX, y: minY), size: ViewSize(width: maxX - minX, height: maxY - minY))
    }

    /// The rectangle between two corners, in either order (a drag's start and end).
    public init(corner a: ViewPoint, _ b: ViewPoint) {
        self.init(origin: ViewPoint(x: min(a.x, b.x), y: min(a.y, b.y)),
                  size: ViewSize(width: abs(a.x - b.x), height: abs(a.y - b.y)))
    }

    /// The rectangle grown by `amount` on every side (shrunk when negative, never below
    /// an empty size).
    public func expanded(by amount: Double) -> ViewRect {
        ViewRect(origin: ViewPoint(x: minX - amount, y: minY - amount),
                 size: ViewSize(width: max(0, size.width + 2 * amount), height: max(0, size.height + 2 * amount)))
    }

    /// The smallest rectangle holding both.
    public func union(_ other: ViewRect) -> ViewRect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return ViewRect(origin: ViewPoint(x: x0, y: y0), size: ViewSize(width: x1 - x0, height: y1 - y0))
    }

    /// What both cover; nil when they do not overlap (touching edges do not overlap).
    public func intersection(_ other: ViewRect) -> ViewRect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return ViewRect(origin: ViewPoint(x: x0, y: y0), size: ViewSize(width: x1 - x0, height: y1 - y0))
    }

    /// Whether the two overlap.
    public func intersects(_ other: ViewRect) -> Bool { intersection(other) != nil }

    /// Whether `point` is inside or on the edge.
    public func contains(_ point: ViewPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// The rectangle moved by `offset`.
    public func offset(by offset: ViewPoint) -> ViewRect { ViewRect(origin: origin + offset, size: size) }

    /// Whether it covers no area.
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }
}
