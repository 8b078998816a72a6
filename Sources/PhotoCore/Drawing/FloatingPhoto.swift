import Foundation

/// A photo being inserted on a board: it floats over the items with handles until Enter (or
/// a long press) fixes it onto the board (`Board.fixFloatingPhoto`, one undo step) or Escape
/// drops it (`Board.dropFloatingPhoto`).
///
/// Where it lies is a `Placement` in board pixels (its centre on the board, board pixels per
/// photo pixel, its angle), moved by a `GestureTrack` as the picker's preview is: a two-finger
/// gesture pinches, turns and drags it at once, each gesture starting where the last left it,
/// and nothing snaps it when the fingers leave (any angle stays). The handles are gestures
/// too, around the photo's centre: a corner handle scales, the rotation handle turns.
///
/// Give every point in board pixels (`BoardView.boardPoint(forWidgetPoint:scaleFactor:)`),
/// so the placement is the same at any zoom.
///
/// ```swift
/// board.floatingPhoto = FloatingPhoto(reference: PhotoReference(uri), imageSize: size, fittingIn: view.visibleRect)
/// board.floatingPhoto?.beginGesture(centroid: p)                        // two fingers down
/// board.floatingPhoto?.updateGesture(scale: 1.4, angle: 0.3, centroid: q)
/// board.floatingPhoto?.endGesture()
/// board.fixFloatingPhoto()                                               // Enter
/// ```
public struct FloatingPhoto: Sendable, Equatable {
    /// Which of its handles a drag holds.
    public enum Handle: Sendable, Equatable {
        /// A corner: scales the photo about its centre, keeping its angle.
        case corner
        /// The rotation handle: turns the photo about its centre, keeping its size.
        case rotation
    }

    public let reference: PhotoReference
    /// The photo's own size in pixels.
    public let imageSize: PixelSize
    public private(set) var track: GestureTrack
    private var handleDrag: HandleDrag?

    private struct HandleDrag: Sendable, Equatable {
        let handle: Handle
        let start: ViewPoint
    }

    /// The photo placed at `placement` (board pixels).
    public init(reference: PhotoReference, imageSize: PixelSize, placement: Placement) {
        self.reference = reference
        self.imageSize = PixelSize(width: max(1, imageSize.width), height: max(1, imageSize.height))
        track = GestureTrack(placement: placement)
    }

    /// The photo centred in `visible` (the board pixels in view), scaled to fill `fraction`
    /// of it, upright: where a photo inserted from a file or the clipboard first appears.
    public init(reference: PhotoReference, imageSize: PixelSize, fittingIn visible: ViewRect, fraction: Double = 0.6) {
        let w = Double(max(1, imageSize.width)), h = Double(max(1, imageSize.height))
        let fit = min(visible.size.width / w, visible.size.height / h) * fraction
        self.init(reference: reference, imageSize: imageSize,
                  placement: Placement(scale: fit.isFinite && fit > 0 ? fit : 1, angle: 0, centre: visible.center))
    }

    /// Where the photo lies now (while fingers or a handle hold it, where they hold it).
    public var placement: Placement { track.placement }

    /// The photo as an item fixed where it floats.
    public var photo: InsertedPhoto { InsertedPhoto(reference: reference, imageSize: imageSize, placement: placement) }

    /// Its corners on the board: top-left, top-right, bottom-right, bottom-left (turned).
    public var corners: [ViewPoint] { photo.corners }

    /// Where the rotation handle is: `distance` board pixels above the middle of the
    /// photo's top edge, turned with the photo.
    public func rotationHandle(distance: Double) -> ViewPoint {
        let c = placement.centre
        let above = ViewPoint(x: c.x, y: c.y - Double(imageSize.height) * placement.scale / 2 - distance)
        return above.rotated(by: placement.angle, around: c)
    }

    /// Whether `point` is on the photo, or within `tolerance` of it.
    public func contains(_ point: ViewPoint, tolerance: Double = 0) -> Bool {
        BoardItem.Content.photo(photo).distance(to: point) <= tolerance
    }

    // MARK: - Gestures

    /// Whether a gesture or a handle holds the photo.
    public var isHeld: Bool { track.isActive }

    /// Two fingers came down, the point between them at `centroid`.
    public mutating func beginGesture(centroid: ViewPoint) {
        handleDrag = nil
        track.begin(centroid: centroid)
    }

    /// The fingers scaled by `scale`, turned by `angle` (radians, clockwise) since they came
    /// down, and the point between them is at `centroid`.
    public mutating func updateGesture(scale: Double, angle: Double, centroid: ViewPoint) {
        track.update(scale: scale, angle: angle, centroid: centroid)
    }

    /// The fingers left: the photo stays where they left it.
    public mutating func endGesture() { track.end() }

    /// A drag on the photo (one finger, the mouse) moved it by `offset`.
    public mutating func move(by offset: ViewPoint) {
        guard !track.isActive else { return }
        var moved = placement
        moved.centre = moved.centre + offset
        track.reset(to: moved)
    }

    /// Scales the photo by `factor` about its centre (keys, a scroll).
    public mutating func scale(by factor: Double) {
        guard !track.isActive, factor.isFinite, factor > 0 else { return }
        var scaled = placement
        scaled.scale *= factor
        track.reset(to: scaled)
    }

    /// Turns the photo by `angle` radians clockwise about its centre (keys).
    public mutating func rotate(by angle: Double) {
        guard !track.isActive, angle.isFinite else { return }
        var turned = placement
        turned.angle += angle
        track.reset(to: turned)
    }

    /// A drag on one of the handles began at `point`.
    public mutating func beginHandleDrag(_ handle: Handle, at point: ViewPoint) {
        handleDrag = HandleDrag(handle: handle, start: point)
        track.begin(centroid: placement.centre)
    }

    /// The handle held is now at `point`: a corner scales the photo by how much nearer to
    /// or further from the centre it is than where the drag began; the rotation handle turns
    /// it by the angle it went round the centre.
    public mutating func dragHandle(to point: ViewPoint) {
        guard let handle = handleDrag?.handle, let start = handleDrag?.start else { return }
        // Scaled and turned about the centre, which so stays where it is.
        let centre = placement.centre
        let from = start - centre, to = point - centre
        switch handle {
        case .corner:
            let ratio = from.length > 1e-9 ? to.length / from.length : 1
            track.update(scale: max(ratio, 1e-3), angle: 0, centroid: centre)
        case .rotation:
            track.update(scale: 1, angle: atan2(to.y, to.x) - atan2(from.y, from.x), centroid: centre)
        }
    }

    /// The handle was let go.
    public mutating func endHandleDrag() {
        handleDrag = nil
        track.end()
    }
}
