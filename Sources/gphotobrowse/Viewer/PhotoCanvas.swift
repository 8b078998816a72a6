import CGtk
import Foundation

/// Where the canvas paints one image: the widget point its centre goes to, how many widget
/// pixels one of its pixels covers, and how far it is turned.
struct CanvasPlacement {
    var centerX: Double
    var centerY: Double
    var scale: Double
    var rotation: Double  // radians, clockwise
    /// Edges not smoothed: tiles side by side then cover complementary pixels, with no seam
    /// where both would be half drawn.
    var hardEdges = false
}

/// The viewer's drawing surface: paints the shown photo (and, while a swipe slides it
/// aside, its neighbour) with cairo, which filters properly at every scale: a photo shrunk
/// to fit does not alias, and one magnified past 200% shows crisp pixels.
@MainActor
final class PhotoCanvas {
    let widget: Widget
    /// What to paint, back to front.
    private var layers: [(surface: CanvasSurface, placement: CanvasPlacement)] = []
    /// A frame was drawn.
    var onDrawn: () -> Void = {}

    init() {
        widget = gtk_drawing_area_new()
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_vexpand(widget, 1)
        gtk_widget_add_css_class(widget, "photo-canvas")
        setDrawFunction(widget, owner: self) { canvas, cairo in canvas.draw(cairo) }
    }

    var width: Double { Double(gtk_widget_get_width(widget)) }
    var height: Double { Double(gtk_widget_get_height(widget)) }

    /// Shows these images at these places from the next frame on.
    func show(_ layers: [(surface: CanvasSurface, placement: CanvasPlacement)]) {
        self.layers = layers
        gtk_widget_queue_draw(widget)
    }

    private func draw(_ cairo: OpaquePointer) {
        for (surface, place) in layers {
            cairo_save(cairo)
            cairo_translate(cairo, place.centerX, place.centerY)
            cairo_rotate(cairo, place.rotation)
            cairo_scale(cairo, place.scale, place.scale)
            cairo_translate(cairo, -Double(surface.size.width) / 2, -Double(surface.size.height) / 2)
            cairo_set_source_surface(cairo, surface.surface, 0, 0)
            let pattern = cairo_get_source(cairo)
            // Past 200% show the pixels as they are (what a person zooms in that far to see);
            // below, cairo's good filter averages properly when shrinking.
            cairo_pattern_set_filter(pattern, place.scale >= 2 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            if place.hardEdges { cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE) }
            cairo_rectangle(cairo, 0, 0, Double(surface.size.width), Double(surface.size.height))
            cairo_fill(cairo)
            cairo_restore(cairo)
        }
        onDrawn()
    }
}

