import CGtk
import PhotoCore

/// One album in the switcher's row: its cover, title and photo count; or, for the heading
/// before the person's own albums, a dim label.
@MainActor
final class AlbumChip {
    let root: Widget
    private let cover: OpaquePointer  // GtkPicture
    private let title: Widget
    private let count: Widget
    /// The album shown, once bound.
    private(set) var album: AlbumSummary?
    /// The cover's photo, while the chip waits for its thumbnail.
    private(set) var coverKey: PhotoVersion?

    init() {
        root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_add_css_class(root, "album-chip")
        cover = gtk_picture_new()!.cast()
        gtk_picture_set_can_shrink(cover, 1)
        gtk_picture_set_content_fit(cover, GTK_CONTENT_FIT_COVER)
        gtk_widget_set_size_request(cover.widget, 28, 28)
        gtk_widget_set_valign(cover.widget, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(cover.widget, "album-cover")
        title = gtk_label_new(nil)
        gtk_label_set_ellipsize(title.cast(), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(title.cast(), 28)
        count = gtk_label_new(nil)
        gtk_widget_add_css_class(count, "dim-label")
        gtk_widget_add_css_class(count, "numeric")
        for child in [cover.widget, title, count] { gtk_box_append(root.cast(), child) }
    }

    /// Binds the chip to an album, with its cover if the thumbnail is at hand.
    func show(_ album: AlbumSummary, cover texture: Texture?) {
        self.album = album
        gtk_widget_remove_css_class(root, "album-heading")
        Texts.setText(label: title, ShownText(OutsideText(album.title)))
        fitTitle(album.title)
        Texts.setText(label: count, ShownText(album.count.formatted()))
        gtk_widget_set_visible(count, 1)
        gtk_widget_set_visible(cover.widget, 1)
        Texts.setTooltip(root, ShownText(trn("%1$s: %2$d photo", "%1$s: %2$d photos", album.count, OutsideText(album.title), album.count)))
        coverKey = texture == nil ? album.cover?.version : nil
        gtk_picture_set_paintable(cover, texture?.pointer)
    }

    /// Binds the chip to a heading.
    func showHeading(_ text: String) {
        album = nil
        coverKey = nil
        gtk_widget_add_css_class(root, "album-heading")
        Texts.setText(label: title, ShownText(text))
        fitTitle(text)
        gtk_widget_set_visible(count, 0)
        gtk_widget_set_visible(cover.widget, 0)
        Texts.setTooltip(root, nil)
        gtk_picture_set_paintable(cover, nil)
    }

    /// A horizontal list gives each chip its minimum width: a short title is shown whole
    /// (its minimum is its width, in any script), a long one cut in the middle.
    private func fitTitle(_ text: String) {
        let long = text.count > 24
        gtk_label_set_ellipsize(title.cast(), long ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_NONE)
        gtk_label_set_width_chars(title.cast(), long ? 24 : -1)
    }

    /// The cover's thumbnail arrived.
    func showCover(_ texture: Texture) {
        coverKey = nil
        gtk_picture_set_paintable(cover, texture.pointer)
    }

    func clear() {
        album = nil
        coverKey = nil
        gtk_picture_set_paintable(cover, nil)
    }
}
