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
    var pinchStart: ViewTransform?
    var pointer = (x: 0.0, y: 0.0)
    var scrollAccumulator = (x: 0.0, y: 0.0)
    var pendingSingleClick: UInt32 = 0

    mutating func resetForNewPhoto() {
        slide = 0
        angle = 0
    }
}

/// The viewer's pointer and touch input: clicks (chrome, zoom), the context menu, mouse
/// back/forward buttons, swipes and drags (paging, panning), pinch, two-finger rotation,
/// scrolling (paging, Ctrl to zoom) and pointer motion (the paging buttons).
extension PhotoViewer {
    func installGestures() {
        let widget = canvas.widget
        // Single click: chrome; double click: fit ⇄ 100% at the point. The single click waits
        // for the double-click time so that a double click does not flash the chrome; the
        // double click itself acts at once.
        let clicks = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(clicks.cast(), 1)
        onPressed(clicks) { [weak self] presses, x, y in self?.clicked(presses, x, y) }
        gtk_widget_add_controller(widget, clicks.cast())

        let rightClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(rightClick.cast(), 3)
        onPressed(rightClick) { [weak self] _, x, y in self?.onContextMenu(x, y) }
        gtk_widget_add_controller(widget, rightClick.cast())

        // Mouse back and forward buttons.
        let sideButtons = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(sideButtons.cast(), 0)
        onPressed(sideButtons) { [weak self, sideButtons] _, _, _ in
            switch gtk_gesture_single_get_current_button(sideButtons.cast()) {
            case 8: self?.page(by: -1)
            case 9: self?.page(by: 1)
            default: break
            }
        }
        gtk_widget_add_controller(widget, sideButtons.cast())

        // A swipe's speed decides a page turn at the end of a drag; added before the drag so
        // that its signal comes first.
        let swipe = gtk_gesture_swipe_new()!
        onSignal(swipe, "swipe", doubles: { [weak self] vx, _ in self?.gestures.swipeVelocity = vx })
        gtk_widget_add_controller(widget, swipe.cast())

        let drag = gtk_gesture_drag_new()!
        onSignal(drag, "drag-begin", doubles: { [weak self] _, _ in
            self?.gestures.dragLast = (0, 0)
            self?.gestures.swipeVelocity = 0
        })
        onSignal(drag, "drag-update", doubles: { [weak self] x, y in self?.dragged(x, y) })
        onSignal(drag, "drag-end", doubles: { [weak self] x, _ in self?.dragEnded(x) })
        gtk_widget_add_controller(widget, drag.cast())

        let pinch = gtk_gesture_zoom_new()!
        onSequence(pinch, "begin") { [weak self] in self?.gestures.pinchStart = self?.transform }
        onSignal(pinch, "scale-changed", double: { [weak self, pinch] scale in
            guard let self, let start = self.gestures.pinchStart else { return }
            var x = 0.0, y = 0.0
            gtk_gesture_get_bounding_box_center(pinch.cast(), &x, &y)
            var view = start
            view.zoom(to: start.scale * scale, around: self.pointerPoint(x, y))
            self.changeTransform { $0 = view }
        })
        gtk_widget_add_controller(widget, pinch.cast())

        let twist = gtk_gesture_rotate_new()!
        onSignal(twist, "angle-changed", doubles: { [weak self] angle, _ in
            self?.gestures.angle = angle
            self?.render()
        })
        onSequence(twist, "end") { [weak self] in
            guard let self else { return }
            let turns = ZoomGeometry.snappedQuarterTurns(forAngle: self.gestures.angle)
            self.gestures.angle = 0
            self.rotate(by: turns)
        }
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

    private func clicked(_ presses: Int32, _ x: Double, _ y: Double) {
        if gestures.pendingSingleClick != 0 {
            g_source_remove(gestures.pendingSingleClick)
            gestures.pendingSingleClick = 0
        }
        if presses == 2 {
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
        guard let transform else { return }
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
        guard gestures.slide != 0 else { return }
        let far = abs(x) > canvas.width / 4
        let velocity = gestures.swipeVelocity
        let fast = abs(velocity) > 600 && (velocity < 0) == (x < 0)
        gestures.slide = 0
        if far || fast { page(by: x < 0 ? 1 : -1) } else { render() }
    }

    private func scrolled(_ dx: Double, _ dy: Double, control: Bool) -> Bool {
        if control {
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
