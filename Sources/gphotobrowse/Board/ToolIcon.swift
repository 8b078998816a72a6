import CGtk
import Foundation
import PhotoCore

/// The drawing tools' icons, drawn with cairo in the text's colour (the icon theme has none
/// for a pen, a highlighter or a pixelation), and the colour buttons' swatches.
@MainActor
final class ToolIcon {
    private let draw: (OpaquePointer, Double) -> Void

    private init(_ draw: @escaping (OpaquePointer, Double) -> Void) { self.draw = draw }

    /// A 16 px icon of `tool`.
    static func widget(for tool: BoardTool) -> Widget {
        make { cr, _ in
            cairo_set_line_width(cr, 1.5)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            switch tool {
            case .pen:
                cairo_move_to(cr, 2, 14); cairo_curve_to(cr, 5, 6, 9, 13, 14, 2); cairo_stroke(cr)
            case .highlighter:
                cairo_set_line_width(cr, 5); cairo_move_to(cr, 3, 12); cairo_line_to(cr, 13, 4); cairo_stroke(cr)
            case .line:
                cairo_move_to(cr, 2, 14); cairo_line_to(cr, 14, 2); cairo_stroke(cr)
            case .arrow:
                cairo_move_to(cr, 2, 14); cairo_line_to(cr, 14, 2); cairo_move_to(cr, 7, 2); cairo_line_to(cr, 14, 2)
                cairo_line_to(cr, 14, 9); cairo_stroke(cr)
            case .rectangle:
                cairo_rectangle(cr, 2.5, 3.5, 11, 9); cairo_stroke(cr)
            case .ellipse:
                cairo_save(cr); cairo_translate(cr, 8, 8); cairo_scale(cr, 6, 4.5); cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
                cairo_restore(cr); cairo_stroke(cr)
            case .text:
                cairo_move_to(cr, 3, 3); cairo_line_to(cr, 13, 3); cairo_move_to(cr, 8, 3); cairo_line_to(cr, 8, 14); cairo_stroke(cr)
            case .pixelate:
                for row in 0..<3 { for column in 0..<3 where (row + column) % 2 == 0 {
                    cairo_rectangle(cr, 2 + Double(column) * 4, 2 + Double(row) * 4, 4, 4)
                } }
                cairo_fill(cr); cairo_rectangle(cr, 2.5, 2.5, 11, 11); cairo_stroke(cr)
            case .eraser:
                cairo_move_to(cr, 5, 14); cairo_line_to(cr, 14, 5); cairo_line_to(cr, 10, 1); cairo_line_to(cr, 1, 10); cairo_close_path(cr)
                cairo_stroke(cr); cairo_move_to(cr, 5, 14); cairo_line_to(cr, 14, 14); cairo_stroke(cr)
            case .select:
                cairo_move_to(cr, 4, 2); cairo_line_to(cr, 4, 14); cairo_line_to(cr, 7, 10); cairo_line_to(cr, 12, 10); cairo_close_path(cr)
                cairo_stroke(cr)
            case .crop:
                cairo_move_to(cr, 4, 1); cairo_line_to(cr, 4, 12); cairo_line_to(cr, 15, 12)
                cairo_move_to(cr, 1, 4); cairo_line_to(cr, 12, 4); cairo_line_to(cr, 12, 15); cairo_stroke(cr)
            }
        }
    }

    /// A round swatch of `colour`, outlined so a light one shows.
    static func swatch(_ colour: DrawingColour) -> Widget {
        make { cr, _ in
            cairo_arc(cr, 8, 8, 6.5, 0, 2 * .pi)
            cairo_set_source_rgb(cr, Double(colour.r) / 255, Double(colour.g) / 255, Double(colour.b) / 255)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.3)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
        }
    }

    private static func make(_ draw: @escaping (OpaquePointer, Double) -> Void) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_drawing_area_set_content_width(area.cast(), 16)
        gtk_drawing_area_set_content_height(area.cast(), 16)
        let icon = ToolIcon(draw)
        ObjectData.attach(icon, to: area, key: "gphotobrowse-tool-icon")
        setDrawFunction(area, owner: icon) { [area] icon, cr in
            var colour = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(area), &colour)
            cairo_set_source_rgba(cr, Double(colour.red), Double(colour.green), Double(colour.blue), Double(colour.alpha))
            icon.draw(cr, 16)
        }
        return area
    }
}
