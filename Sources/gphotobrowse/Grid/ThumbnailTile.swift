import CGtk
import PhotoCore

/// One square tile of the grid: a photo's thumbnail, a placeholder while it decodes, or a
/// broken-image sign whose tooltip says why. Tiles are recycled by the grid view: `show`
/// rebinds a tile to another photo.
@MainActor
final class ThumbnailTile {
    private let live = LiveObjects.Token("ThumbnailTile")
    let root: Widget
    private let picture: OpaquePointer
    private let brokenIcon: Widget
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

    /// Binds the tile to a photo, showing `thumbnail` if it is already known.
    func show(_ photo: Photo, thumbnail: Thumbnail?) {
        self.photo = photo
        gtk_widget_set_tooltip_text(root, photo.displayName)
        apply(thumbnail)
    }

    /// Shows a thumbnail that arrived for the bound photo.
    func apply(_ thumbnail: Thumbnail?) {
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
        apply(nil)
    }
}
