import CGtk

/// The viewer's side panel: what is known about the shown photo, as labelled lines
/// (name, folder, size, dimensions, date taken, camera, lens, exposure, location …).
@MainActor
final class PropertiesPanel {
    let root: Widget
    private let grid: Widget

    init() {
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(scroller.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(scroller, 300, -1)
        gtk_widget_add_css_class(scroller, "properties-panel")
        grid = gtk_grid_new()
        gtk_grid_set_row_spacing(grid.cast(), 8)
        gtk_grid_set_column_spacing(grid.cast(), 12)
        gtk_widget_set_margin_start(grid, 18)
        gtk_widget_set_margin_end(grid, 18)
        gtk_widget_set_margin_top(grid, 18)
        gtk_widget_set_margin_bottom(grid, 18)
        gtk_scrolled_window_set_child(scroller.cast(), grid)
        root = scroller
    }

    /// Shows these lines, replacing the previous photo's.
    func show(_ rows: [(label: String, value: String)]) {
        while let child = gtk_widget_get_first_child(grid) { gtk_grid_remove(grid.cast(), child) }
        for (n, row) in rows.enumerated() {
            let label = gtk_label_new(row.label)!
            gtk_widget_add_css_class(label, "dim-label")
            gtk_label_set_xalign(label.cast(), 1)
            gtk_widget_set_valign(label, GTK_ALIGN_START)
            let value = gtk_label_new(row.value)!
            gtk_label_set_xalign(value.cast(), 0)
            gtk_label_set_wrap(value.cast(), 1)
            gtk_label_set_wrap_mode(value.cast(), PANGO_WRAP_WORD_CHAR)
            gtk_label_set_selectable(value.cast(), 1)
            gtk_label_set_max_width_chars(value.cast(), 28)
            gtk_grid_attach(grid.cast(), label, 0, Int32(n), 1, 1)
            gtk_grid_attach(grid.cast(), value, 1, Int32(n), 1, 1)
        }
    }
}
