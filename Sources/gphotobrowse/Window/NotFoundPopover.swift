import CGtk
import PhotoCore

/// What activating a "Not Found" tile (click, double click, Enter) shows instead of the
/// viewer: a popover on the tile saying that the photo was moved or deleted outside the app,
/// where it was, and a Remove from Album button (focused: Enter takes it, Escape closes).
/// The photo turns back into a photo by itself when its file comes back.
///
/// One popover per window, parented to the grid it last popped up on, and taken off a grid
/// that goes (`detach`, also when the grid is destroyed with the window).
@MainActor
final class NotFoundPopover {
    private let title: Widget
    private let details: Widget
    private let removeButton: Widget
    private let anchor: PopoverAnchor
    /// The photo the popover is about, while it is open.
    private var uri: String?
    /// When it last popped up (monotonic µs), and whether it is being closed on purpose.
    private var openedAt = 0
    private var closing = false

    /// Remove from Album was chosen for the photo at this URI.
    var onRemove: (String) -> Void = { _ in }

    init() {
        anchor = PopoverAnchor(named: "not-found")
        let popover = anchor.popover
        gtk_widget_add_css_class(popover, "not-found-notice")  // see Style: no shadow

        title = gtk_label_new(nil)
        gtk_widget_add_css_class(title, "heading")
        details = gtk_label_new(nil)
        gtk_widget_add_css_class(details, "dim-label")
        for label in [title, details] {
            gtk_label_set_wrap(label.cast(), 1)
            gtk_label_set_wrap_mode(label.cast(), PANGO_WRAP_WORD_CHAR)
            // Narrower than the box, whose width is set below: one width whatever the text.
            gtk_label_set_max_width_chars(label.cast(), 20)
            gtk_label_set_xalign(label.cast(), 0)
        }
        removeButton = gtk_button_new_with_label(tr("Remove from Album"))
        gtk_widget_add_css_class(removeButton, "suggested-action")
        gtk_widget_set_halign(removeButton, GTK_ALIGN_END)
        gtk_widget_set_margin_top(removeButton, 6)

        PopoverContent.setColumn(of: popover, [title, details, removeButton], width: 360)
        gtk_popover_set_default_widget(popover.cast(), removeButton)

        onSignal(removeButton, "clicked") { [weak self] in
            guard let self, let uri = self.uri else { return }
            self.close()
            self.onRemove(uri)
        }
        onSignal(popover, "closed") { [weak self] in self?.closed() }
        anchor.close = { [weak self] in self?.close() }
    }

    /// The second click of a double click on the tile lands outside the popover the first
    /// one opened, which closes it: a popover closed that soon after opening opens again.
    private func closed() {
        let quick = g_get_monotonic_time() - openedAt < Int(Self.doubleClickTime) * 1000
        guard !closing, quick, uri != nil else {
            uri = nil
            return
        }
        whenIdle { [weak self] in
            guard let self, self.uri != nil, self.anchor.isOn(nil) else { return }
            self.openedAt = 0
            gtk_popover_popup(self.anchor.popover.cast())
            gtk_widget_grab_focus(self.removeButton)
        }
    }

    private func close() {
        closing = true
        gtk_popover_popdown(anchor.popover.cast())
        closing = false
        uri = nil
    }

    /// GTK's double-click time, in milliseconds.
    private static var doubleClickTime: Int32 {
        guard let settings = gtk_settings_get_default() else { return 400 }
        var value = GValue()
        g_value_init(&value, cgtk_type_int())
        defer { g_value_unset(&value) }
        g_object_get_property(settings.object, "gtk-double-click-time", &value)
        return g_value_get_int(&value)
    }

    /// Pops up over `rect` (a tile, in `widget`'s coordinates) for `photo`.
    func show(_ photo: Photo, pointingTo rect: GdkRectangle, in widget: Widget) {
        anchor.move(to: widget)
        uri = photo.id
        openedAt = g_get_monotonic_time()
        Texts.setText(label: title, ShownText(tr("“%s” was moved or deleted outside the app", OutsideText(photo.displayName))))
        Texts.setText(label: details, ShownText(tr("It was in %s. Put it back there and it shows here again.", Self.folderName(of: photo.id))))
        anchor.popUp(pointingTo: rect)
        gtk_widget_grab_focus(removeButton)
    }

    /// Takes the popover off `widget` (it is about to go), or off any.
    func detach(from widget: Widget? = nil) {
        anchor.leave(widget)
    }

    /// The folder the photo was in, as a person writes it (a path, or a URI for remote
    /// files). Nothing is read from the disk.
    private static func folderName(of uri: String) -> String {
        guard let file = g_file_new_for_uri(uri) else { return uri }
        defer { file.unref() }
        guard let parent = g_file_get_parent(file) else { return uri }
        defer { parent.unref() }
        guard let name = g_file_get_parse_name(parent) else { return uri }
        defer { g_free(name) }
        return String(cString: name)
    }
}
