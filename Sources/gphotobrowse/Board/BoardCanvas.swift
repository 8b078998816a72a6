import CGtk
import PhotoCore
import PhotoIO

/// The board on screen (a GtkDrawingArea): the rendered board from its cache, over it the
/// item being drawn, the floating photo with its handles, the selected item's outline and
/// the crop's rectangle. It follows its size into the editor's view.
///
/// With tracing on it prints `trace board-view LEFT TOP WIDTH HEIGHT BX0 BY0 BX1 BY1 MS`
/// whenever the view changes: its place in the window and the board pixels at its corners;
/// `trace board-drawn MOVES MS` when a frame shows the drag's moves up to the MOVESth.
@MainActor
final class BoardCanvas {
    let root: Widget
    private unowned let editor: BoardEditor
    private var tracedView = ""
    private var tracedMoves = 0

    init(editor: BoardEditor) {
        self.editor = editor
        root = gtk_drawing_area_new()
        gtk_widget_set_hexpand(root, 1)
        gtk_widget_set_vexpand(root, 1)
        gtk_widget_set_focusable(root, 1)
        gtk_widget_add_css_class(root, "board-canvas")
        setDrawFunction(root, owner: self) { canvas, cairo in canvas.draw(cairo) }
        onSignal(root, "resize", integers: { [weak self] width, height in
            guard let self else { return }
            let scale = self.scaleFactor
            self.editor.resize(to: ViewSize(width: Double(width) * scale, height: Double(height) * scale))
        })
    }

    var scaleFactor: Double { Double(gtk_widget_get_scale_factor(root)) }

    /// The board pixel under a point of the widget.
    func boardPoint(_ x: Double, _ y: Double) -> ViewPoint {
        editor.view.boardPoint(forWidgetPoint: ViewPoint(x: x, y: y), scaleFactor: scaleFactor)
    }

    /// Device pixels around the widget's centre, for zooming at a point.
    func devicePoint(_ x: Double, _ y: Double) -> ViewPoint { ViewPoint(x: x * scaleFactor, y: y * scaleFactor) }

    func redraw() { gtk_widget_queue_draw(root) }

    private func draw(_ cr: OpaquePointer) {
        let scale = scaleFactor
        let view = editor.view
        _ = editor.rendered.update(editor.board, for: view)
        editor.rendered.paint(on: cr, view: view, scaleFactor: scale)
        let raster = BoardRaster.viewport(of: view)
        cairo_save(cr)
        cairo_scale(cr, 1 / scale, 1 / scale)
        if let live = editor.drag?.content {
            BoardRenderer.draw(live, board: editor.board, images: editor.images, on: cr, raster: raster)
        }
        if let floating = editor.board.floatingPhoto {
            BoardRenderer.drawFloatingPhoto(floating, images: editor.images, on: cr, raster: raster)
        }
        cairo_restore(cr)
        if let floating = editor.board.floatingPhoto { drawHandles(of: floating, on: cr) }
        if let id = editor.selected, let item = editor.board.item(id) { outline(item.bounds, on: cr) }
        if Trace.isEnabled, editor.moves != tracedMoves {
            tracedMoves = editor.moves
            Trace.milestone("board-drawn", tracedMoves)
        }
        if let crop = editor.cropRect { outline(crop, on: cr) }
        traceView()
    }

    private func widgetPoint(_ point: ViewPoint) -> ViewPoint {
        editor.view.widgetPoint(forBoardPoint: point, scaleFactor: scaleFactor)
    }

    /// A dashed outline, light over dark, so it shows on any photo.
    private func outline(_ rect: ViewRect, on cr: OpaquePointer) {
        let a = widgetPoint(rect.origin)
        let b = widgetPoint(ViewPoint(x: rect.origin.x + rect.size.width, y: rect.origin.y + rect.size.height))
        cairo_rectangle(cr, a.x.rounded() + 0.5, a.y.rounded() + 0.5, (b.x - a.x).rounded(), (b.y - a.y).rounded())
        cairo_set_line_width(cr, 1)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.8)
        cairo_stroke_preserve(cr)
        var dashes = [4.0, 4.0]
        cairo_set_dash(cr, &dashes, 2, 0)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
    }

    /// The floating photo's outline, corner handles (scale) and rotation handle.
    private func drawHandles(of floating: FloatingPhoto, on cr: OpaquePointer) {
        let corners = floating.corners.map(widgetPoint)
        guard let first = corners.first else { return }
        cairo_move_to(cr, first.x, first.y)
        for corner in corners.dropFirst() { cairo_line_to(cr, corner.x, corner.y) }
        cairo_close_path(cr)
        cairo_set_line_width(cr, 1.5)
        cairo_set_source_rgba(cr, 0.21, 0.52, 0.89, 1)
        cairo_stroke(cr)
        let tolerance = editor.view.boardLength(forDevicePixels: Self.handleRadius * scaleFactor)
        let rotation = widgetPoint(floating.rotationHandle(distance: tolerance * 3))
        for (point, round) in corners.map({ ($0, false) }) + [(rotation, true)] {
            if round { cairo_arc(cr, point.x, point.y, Self.handleRadius / 2, 0, 2 * .pi) } else {
                cairo_rectangle(cr, point.x - Self.handleRadius / 2, point.y - Self.handleRadius / 2, Self.handleRadius, Self.handleRadius)
            }
            cairo_set_source_rgba(cr, 1, 1, 1, 1)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 0.21, 0.52, 0.89, 1)
            cairo_stroke(cr)
        }
    }

    /// How far from a handle (widget pixels) a press takes it.
    static let handleRadius = 10.0

    private func traceView() {
        guard Trace.isEnabled, let native = gtk_widget_get_native(root) else { return }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(root, native.widget, &bounds) != 0 else { return }
        var dx = 0.0, dy = 0.0
        gtk_native_get_surface_transform(native, &dx, &dy)
        let width = Double(bounds.size.width), height = Double(bounds.size.height)
        let a = boardPoint(0, 0), b = boardPoint(width, height)
        let values = [Double(bounds.origin.x) + dx, Double(bounds.origin.y) + dy, width, height, a.x, a.y, b.x, b.y].map { Int($0.rounded()) }
        let key = values.map(String.init).joined(separator: " ")
        guard key != tracedView else { return }
        tracedView = key
        Trace.milestone("board-view", values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7])
    }
}
