import CCairo
import PhotoCore

/// The board's texts laid out and drawn with Pango, so any script shows (Chinese among them,
/// through fontconfig's fallback fonts), and measured for the model's hit tests.
///
/// The layout is the same at every scale: sizes are in board pixels, glyph positions are not
/// rounded and metrics not hinted, so a text wraps, spaces and lies exactly alike on screen at
/// any zoom and in the saved file.
public enum BoardText {
    /// The font family; fontconfig picks a font holding each character.
    public static let family = "Sans"

    /// `label` with its box measured as the renderer lays it out: make texts through this,
    /// and again after changing the text or its size.
    public static func laidOut(_ label: TextLabel) -> TextLabel {
        var measured = label
        measured.box = measure(label.text, fontSize: label.fontSize)
        return measured
    }

    /// The size `text` takes at `fontSize` board pixels: its logical extents, every line.
    public static func measure(_ text: String, fontSize: Double) -> ViewSize {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        return withLayout(text, fontSize: fontSize, on: cr) { layout in
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            return ViewSize(width: Double(logical.width) / Double(PANGO_SCALE), height: Double(logical.height) / Double(PANGO_SCALE))
        }
    }

    /// How many characters of `text` no installed font has (drawn as boxes).
    public static func missingGlyphs(_ text: String, fontSize: Double = 32) -> Int {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        return withLayout(text, fontSize: fontSize, on: cr) { Int(pango_layout_get_unknown_glyphs_count($0)) }
    }

    /// Draws `label` on `cr`, whose user space is board pixels.
    static func draw(_ label: TextLabel, on cr: OpaquePointer) {
        withLayout(label.text, fontSize: label.fontSize, on: cr) { layout in
            cairo_save(cr)
            let (r, g, b, a) = label.colour.components
            cairo_set_source_rgba(cr, r, g, b, a)
            cairo_move_to(cr, label.origin.x, label.origin.y)
            pango_cairo_show_layout(cr, layout)
            cairo_restore(cr)
        }
    }

    /// Runs `body` with a layout of `text` for `cr`'s current transformation.
    private static func withLayout<T>(_ text: String, fontSize: Double, on cr: OpaquePointer, _ body: (OpaquePointer) -> T) -> T {
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let context = pango_layout_get_context(layout)
        // Unhinted metrics and unrounded positions: the layout does not depend on the scale.
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_layout_context_changed(layout)

        let font = pango_font_description_new()
        defer { pango_font_description_free(font) }
        pango_font_description_set_family(font, family)
        pango_font_description_set_absolute_size(font, max(1, fontSize) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_layout_set_text(layout, text, -1)
        return body(layout)
    }
}
