import CGtk

/// The sign on a tile whose photo cannot be shown: a picture broken in two, drawn with cairo
/// in the tile's text colour. The icon theme's `image-missing-symbolic` is drawn at a third of
/// its colour by design, which on a tile's light grey (or dark grey) is hardly seen.
@MainActor
final class BrokenPhotoSign {
    /// A new sign, `size` pixels a side.
    static func widget(size: Int = 48) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_drawing_area_set_content_width(area.cast(), Int32(size))
        gtk_drawing_area_set_content_height(area.cast(), Int32(size))
        gtk_widget_add_css_class(area, "broken-sign")
        let sign = BrokenPhotoSign()
        ObjectData.attach(sign, to: area, key: "gphotobrowse-broken-sign")
        setDrawFunction(area, owner: sign) { [area] _, cr in
            var colour = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(area), &colour)
            cairo_set_source_rgba(cr, Double(colour.red), Double(colour.green), Double(colour.blue), Double(colour.alpha))
            let scale = Double(gtk_widget_get_width(area)) / 48
            cairo_scale(cr, scale, scale)
            draw(cr)
        }
        return area
    }

    /// On a 48-unit square: a frame with a hill and a sun, then a zigzag crack cut through it.
    private static func draw(_ cr: OpaquePointer) {
        cairo_set_line_width(cr, 3)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_rectangle(cr, 6.5, 9.5, 35, 29)
        cairo_stroke(cr)
        cairo_arc(cr, 16, 19, 3.5, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_move_to(cr, 8, 37); cairo_line_to(cr, 20, 25); cairo_line_to(cr, 27, 31); cairo_line_to(cr, 32, 26)
        cairo_line_to(cr, 40, 34); cairo_line_to(cr, 40, 37); cairo_close_path(cr)
        cairo_fill(cr)
        // The crack: cleared, so the tile shows through.
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_set_line_width(cr, 4)
        cairo_move_to(cr, 27, 5); cairo_line_to(cr, 22, 17); cairo_line_to(cr, 28, 26); cairo_line_to(cr, 21, 35); cairo_line_to(cr, 25, 43)
        cairo_stroke(cr)
    }
}
