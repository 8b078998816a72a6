import CGtk
import PhotoCore

/// One square tile of the grid: a photo's thumbnail, a placeholder while it decodes, or a
/// broken-image sign whose tooltip says why, or, for a photo of an album of the person's own
/// that is no longer where it was, a "not found" sign with its name. Tiles are recycled by the grid view: `show`
/// rebinds a tile to another photo.
@MainActor
final class ThumbnailTile {
    private let live = LiveObjects.Token("ThumbnailTile")
    let root: Widget
    private let picture: OpaquePointer
    private let brokenIcon: Widget
    private let notFound: Widget
    private let notFoundName: Widget
    /// The photo was not found: no thumbnail replaces the sign.
    private var isMissing = false
    private let check: Widget
    /// The photo shown, once bound.
    private(set) var photo: Photo?
    var key: PhotoVersion? { photo?.version }
    /// Whether the tile shows its final state (a thumbnail or a failure).
    private(set) var isComplete = false

    init(edge: Int) {
        root = gtk_overlay_new()
        gtk_widget_set_size_request(root, Int32(edge), Int32(edge))
        gtk_widget_add_css_class(root, "thumbnail")
        LiveObjects.track(root)
        gtk_widget_set_overflow(root, GTK_OVERFLOW_HIDDEN)

        picture = gtk_picture_new()!.cast()
        gtk_picture_set_can_shrink(picture, 1)
        gtk_picture_set_content_fit(picture, GTK_CONTENT_FIT_COVER)
        gtk_overlay_set_child(root.cast(), picture.widget)

        brokenIcon = gtk_image_new_from_icon_name("image-missing-symbolic")
        gtk_image_set_pixel_size(brokenIcon.cast(), 48)
        gtk_widget_set_halign(brokenIcon, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(brokenIcon, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(brokenIcon, "dim-label")
        gtk_widget_set_visible(brokenIcon, 0)
        gtk_overlay_add_overlay(root.cast(), brokenIcon)

        notFound = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
        gtk_widget_set_valign(notFound, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(notFound, 8)
        gtk_widget_set_margin_end(notFound, 8)
        gtk_widget_add_css_class(notFound, "not-found")
        let notFoundIcon = gtk_image_new_from_icon_name("action-unavailable-symbolic")!
        gtk_image_set_pixel_size(notFoundIcon.cast(), 32)
        gtk_widget_add_css_class(notFoundIcon, "dim-label")
        notFoundName = gtk_label_new(nil)
        gtk_label_set_ellipsize(notFoundName.cast(), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(notFoundName.cast(), 16)
        let notFoundText = gtk_label_new(tr("Not Found"))!
        gtk_widget_add_css_class(notFoundText, "dim-label")
        gtk_widget_add_css_class(notFoundText, "caption")
        for child in [notFoundIcon, notFoundName, notFoundText] { gtk_box_append(notFound.cast(), child) }
        gtk_widget_set_visible(notFound, 0)
        gtk_overlay_add_overlay(root.cast(), notFound)

        // Edit mode's check mark, top left: empty circle, or ticked when selected.
        check = gtk_image_new_from_icon_name("object-select-symbolic")
        gtk_widget_add_css_class(check, "tile-check")
        gtk_widget_set_halign(check, GTK_ALIGN_START)
        gtk_widget_set_valign(check, GTK_ALIGN_START)
        gtk_widget_set_margin_start(check, 8)
        gtk_widget_set_margin_top(check, 8)
        gtk_widget_set_visible(check, 0)
        gtk_widget_set_can_target(check, 0)
        gtk_overlay_add_overlay(root.cast(), check)
    }

    /// Shows the check mark (edit mode) and whether the photo is selected.
    func showSelection(editing: Bool, selected: Bool) {
        gtk_widget_set_visible(check, editing ? 1 : 0)
        if selected && editing {
            gtk_widget_add_css_class(root, "selected")
            gtk_widget_add_css_class(check, "checked")
        } else {
            gtk_widget_remove_css_class(root, "selected")
            gtk_widget_remove_css_class(check, "checked")
        }
    }

    /// Binds the tile to a photo, showing `thumbnail` if it is already known, or that the
    /// photo was not found (`missing`).
    func show(_ photo: Photo, thumbnail: Thumbnail?, missing: Bool = false) {
        self.photo = photo
        isMissing = false
        gtk_widget_set_visible(notFound, missing ? 1 : 0)
        gtk_widget_set_tooltip_text(root, photo.displayName)
        apply(thumbnail)
        guard missing else { return }
        isMissing = true
        isComplete = true
        gtk_label_set_text(notFoundName.cast(), photo.displayName)
        gtk_widget_add_css_class(root, "missing")
        gtk_widget_set_tooltip_text(root, tr("“%s” was not found: it was moved or deleted outside this app.", photo.displayName))
    }

    /// Shows a thumbnail that arrived for the bound photo.
    func apply(_ thumbnail: Thumbnail?) {
        guard !isMissing else { return }
        gtk_widget_remove_css_class(root, "missing")
        switch thumbnail {
        case .image(let texture, _):
            gtk_picture_set_paintable(picture, texture.pointer)
            gtk_widget_set_visible(brokenIcon, 0)
            gtk_widget_remove_css_class(root, "broken")
            isComplete = true
        case .failed(let reason):
            gtk_picture_set_paintable(picture, nil)
            gtk_widget_set_visible(brokenIcon, 1)
            gtk_widget_add_css_class(root, "broken")
            let name = gtk_widget_get_tooltip_text(root).map { String(cString: $0) } ?? ""
            gtk_widget_set_tooltip_text(root, name.isEmpty ? reason : "\(name)\n\(reason)")
            isComplete = true
        case nil:
            gtk_picture_set_paintable(picture, nil)
            gtk_widget_set_visible(brokenIcon, 0)
            gtk_widget_remove_css_class(root, "broken")
            isComplete = false
        }
    }

    /// Unbinds the tile.
    func clear() {
        photo = nil
        isMissing = false
        gtk_widget_set_visible(notFound, 0)
        apply(nil)
    }
}
