import Foundation
import PhotoCore
import Testing

/// Two fingers on a photo: pinch, turn and drag at once, each gesture starting where the last
/// one left the photo; the viewer settles on quarter turns.
@Suite struct PhotoGestureTests {
    private func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }
    private func near(_ a: ViewPoint, _ b: ViewPoint) -> Bool { near(a.x, b.x) && near(a.y, b.y) }

    @Test func aPinchScalesAroundThePointBetweenTheFingers() {
        let gesture = TwoFingerGesture(from: Placement(scale: 0.5, centre: .zero), centroid: ViewPoint(x: 100, y: 0))
        let pinched = gesture.placement(scale: 2, angle: 0, centroid: ViewPoint(x: 100, y: 0))
        #expect(near(pinched.scale, 1))
        // The centre, 100 px left of the fingers, is now twice as far.
        #expect(near(pinched.centre, ViewPoint(x: -100, y: 0)))
    }

    @Test func aTurnTurnsAroundThePointBetweenTheFingersAndADragMovesIt() {
        let gesture = TwoFingerGesture(from: Placement(scale: 1, centre: ViewPoint(x: 50, y: 0)), centroid: .zero)
        let turned = gesture.placement(scale: 1, angle: .pi / 2, centroid: ViewPoint(x: 10, y: 20))
        #expect(near(turned.angle, .pi / 2))
        // Clockwise (y down): right of the fingers goes below them, then moves with them.
        #expect(near(turned.centre, ViewPoint(x: 10, y: 70)))
    }

    @Test func allThreeTogetherAndTheNextGestureStartsFromTheLast() {
        var track = GestureTrack(placement: Placement(scale: 1))
        track.begin(centroid: .zero)
        track.update(scale: 2, angle: 0.3, centroid: ViewPoint(x: 40, y: 0))
        #expect(track.isActive)
        track.end()
        #expect(!track.isActive)
        let first = track.placement
        #expect(near(first.scale, 2) && near(first.angle, 0.3) && near(first.centre, ViewPoint(x: 40, y: 0)))
        // A second gesture begins at rest: nothing jumps, and what it adds is on top.
        track.begin(centroid: ViewPoint(x: 40, y: 0))
        track.update(scale: 1, angle: 0, centroid: ViewPoint(x: 40, y: 0))
        #expect(track.placement == first)
        track.update(scale: 1.5, angle: 0.2, centroid: ViewPoint(x: 40, y: 0))
        track.end()
        #expect(near(track.placement.scale, 3) && near(track.placement.angle, 0.5))
        #expect(near(track.placement.centre, ViewPoint(x: 40, y: 0)))
    }

    @Test func theViewerSettlesOnTheNearestQuarterTurnAndKeepsThePhotoInView() {
        let view = ViewTransform(imageSize: PixelSize(width: 4000, height: 3000), viewport: ViewSize(width: 1000, height: 750))
        var track = GestureTrack(placement: Placement(view))
        track.begin(centroid: .zero)
        track.update(scale: 3, angle: 1.2, centroid: ViewPoint(x: 5000, y: 0))  // 69°, and far away
        #expect(near(track.placement.angleBeyondQuarterTurns, 1.2 - .pi / 2))
        var settled = view
        track.end { placement in
            settled = view.settled(at: placement)
            return Placement(settled)
        }
        #expect(settled.quarterTurns == 1)
        #expect(near(settled.scale, view.scale * 3))
        // The pan stops where the photo's edge meets the viewport's.
        #expect(settled.imageRect.origin.x <= 0 && settled.imageRect.origin.x + settled.imageRect.size.width >= 1000)
        #expect(track.placement == Placement(settled))
        #expect(Placement(scale: 1, angle: -.pi / 2 - 0.1).nearestQuarterTurns == -1)
    }

    @Test func nonsenseFromTheFingersChangesNothing() {
        let gesture = TwoFingerGesture(from: Placement(scale: 1), centroid: .zero)
        #expect(gesture.placement(scale: .nan, angle: .infinity, centroid: .zero) == Placement(scale: 1))
        #expect(gesture.placement(scale: 0, angle: 0, centroid: .zero) == Placement(scale: 1))
    }
}
