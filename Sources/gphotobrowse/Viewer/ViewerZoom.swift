import CGtk
import PhotoCore

/// Zoom, pan and rotation: changes of the core's `ViewTransform`, in device pixels. Rotation
/// is remembered per photo while the folder is open; the file is untouched.
extension PhotoViewer {
    /// Changes the transform, repaints, and shows the zoom level for a moment.
    func changeTransform(showLevel: Bool = true, _ change: (inout ViewTransform) -> Void) {
        guard var view = transform else { return }
        change(&view)
        transform = view
        if let current, (rotations[current.id]) != view.quarterTurns {
            rotations[current.id] = view.quarterTurns
            onRotationChanged()
        }
        render()
        if showLevel { chrome.showZoomLevel(percent: Int((view.scale * 100).rounded())) }
    }

    var center: ViewPoint { viewportSize.center }

    /// A point in widget coordinates, in device pixels.
    func pointerPoint(_ x: Double, _ y: Double) -> ViewPoint { ViewPoint(x: x * scaleFactor, y: y * scaleFactor) }

    /// Whether the photo is zoomed past the fit (arrow keys and drags pan instead of paging).
    var isZoomed: Bool { transform.map { !$0.isFitted } ?? false }

    /// Whether the window's policy enables `action` now (not while a movie shows).
    func allows(_ action: ViewerAction) -> Bool {
        g_action_group_get_action_enabled(actionGroup.pointer.cast(), action.rawValue) != 0
    }

    func zoomIn() { if allows(.zoomIn) { changeTransform { $0.zoom(by: 1.25, around: center) } } }
    func zoomOut() { if allows(.zoomOut) { changeTransform { $0.zoom(by: 0.8, around: center) } } }
    func zoomToFit() { if allows(.zoomFit) { changeTransform { $0.fit() } } }
    func zoomToActualSize() { if allows(.zoomActual) { changeTransform { $0.zoom(to: 1, around: center) } } }
    func rotate(by quarterTurns: Int) {
        if allows(quarterTurns < 0 ? .rotateLeft : .rotateRight) { changeTransform(showLevel: false) { $0.rotate(by: quarterTurns) } }
    }

    /// Pans by a fraction of the view (arrow keys when zoomed).
    func pan(byViewFraction dx: Double, _ dy: Double) {
        changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: $0.viewport.width * dx, y: $0.viewport.height * dy)) }
    }
}
