import CGtk
import PhotoCore

/// The viewer's keys and its actions (`viewer.NAME`, for the toolbar's buttons).
extension PhotoViewer {
    func installActions(_ actions: some GObjectPointer) {
        addAction(actions, "previous") { [weak self] in self?.page(by: -1) }
        addAction(actions, "next") { [weak self] in self?.page(by: 1) }
        // Zoom and rotation: enabled by the window's policy (not over a movie); keys and
        // gestures go through them too (`allows`).
        addAction(actions, ViewerAction.zoomIn.rawValue) { [weak self] in self?.zoomIn() }
        addAction(actions, ViewerAction.zoomOut.rawValue) { [weak self] in self?.zoomOut() }
        addAction(actions, ViewerAction.zoomFit.rawValue) { [weak self] in self?.zoomToFit() }
        addAction(actions, ViewerAction.zoomActual.rawValue) { [weak self] in self?.zoomToActualSize() }
        addAction(actions, ViewerAction.rotateLeft.rawValue) { [weak self] in self?.rotate(by: -1) }
        addAction(actions, ViewerAction.rotateRight.rawValue) { [weak self] in self?.rotate(by: 1) }
        addAction(actions, "play-motion") { [weak self] in self?.playMotion() }
    }

    func installKeys() {
        // Capture phase: the viewer's keys work wherever the focus is inside it.
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] keyval, state in self?.keyPressed(keyval, state) ?? false }
        gtk_widget_add_controller(root, keys)
    }

    private func keyPressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        let control = state.rawValue & GDK_CONTROL_MASK.rawValue != 0
        let alt = state.rawValue & GDK_ALT_MASK.rawValue != 0
        let key = Int32(keyval)
        if alt && !control && (key == GDK_KEY_Return || key == GDK_KEY_KP_Enter) {
            toggleProperties()
            return true
        }
        // The context key (Menu, Shift+F10): as a long press, the photo's menu, or, choosing
        // photos, its choice.
        let shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
        if !control && !alt && (key == GDK_KEY_Menu || (key == GDK_KEY_F10 && shift)) {
            if let onLongPress { onLongPress() } else { onContextMenu(canvas.width / 2, canvas.height / 2) }
            return true
        }
        // Alt+Left: back to the grid, as in a browser or Files.
        if alt && !control && (key == GDK_KEY_Left || key == GDK_KEY_KP_Left) {
            onClose()
            return true
        }
        guard !control, !alt else { return false }
        let step = 0.1
        switch key {
        case GDK_KEY_Left, GDK_KEY_KP_Left:
            if isZoomed { pan(byViewFraction: step, 0) } else { page(by: -1) }
        case GDK_KEY_Right, GDK_KEY_KP_Right:
            if isZoomed { pan(byViewFraction: -step, 0) } else { page(by: 1) }
        case GDK_KEY_Up, GDK_KEY_KP_Up:
            guard isZoomed else { return false }
            pan(byViewFraction: 0, step)
        case GDK_KEY_Down, GDK_KEY_KP_Down:
            guard isZoomed else { return false }
            pan(byViewFraction: 0, -step)
        case GDK_KEY_Page_Up, GDK_KEY_BackSpace: page(by: -1)
        case GDK_KEY_space where isEditing():
            if let current { onToggleSelected(current.id) }
            showSelectedState()
        case GDK_KEY_space where video.shownID != nil && video.shownID == current?.id && !video.isMotion:
            video.togglePlaying()
        case GDK_KEY_Page_Down, GDK_KEY_space: page(by: 1)
        case GDK_KEY_Home: show(0)
        case GDK_KEY_End: show(contents.photos.count - 1)
        case GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add: zoomIn()
        case GDK_KEY_minus, GDK_KEY_KP_Subtract: zoomOut()
        case GDK_KEY_0, GDK_KEY_KP_0: zoomToFit()
        case GDK_KEY_1, GDK_KEY_KP_1: zoomToActualSize()
        case GDK_KEY_r: rotate(by: 1)
        case GDK_KEY_R: rotate(by: -1)
        case GDK_KEY_F11: chrome.setFullscreen(!chrome.isFullscreen)
        case GDK_KEY_Escape:
            if chrome.isFullscreen { chrome.setFullscreen(false) } else { onClose() }
        default: return false
        }
        return true
    }
}
