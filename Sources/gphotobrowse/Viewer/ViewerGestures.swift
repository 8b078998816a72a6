import CGtk
import Foundation
import PhotoCore

/// What pointer and touch gestures are in the middle of.
struct ViewerGestureState {
    /// Horizontal offset (widget pixels) while a swipe drags the photo aside.
    var slide = 0.0
    var swipeVelocity = 0.0
    /// The angle two fingers have turned the photo by, until they let go (radians).
    var angle = 0.0
    var dragLast = (x: 0.0, y: 0.0)
    /// A drag begun by a finger at the window's left edge: a swipe back to the grid.
    var edgeSwipe = false
    /// Two fingers pinching, turning and dragging the photo at once (the core's model).
    var twoFingers: GestureTrack?
    var pointer = (x: 0.0, y: 0.0)
    var scrollAccumulator = (x: 0.0, y: 0.0)
    var pendingSingleClick: UInt32 = 0

    mutating func resetForNewPhoto() {
        slide = 0
        angle = 0
    }
}

/// The viewer's pointer and touch input: clicks (chrome, zoom), the context menu and long
/// press, the mouse back button and a swipe in from the left edge (back to the grid), swipes
/// and drags (paging, panning), two fingers pinching, turning and dragging at once, scrolling
/// (paging, Ctrl to zoom) and pointer motion (the paging buttons).
extension PhotoViewer {
    func installGestures() {
        let widget = canvas.widget
        // Single click: chrome; double click: fit ⇄ 100% at the point. The single click waits
        // for the double-click time so that a double click does not flash the chrome; the
        // double click itself acts at once.
        // On release, so that a press held still for a long press does neither.
        let clicks = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(clicks.cast(), 1)
        onPressed(clicks, "released") { [weak self] presses, x, y in self?.clicked(presses, x, y) }
        gtk_widget_add_controller(widget, clicks.cast())

        // A press held still (a finger, or the mouse): the context menu, or, choosing photos,
        // the photo's choice.
        let longPress = gtk_gesture_long_press_new()!
        onSignal(longPress, "pressed", doubles: { [weak self, longPress] x, y in
            gtk_gesture_set_state(longPress.cast(), GTK_EVENT_SEQUENCE_CLAIMED)
            self?.longPressed(x, y)
        })
        gtk_widget_add_controller(widget, longPress.cast())

        let rightClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(rightClick.cast(), 3)
        onPressed(rightClick) { [weak self] _, x, y in self?.onContextMenu(x, y) }
        gtk_widget_add_controller(widget, rightClick.cast())

        // The mouse back button: back to the grid, as Escape and Alt+Left.
        let sideButtons = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(sideButtons.cast(), 8)
        onPressed(sideButtons) { [weak self] _, _, _ in self?.onClose() }
        gtk_widget_add_controller(widget, sideButtons.cast())

        // A swipe's speed decides a page turn at the end of a drag; added before the drag so
        // that its signal comes first.
        let swipe = gtk_gesture_swipe_new()!
        onSignal(swipe, "swipe", doubles: { [weak self] vx, _ in self?.gestures.swipeVelocity = vx })
        gtk_widget_add_controller(widget, swipe.cast())

        let drag = gtk_gesture_drag_new()!
        onSignal(drag, "drag-begin", doubles: { [weak self, drag] x, _ in
            guard let self else { return }
            self.gestures.dragLast = (0, 0)
            self.gestures.swipeVelocity = 0
            let device = gtk_gesture_get_device(drag.cast())
            let touch = device.map { gdk_device_get_source($0) == GDK_SOURCE_TOUCHSCREEN } ?? false
            self.gestures.edgeSwipe = touch && x < Self.edgeWidth
        })
        onSignal(drag, "drag-update", doubles: { [weak self] x, y in self?.dragged(x, y) })
        onSignal(drag, "drag-end", doubles: { [weak self] x, _ in self?.dragEnded(x) })
        gtk_widget_add_controller(widget, drag.cast())

        // Pinch, turn and drag with two fingers, together: one gesture of the core's model.
        let pinch = gtk_gesture_zoom_new()!
        let twist = gtk_gesture_rotate_new()!
        gtk_gesture_group(pinch.cast(), twist.cast())
        for gesture in [pinch, twist] {
            onSequence(gesture, "end") { [weak self] in self?.twoFingersEnded() }
        }
        onSignal(pinch, "scale-changed", double: { [weak self, pinch, twist] _ in self?.twoFingersMoved(pinch, twist) })
        onSignal(twist, "angle-changed", doubles: { [weak self, pinch, twist] _, _ in self?.twoFingersMoved(pinch, twist) })
        gtk_widget_add_controller(widget, pinch.cast())
        gtk_widget_add_controller(widget, twist.cast())

        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
        onScroll(scroll) { [weak self, scroll] dx, dy in
            let state = gtk_event_controller_get_current_event_state(scroll.cast())
            return self?.scrolled(dx, dy, control: state.rawValue & GDK_CONTROL_MASK.rawValue != 0) ?? false
        }
        gtk_widget_add_controller(widget, scroll.cast())

        let motion = gtk_event_controller_motion_new()!
        onSignal(motion, "motion", doubles: { [weak self] x, y in self?.moved(x, y) })
        gtk_widget_add_controller(overlay, motion.cast())
    }

    /// How far in from the window's left edge a finger starts a swipe back to the grid.
    static let edgeWidth = 24.0

    private func longPressed(_ x: Double, _ y: Double) {
        if gestures.pendingSingleClick != 0 {
            g_source_remove(gestures.pendingSingleClick)
            gestures.pendingSingleClick = 0
        }
        if let onLongPress { onLongPress() } else if shownMotion != nil { playMotion() } else { onContextMenu(x, y) }
    }

    /// The fingers moved: the photo follows them, at any angle while they hold it.
    private func twoFingersMoved(_ pinch: OpaquePointer, _ twist: OpaquePointer) {
        guard let transform, allows(.zoomIn) else { return }
        var x = 0.0, y = 0.0
        if gtk_gesture_get_bounding_box_center(pinch.cast(), &x, &y) == 0 { _ = gtk_gesture_get_bounding_box_center(twist.cast(), &x, &y) }
        let point = pointerPoint(x, y)
        let centroid = ViewPoint(x: point.x - transform.viewport.width / 2, y: point.y - transform.viewport.height / 2)
        if gestures.twoFingers == nil {
            // Each gesture starts where the last one, or a key, left the photo.
            var track = GestureTrack(placement: Placement(transform))
            track.begin(centroid: centroid)
            gestures.twoFingers = track
        }
        gestures.twoFingers?.update(scale: gtk_gesture_zoom_get_scale_delta(pinch.cast()),
                                    angle: gtk_gesture_rotate_get_angle_delta(twist.cast()), centroid: centroid)
        guard let placement = gestures.twoFingers?.placement else { return }
        gestures.angle = placement.angleBeyondQuarterTurns
        changeTransform { $0 = $0.settled(at: placement) }
    }

    /// The fingers left: the photo settles on the nearest quarter turn, within range.
    private func twoFingersEnded() {
        guard let track = gestures.twoFingers else { return }
        gestures.twoFingers = nil
        gestures.angle = 0
        changeTransform { $0 = $0.settled(at: track.placement) }
    }

    private func clicked(_ presses: Int32, _ x: Double, _ y: Double) {
        if gestures.pendingSingleClick != 0 {
            g_source_remove(gestures.pendingSingleClick)
            gestures.pendingSingleClick = 0
        }
        if presses == 2 {
            guard allows(.zoomActual) else { return }
            changeTransform { $0.toggleFitAndActualSize(at: pointerPoint(x, y)) }
        } else if presses == 1 {
            gestures.pendingSingleClick = after(milliseconds: 300) { [weak self] in
                guard let self else { return }
                self.gestures.pendingSingleClick = 0
                self.chrome.toggleVisible()
            }
        }
    }

    private func dragged(_ x: Double, _ y: Double) {
        guard let transform, !gestures.edgeSwipe, gestures.twoFingers == nil else { return }
        let delta = (x - gestures.dragLast.x, y - gestures.dragLast.y)
        gestures.dragLast = (x, y)
        if transform.isFitted {
            gestures.slide = x  // the photo follows the finger; its neighbour slides in beside it
            render()
        } else {
            changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: delta.0 * scaleFactor, y: delta.1 * scaleFactor)) }
        }
    }

    private func dragEnded(_ x: Double) {
        if gestures.edgeSwipe {
            gestures.edgeSwipe = false
            if x > canvas.width / 6 { onClose() }
            return
        }
        guard gestures.slide != 0 else { return }
        let far = abs(x) > canvas.width / 4
        let velocity = gestures.swipeVelocity
        let fast = abs(velocity) > 600 && (velocity < 0) == (x < 0)
        gestures.slide = 0
        if far || fast { page(by: x < 0 ? 1 : -1) } else { render() }
    }

    private func scrolled(_ dx: Double, _ dy: Double, control: Bool) -> Bool {
        if control {
            guard allows(.zoomIn) else { return true }
            changeTransform { $0.zoom(by: pow(1.25, -dy), around: pointerPoint(gestures.pointer.x, gestures.pointer.y)) }
            return true
        }
        if isZoomed {
            changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: -dx * 40 * scaleFactor, y: -dy * 40 * scaleFactor)) }
            return true
        }
        // Wheels and touchpads: one page per notch, or per notch's worth of smooth scrolling.
        gestures.scrollAccumulator.x += dx
        gestures.scrollAccumulator.y += dy
        let sum = gestures.scrollAccumulator
        let amount = abs(sum.x) > abs(sum.y) ? sum.x : sum.y
        if abs(amount) >= 1 {
            gestures.scrollAccumulator = (0, 0)
            page(by: amount > 0 ? 1 : -1)
        }
        return true
    }

    private func moved(_ x: Double, _ y: Double) {
        guard abs(x - gestures.pointer.x) + abs(y - gestures.pointer.y) > 1 else { return }
        gestures.pointer = (x, y)
        chrome.pointerMoved()
    }
}
