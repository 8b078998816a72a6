import Foundation

/// Where a photo lies on screen while fingers move it: its scale, its angle (radians,
/// clockwise, any angle) and where its centre is from the viewport's centre (device pixels).
public struct Placement: Sendable, Equatable {
    public var scale: Double
    public var angle: Double
    public var centre: ViewPoint

    public init(scale: Double, angle: Double = 0, centre: ViewPoint = .zero) {
        self.scale = scale
        self.angle = angle
        self.centre = centre
    }
}

/// One gesture of two fingers (or a touchpad's pinch), which pinches, turns and drags the
/// photo at once: the photo follows the fingers as if held by them. It scales and turns
/// around the point between the fingers where the gesture began, and moves with that point.
///
/// Values from GTK's gestures are relative to the gesture's start (GtkGestureZoom's scale,
/// GtkGestureRotate's angle delta, the bounding box's centre), so a gesture keeps the
/// placement it started from and derives every later one from it.
public struct TwoFingerGesture: Sendable, Equatable {
    /// Where the photo was when the fingers came down.
    public let start: Placement
    /// The point between the fingers then, from the viewport's centre.
    public let origin: ViewPoint

    public init(from start: Placement, centroid: ViewPoint) {
        self.start = start
        origin = centroid
    }

    /// The placement for the fingers scaled by `scale` and turned by `angle` (radians,
    /// clockwise) since the start, with the point between them now at `centroid`.
    public func placement(scale: Double, angle: Double, centroid: ViewPoint) -> Placement {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        let angle = angle.isFinite ? angle : 0
        // The photo's centre, relative to the starting point between the fingers, turned
        // and scaled with them, then carried to where that point is now.
        let dx = start.centre.x - origin.x, dy = start.centre.y - origin.y
        let cosine = cos(angle), sine = sin(angle)
        let centre = ViewPoint(x: centroid.x + scale * (dx * cosine - dy * sine),
                               y: centroid.y + scale * (dx * sine + dy * cosine))
        return Placement(scale: start.scale * scale, angle: start.angle + angle, centre: centre)
    }
}

/// Successive gestures on one photo, as the browser's original documents have them: scale,
/// rotation and translation combine within a gesture and persist between gestures, each new
/// gesture starting from where the last one left the photo. What a gesture's end does to the
/// placement (the viewer turns it to the nearest quarter turn and keeps it in view; the
/// drawing board leaves it as it is) is the caller's `settle`.
public struct GestureTrack: Sendable, Equatable {
    /// Where the photo is: during a gesture, where the fingers hold it.
    public private(set) var placement: Placement
    private var gesture: TwoFingerGesture?

    public init(placement: Placement) {
        self.placement = placement
    }

    public var isActive: Bool { gesture != nil }

    /// Fingers came down with the point between them at `centroid`.
    public mutating func begin(centroid: ViewPoint) {
        gesture = TwoFingerGesture(from: placement, centroid: centroid)
    }

    /// The fingers moved: scaled by `scale`, turned by `angle` since the gesture began.
    public mutating func update(scale: Double, angle: Double, centroid: ViewPoint) {
        guard let gesture else { return }
        placement = gesture.placement(scale: scale, angle: angle, centroid: centroid)
    }

    /// The fingers left: `settle` decides where the photo stays, which the next gesture
    /// starts from.
    public mutating func end(settle: (Placement) -> Placement = { $0 }) {
        gesture = nil
        placement = settle(placement)
    }

    /// The placement changed by other means (a key, a button): gestures start from it now.
    public mutating func reset(to placement: Placement) {
        gesture = nil
        self.placement = placement
    }
}

extension Placement {
    /// The viewer's placement of `view`: its scale, its quarter turns, its pan.
    public init(_ view: ViewTransform) {
        self.init(scale: view.scale, angle: Double(view.quarterTurns) * .pi / 2, centre: view.pan)
    }

    /// The angle turned to the nearest quarter turn, in quarter turns (any integer).
    public var nearestQuarterTurns: Int { ZoomGeometry.snappedQuarterTurns(forAngle: angle) }

    /// What is left of the angle past the nearest quarter turn (radians, within ±45°): how
    /// much the viewer draws the photo turned beyond its quarter turns while fingers hold it.
    public var angleBeyondQuarterTurns: Double { angle - Double(nearestQuarterTurns) * .pi / 2 }
}

extension ViewTransform {
    /// Where a gesture leaves the photo in the viewer, a photo viewer's convention: at the
    /// nearest quarter turn, its scale and pan then kept within range (`init(imageSize:…)`).
    public func settled(at placement: Placement) -> ViewTransform {
        ViewTransform(imageSize: imageSize, viewport: viewport, quarterTurns: placement.nearestQuarterTurns,
                      scale: placement.scale, pan: placement.centre)
    }
}
