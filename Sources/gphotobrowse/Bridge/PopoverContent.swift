import CGtk

/// The content of the app's small form popovers (rename, tags, a photo not found): their
/// widgets in a column, 6 px apart and from the popover's edge, `width` wide.
@MainActor
enum PopoverContent {
    static func setColumn(of popover: Widget, _ children: [Widget], width: Int32) {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
            margin(box, 6)
        }
        gtk_widget_set_size_request(box, width, -1)
        for child in children { gtk_box_append(box.cast(), child) }
        gtk_popover_set_child(popover.cast(), box)
    }
}
