import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A ring that fills as a download comes in, over a dark disc so it reads on any photo;
/// while the size is unknown a quarter of it turns. Shown on a web photo's tile while its
/// thumbnail downloads, and in the viewer while the original does.
@MainActor
final class DownloadRing {
    let root: Widget
    private let diameter: Double
    /// How much has come, 0…1; nil while the total is unknown.
    private(set) var fraction: Double?
    private var turning = false
    private var angle = 0.0

    init(diameter: Int) {
        self.diameter = Double(diameter)
        root = gtk_drawing_area_new()
        gtk_widget_set_size_request(root, Int32(diameter), Int32(diameter))
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_can_target(root, 0)
        setDrawFunction(root, owner: self) { ring, cairo in ring.draw(cairo) }
    }

    /// Shows how far the download has come.
    func show(_ progress: DownloadProgress?) {
        fraction = progress?.fraction
        if fraction == nil, !turning {
            turning = true
            addTickCallback(root, owner: self) { ring in
                guard ring.fraction == nil, gtk_widget_get_mapped(ring.root) != 0 else {
                    ring.turning = false
                    return false
                }
                ring.angle = Double(g_get_monotonic_time() % 1_000_000) / 1_000_000 * 2 * .pi
                gtk_widget_queue_draw(ring.root)
                return true
            }
        }
        gtk_widget_queue_draw(root)
    }

    private func draw(_ cairo: OpaquePointer) {
        let centre = diameter / 2, width = max(3, diameter / 12)
        cairo_set_source_rgba(cairo, 0, 0, 0, 0.65)
        cairo_arc(cairo, centre, centre, centre, 0, 2 * .pi)
        cairo_fill(cairo)
        let radius = centre - width
        cairo_set_line_width(cairo, width)
        cairo_set_source_rgba(cairo, 1, 1, 1, 0.3)
        cairo_arc(cairo, centre, centre, radius, 0, 2 * .pi)
        cairo_stroke(cairo)
        cairo_set_source_rgba(cairo, 1, 1, 1, 1)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        let start: Double, end: Double
        if let fraction {
            start = -.pi / 2
            end = start + max(0.02, min(1, fraction)) * 2 * .pi
        } else {
            start = angle - .pi / 2
            end = start + .pi / 2
        }
        cairo_arc(cairo, centre, centre, radius, start, end)
        cairo_stroke(cairo)
    }
}
