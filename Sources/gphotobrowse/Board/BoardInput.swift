import CGtk
import PhotoCore

/// The board's pointer, touch, stylus and keys: a drag does what the tool does (a stylus's
/// pressure thickens the pen), with Space held or the middle button it moves the view;
/// Ctrl+scroll and a pinch zoom; two fingers hold the floating photo, a long press fixes it;
/// the tools' letters, +, −, 0, 1, [ and ], Delete, Enter and Escape.
@MainActor
final class BoardInput {
    private unowned let editor: BoardEditor
    private unowned let canvas: BoardCanvas
    private var spaceHeld = false
    private var panning = false
    private var dragStart = (x: 0.0, y: 0.0)
    private var lastPan = (x: 0.0, y: 0.0)
    private var dragged = false
    private var twoFingers = false
    /// A click of the text tool at a widget point, at a board point: the window asks for text.
    var onTextAsked: (_ x: Double, _ y: Double, _ point: ViewPoint) -> Void = { _, _, _ in }

    init(editor: BoardEditor, canvas: BoardCanvas, window: Widget) {
        self.editor = editor
        self.canvas = canvas
        installDrag()
        installZoom()
        installKeys(on: window)
    }

    private func installDrag() {
        let drag = gtk_gesture_drag_new()!
        gtk_gesture_single_set_button(drag.cast(), 0)  // any button: the middle one pans
        onSignal(drag, "drag-begin", doubles: { [weak self, drag] x, y in
            guard let self else { return }
            let button = gtk_gesture_single_get_current_button(drag.cast())
            self.dragStart = (x, y)
            self.lastPan = (x, y)
            self.dragged = false
            self.panning = self.spaceHeld || button == 2
            gtk_widget_grab_focus(self.canvas.root)
            guard !self.panning, !self.twoFingers, button <= 1 else { return }
            self.editor.beginDrag(at: self.canvas.boardPoint(x, y), pressure: Self.pressure(drag),
                                  handleTolerance: self.editor.view.boardLength(forDevicePixels: BoardCanvas.handleRadius * self.canvas.scaleFactor))
        })
        onSignal(drag, "drag-update", doubles: { [weak self, drag] dx, dy in
            guard let self else { return }
            let x = self.dragStart.x + dx, y = self.dragStart.y + dy
            if abs(dx) + abs(dy) > 2 { self.dragged = true }
            if self.panning {
                let scale = self.canvas.scaleFactor
                self.editor.pan(by: ViewPoint(x: (x - self.lastPan.x) * scale, y: (y - self.lastPan.y) * scale))
                self.lastPan = (x, y)
            } else if !self.twoFingers {
                self.editor.moveDrag(to: self.canvas.boardPoint(x, y), pressure: Self.pressure(drag))
            }
        })
        onSignal(drag, "drag-end", doubles: { [weak self] _, _ in
            guard let self else { return }
            if self.panning { return self.panning = false }
            self.editor.endDrag()
            if !self.dragged, self.editor.tool == .text, self.editor.board.floatingPhoto == nil {
                self.onTextAsked(self.dragStart.x, self.dragStart.y, self.canvas.boardPoint(self.dragStart.x, self.dragStart.y))
            }
        })
        gtk_widget_add_controller(canvas.root, drag.cast())

        let longPress = gtk_gesture_long_press_new()!
        onSignal(longPress, "pressed", doubles: { [weak self] _, _ in
            guard let self, self.editor.board.floatingPhoto != nil, !self.dragged else { return }
            self.editor.endDrag()
            self.editor.fixFloating()
        })
        gtk_widget_add_controller(canvas.root, longPress.cast())
    }

    /// The pressure of the stylus the gesture follows (0…1), when it gives one (a mouse's
    /// pressure axis, which some X servers report as 0, is not a stylus's).
    private static func pressure(_ gesture: OpaquePointer) -> Double? {
        let sequence = gtk_gesture_single_get_current_sequence(gesture.cast())
        guard let event = gtk_gesture_get_last_event(gesture.cast(), sequence),
              let device = gdk_event_get_device(event),
              gdk_device_get_source(device) == GDK_SOURCE_PEN else { return nil }
        var value = 0.0
        return gdk_event_get_axis(event, GDK_AXIS_PRESSURE, &value) != 0 ? value : nil
    }

    /// Pinch and turn: the floating photo when there is one, else the board's zoom.
    private func installZoom() {
        let pinch = gtk_gesture_zoom_new()!
        let twist = gtk_gesture_rotate_new()!
        gtk_gesture_group(pinch.cast(), twist.cast())
        var zoomStart = 1.0
        for gesture in [pinch, twist] {
            onSequence(gesture, "begin") { [weak self] in
                guard let self, !self.twoFingers else { return }
                self.twoFingers = true
                zoomStart = 1
                self.editor.endDrag()
            }
            onSequence(gesture, "end") { [weak self] in
                guard let self, self.twoFingers else { return }
                self.twoFingers = false
                self.editor.releaseFloating()
            }
        }
        let moved: () -> Void = { [weak self, pinch, twist] in
            guard let self else { return }
            var x = 0.0, y = 0.0
            _ = gtk_gesture_get_bounding_box_center(pinch.cast(), &x, &y)
            let scale = gtk_gesture_zoom_get_scale_delta(pinch.cast())
            if self.editor.board.floatingPhoto != nil {
                let held = self.editor.board.floatingPhoto?.isHeld ?? false
                self.editor.holdFloating(began: !held, scale: scale, angle: gtk_gesture_rotate_get_angle_delta(twist.cast()),
                                         centroid: self.canvas.boardPoint(x, y))
            } else if scale > 0 {
                self.editor.zoom(by: scale / zoomStart, around: self.canvas.devicePoint(x, y))
                zoomStart = scale
            }
        }
        onSignal(pinch, "scale-changed", double: { _ in moved() })
        onSignal(twist, "angle-changed", doubles: { _, _ in moved() })
        gtk_widget_add_controller(canvas.root, pinch.cast())
        gtk_widget_add_controller(canvas.root, twist.cast())

        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
        let motion = gtk_event_controller_motion_new()!
        var pointer = (x: 0.0, y: 0.0)
        onSignal(motion, "motion", doubles: { x, y in pointer = (x, y) })
        gtk_widget_add_controller(canvas.root, motion.cast())
        onScroll(scroll) { [weak self, scroll] dx, dy in
            guard let self else { return false }
            let state = gtk_event_controller_get_current_event_state(scroll.cast())
            if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 {
                self.editor.zoom(by: pow(1.25, -dy), around: self.canvas.devicePoint(pointer.x, pointer.y))
            } else {
                let scale = self.canvas.scaleFactor
                self.editor.pan(by: ViewPoint(x: -dx * 40 * scale, y: -dy * 40 * scale))
            }
            return true
        }
        gtk_widget_add_controller(canvas.root, scroll)
    }

    private func installKeys(on window: Widget) {
        let keys = gtk_event_controller_key_new()!
        onKeyPressed(keys) { [weak self] keyval, state in self?.pressed(keyval, state) ?? false }
        onKeyReleased(keys) { [weak self] keyval in
            if Int32(keyval) == GDK_KEY_space { self?.spaceHeld = false }
        }
        gtk_widget_add_controller(window, keys)
        // Enter and Escape while a photo floats are the board's, before any widget with the
        // focus (a button would open the chooser again, an entry or a scale keep the key).
        let floatingKeys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(floatingKeys, GTK_PHASE_CAPTURE)
        onKeyPressed(floatingKeys) { [weak self] keyval, state in
            guard let self, self.editor.board.floatingPhoto != nil,
                  state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue) == 0 else { return false }
            switch Int32(keyval) {
            case GDK_KEY_Return, GDK_KEY_KP_Enter: self.editor.fixFloating()
            case GDK_KEY_Escape: self.editor.dropFloating()
            default: return false
            }
            gtk_widget_grab_focus(self.canvas.root)
            return true
        }
        gtk_widget_add_controller(window, floatingKeys)
    }

    private func pressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        let modifiers = state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue)
        guard modifiers == 0 else { return false }
        let key = Int32(keyval)
        switch key {
        case GDK_KEY_space: spaceHeld = true
        case GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add: editor.zoom(by: 1.25)
        case GDK_KEY_minus, GDK_KEY_KP_Subtract: editor.zoom(by: 0.8)
        case GDK_KEY_0, GDK_KEY_KP_0: editor.zoomToFit()
        case GDK_KEY_1, GDK_KEY_KP_1: editor.zoomToActualSize()
        case GDK_KEY_bracketleft: editor.widthFactor = max(0.25, editor.widthFactor / 1.25)
        case GDK_KEY_bracketright: editor.widthFactor = min(8, editor.widthFactor * 1.25)
        case GDK_KEY_Delete, GDK_KEY_KP_Delete, GDK_KEY_BackSpace: editor.deleteSelected()
        default:
            guard let scalar = gdk_keyval_to_unicode(keyval).flatMapScalar,
                  let tool = BoardTool.allCases.first(where: { $0.key == Character(scalar) }) else { return false }
            editor.tool = tool
        }
        return true
    }
}

private extension UInt32 {
    /// The character a key's Unicode value is, when it is one.
    var flatMapScalar: Unicode.Scalar? { self == 0 ? nil : Unicode.Scalar(self) }
}
