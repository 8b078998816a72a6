import CGtk
import PhotoCore
import PhotoIO

/// One square tile of the grid: a photo's thumbnail, a placeholder while it decodes, or a
/// broken-image sign whose tooltip says why, or, for a photo of an album of the person's own
/// that is no longer where it was, a "not found" sign with its name. Tiles are recycled by the grid view: `show`
/// rebinds a tile to another photo.
@MainActor
final class ThumbnailTile {
    private let live = LiveObjects.Token("ThumbnailTile")
    let root: Widget
    private let picture: OpaquePointer
    /// The broken-image sign and the "not found" sign, made for the first photo that needs
    /// them: a grid keeps some 200 tiles, and each widget more is styled 200 times.
    private var brokenIcon: Widget?
    /// The sign that the photo's file ends too soon (its thumbnail shows what there is).
    private var endMissingSign: Widget?
    private var notFound: (box: Widget, name: Widget)?
    /// A web photo's download, made for the first tile that downloads.
    private var ring: DownloadRing?
    /// The photo was not found: no thumbnail replaces the sign.
    private var isMissing = false
    /// Edit mode's check mark, top left, made the first time the tile is shown in edit mode;
    /// the signs made after go below it.
    private var check: Widget?
    /// The photo's heart and stars, bottom left, made for the first marked photo.
    private var marksLabel: Widget?
    /// What kind of photo it is, top right ("RAW": a RAW file goes with it; "Live": a movie
    /// goes with it or is in it), made for the first photo that needs it.
    private var badge: Widget?
    /// A video's length, bottom right, made for the first video.
    private var durationBadge: Widget?
    /// The photo shown, once bound.
    private(set) var photo: Photo?
    var key: PhotoVersion? { photo?.version }
    /// Whether the tile shows its final state (a thumbnail or a failure).
    private(set) var isComplete = false
    /// Whether the tile shows why its photo has no thumbnail (a failure), not an image.
    private(set) var showsFailure = false
    /// Whether the tile shows its photo's thumbnail, or the failure to make one.
    var showsThumbnailOutcome: Bool { isComplete && !isMissing }
    /// The tooltip, given as GTK shows it and kept as the tile's accessible description:
    /// `tooltip-text` set on a tile on screen would ask the display where the pointer is (a
    /// round trip to the X server) at every bind, some fifty when a search changes the
    /// tiles on screen.
    private var tooltip = ""
    /// Whether the tile shows the photo's embedded preview, until its thumbnail comes.
    private(set) var showsPreview = false

    init(edge: Int) {
        root = gtk_overlay_new()
        gtk_widget_set_size_request(root, Int32(edge), Int32(edge))
        // Square at every size: the columns share out the width left over, the tile stays
        // `edge` a side in the middle of its cell.
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(root, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(root, "thumbnail")
        LiveObjects.track(root)
        gtk_widget_set_overflow(root, GTK_OVERFLOW_HIDDEN)
        gtk_widget_set_has_tooltip(root, 1)

        picture = gtk_picture_new()!.cast()
        gtk_picture_set_can_shrink(picture, 1)
        gtk_picture_set_content_fit(picture, GTK_CONTENT_FIT_COVER)
        // An overlay, not the overlay's child: overlays are not measured, so the tile's size
        // is its size request alone, never the thumbnail's (which would widen it to its cell).
        gtk_overlay_add_overlay(root.cast(), picture.widget)

        onQueryTooltip(root) { [weak self] asked in
            guard let self, !self.tooltip.isEmpty else { return false }
            Texts.setTooltip(asked: asked, ShownText(self.tooltip))
            return true
        }
    }

    /// The tooltip shown from now on, and the tile's accessible description.
    private func setTooltip(_ text: ShownText) {
        let plain = text.plain
        guard plain != tooltip else { return }
        tooltip = plain
        Accessible.setDescription(root, plain)
    }

    /// Shows or hides the broken-image sign.
    private func showBroken(_ shown: Bool) {
        if let brokenIcon { return gtk_widget_set_visible(brokenIcon, shown ? 1 : 0) }
        guard shown else { return }
        let icon = BrokenPhotoSign.widget()
        gtk_widget_set_halign(icon, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(icon, GTK_ALIGN_CENTER)
        gtk_widget_set_can_target(icon, 0)
        addBelowCheck(icon)
        brokenIcon = icon
    }

    /// Shows or hides the sign, bottom right, that the photo's end is missing.
    private func showEndMissing(_ shown: Bool) {
        if let endMissingSign { return gtk_widget_set_visible(endMissingSign, shown ? 1 : 0) }
        guard shown else { return }
        let sign = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
        gtk_image_set_pixel_size(sign.cast(), 16)
        gtk_widget_add_css_class(sign, "tile-warning")
        gtk_widget_set_halign(sign, GTK_ALIGN_END)
        gtk_widget_set_valign(sign, GTK_ALIGN_END)
        gtk_widget_set_margin_end(sign, 6)
        gtk_widget_set_margin_bottom(sign, 6)
        gtk_widget_set_can_target(sign, 0)
        addBelowCheck(sign)
        endMissingSign = sign
    }

    /// Shows how far the bound web photo's thumbnail has downloaded; nil hides the ring.
    func showDownload(_ progress: DownloadProgress?) {
        if ring == nil, progress != nil {
            let made = DownloadRing(diameter: 40)
            addBelowCheck(made.root)
            ring = made
        }
        guard let ring else { return }
        gtk_widget_set_visible(ring.root, progress == nil || isComplete ? 0 : 1)
        if let progress { ring.show(progress) }
    }

    /// Shows the "not found" sign with the photo's name, or hides it (nil).
    private func showNotFound(_ name: String?) {
        if notFound == nil, name != nil {
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
            gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
            gtk_widget_set_margin_start(box, 8)
            gtk_widget_set_margin_end(box, 8)
            gtk_widget_add_css_class(box, "not-found")
            let icon = gtk_image_new_from_icon_name("action-unavailable-symbolic")!
            gtk_image_set_pixel_size(icon.cast(), 32)
            gtk_widget_add_css_class(icon, "dim-label")
            let nameLabel = gtk_label_new(nil)!
            gtk_label_set_ellipsize(nameLabel.cast(), PANGO_ELLIPSIZE_MIDDLE)
            gtk_label_set_max_width_chars(nameLabel.cast(), 16)
            let text = Texts.label(ShownText(tr("Not Found")))
            gtk_widget_add_css_class(text, "dim-label")
            gtk_widget_add_css_class(text, "caption")
            for child in [icon, nameLabel, text] { gtk_box_append(box.cast(), child) }
            // Below the check mark, as when it was made with the tile.
            addBelowCheck(box)
            notFound = (box, nameLabel)
        }
        guard let notFound else { return }
        gtk_widget_set_visible(notFound.box, name == nil ? 0 : 1)
        if let name { Texts.setText(label: notFound.name, ShownText(OutsideText(name))) }
    }

    /// Adds a sign over the tile, below the check mark if there is one.
    private func addBelowCheck(_ widget: Widget) {
        gtk_overlay_add_overlay(root.cast(), widget)
        if let check { gtk_widget_insert_before(widget, root, check) }
    }

    /// Edit mode's check mark, top left: empty circle, or ticked when selected.
    private func makeCheck() -> Widget {
        let made = gtk_image_new_from_icon_name("object-select-symbolic")!
        gtk_widget_add_css_class(made, "tile-check")
        gtk_widget_set_halign(made, GTK_ALIGN_START)
        gtk_widget_set_valign(made, GTK_ALIGN_START)
        gtk_widget_set_margin_start(made, 8)
        gtk_widget_set_margin_top(made, 8)
        gtk_widget_set_can_target(made, 0)
        gtk_overlay_add_overlay(root.cast(), made)
        check = made
        return made
    }

    /// Shows the check mark (edit mode) and whether the photo is selected.
    func showSelection(editing: Bool, selected: Bool) {
        speak(selected: editing && selected)
        if selected && editing {
            gtk_widget_add_css_class(root, "selected")
        } else {
            gtk_widget_remove_css_class(root, "selected")
        }
        guard let check = check ?? (editing ? makeCheck() : nil) else { return }
        gtk_widget_set_visible(check, editing ? 1 : 0)
        if selected && editing {
            gtk_widget_add_css_class(check, "checked")
        } else {
            gtk_widget_remove_css_class(check, "checked")
        }
    }

    /// What a screen reader says of the tile: set on the grid's cell, which is what takes the
    /// focus (GTK 4.8 has no accessible label for list items of its own).
    private func speak(selected: Bool) {
        guard let photo else { return }
        let cell = gtk_widget_get_parent(root) ?? root
        Accessible.setLabel(cell, SpokenPhotoName.of(photo, selected: selected))
        Accessible.setSelected(cell, selected)
    }

    /// Binds the tile to a photo, showing `thumbnail` if it is already known, or that the
    /// photo was not found (`missing`).
    func show(_ photo: Photo, thumbnail: Thumbnail?, missing: Bool = false) {
        self.photo = photo
        isMissing = false
        showNotFound(missing ? photo.displayName : nil)
        setTooltip(ShownText(OutsideText(photo.displayName)))
        speak(selected: false)
        showBadge(nil)
        apply(thumbnail)
        guard missing else { return }
        isMissing = true
        isComplete = true
        gtk_widget_add_css_class(root, "missing")
        setTooltip(ShownText(tr("“%s” was not found: it was moved or deleted outside this app.", OutsideText(photo.displayName))))
    }

    /// Shows the bound photo's embedded preview while its thumbnail is made.
    func showPreview(_ preview: Thumbnail) {
        guard !isMissing, !isComplete, case .image(let texture, _) = preview else { return }
        gtk_picture_set_paintable(picture, texture.pointer)
        showsPreview = true
    }

    /// Shows a thumbnail that arrived for the bound photo.
    func apply(_ thumbnail: Thumbnail?) {
        guard !isMissing else { return }
        showsFailure = thumbnail?.isFailure ?? false
        showsPreview = false
        if let ring { gtk_widget_set_visible(ring.root, 0) }
        gtk_widget_remove_css_class(root, "missing")
        switch thumbnail {
        case .image(let texture, let pixels):
            gtk_picture_set_paintable(picture, texture.pointer)
            showBroken(false)
            gtk_widget_remove_css_class(root, "broken")
            showEndMissing(pixels.endMissing)
            showDuration(photo?.isVideo == true ? pixels.videoDuration : nil)
            showBadge(photo.flatMap { Self.badge(of: $0, motionMovie: pixels.motionMovie) })
            if pixels.endMissing, let photo {
                setTooltip(ShownText(ShownText(OutsideText(photo.displayName)).plain + "\n" + FailureWords.endMissing))
            }
            isComplete = true
        case .failed(let reason):
            gtk_picture_set_paintable(picture, nil)
            showEndMissing(false)
            showDuration(nil)
            showBadge(photo.flatMap { Self.badge(of: $0, motionMovie: nil) })
            showBroken(true)
            gtk_widget_add_css_class(root, "broken")
            setTooltip(ShownText(tooltip.isEmpty ? reason : "\(tooltip)\n\(reason)"))
            isComplete = true
        case nil:
            gtk_picture_set_paintable(picture, nil)
            showEndMissing(false)
            showDuration(nil)
            showBadge(photo.flatMap { Self.badge(of: $0, motionMovie: nil) })
            showBroken(false)
            gtk_widget_remove_css_class(root, "broken")
            isComplete = false
        }
    }

    /// Shows the photo's favourite heart and stars (nothing for none), bottom left.
    func showMarks(_ marks: PhotoMarks?) {
        let text = marks.map(MarksText.badge) ?? ""
        showCornerLabel(&marksLabel, text.isEmpty ? nil : text, classes: ["tile-marks"],
                        halign: GTK_ALIGN_START, valign: GTK_ALIGN_END, bottomMargin: 4)
    }

    /// What kind of photo it is, for its badge: "RAW" when a RAW file goes with it, "Live"
    /// for a Live Photo (a movie goes with it) or a motion photo (a movie is in it).
    static func badge(of photo: Photo, motionMovie: EmbeddedMovie?) -> String? {
        if photo.hasRawCompanion { return tr("RAW") }
        // TRANSLATORS: a tile's badge: a Live Photo or a motion photo, a still with a short movie (as iOS and Google Photos say it).
        if photo.liveMovie != nil || motionMovie != nil { return tr("Live") }
        return nil
    }

    /// Shows the badge, top right, or hides it (nil).
    private func showBadge(_ text: String?) {
        showCornerLabel(&badge, text, classes: ["tile-badge"], halign: GTK_ALIGN_END, valign: GTK_ALIGN_START)
    }

    /// Shows a video's length, bottom right, with a play sign, or hides it (nil).
    private func showDuration(_ milliseconds: Int?) {
        showCornerLabel(&durationBadge, milliseconds.map { "\u{25B6} " + VideoFacts.durationText(milliseconds: $0) },
                        classes: ["tile-badge", "tile-duration"], halign: GTK_ALIGN_END, valign: GTK_ALIGN_END)
    }

    /// Shows `text` in a label over a corner of the tile, 6 pixels in (the bottom margin
    /// aside), made the first time there is something to show; nil hides it. The label takes
    /// no clicks: they go to the tile.
    private func showCornerLabel(_ label: inout Widget?, _ text: String?, classes: [String],
                                 halign: GtkAlign, valign: GtkAlign, bottomMargin: Int32 = 6) {
        if label == nil, text != nil {
            let made = gtk_label_new(nil)!
            for name in classes { gtk_widget_add_css_class(made, name) }
            gtk_widget_set_halign(made, halign)
            gtk_widget_set_valign(made, valign)
            if halign == GTK_ALIGN_START { gtk_widget_set_margin_start(made, 6) } else { gtk_widget_set_margin_end(made, 6) }
            if valign == GTK_ALIGN_START { gtk_widget_set_margin_top(made, 6) } else { gtk_widget_set_margin_bottom(made, bottomMargin) }
            gtk_widget_set_can_target(made, 0)
            addBelowCheck(made)
            label = made
        }
        guard let label else { return }
        Texts.setText(label: label, ShownText(text ?? ""))
        gtk_widget_set_visible(label, text == nil ? 0 : 1)
    }

    /// Makes the tile `edge` pixels a side (the grid's tile size changed).
    func setEdge(_ edge: Int) {
        gtk_widget_set_size_request(root, Int32(edge), Int32(edge))
    }

    /// The tiles moved to thumbnails of another size: what the tile shows stays, scaled,
    /// until the bound photo's thumbnail of the new size comes (`apply`).
    func awaitThumbnail() {
        guard let photo, !isMissing else { return }
        isComplete = false
        showsPreview = false
        setTooltip(ShownText(OutsideText(photo.displayName)))
    }

    /// Unbinds the tile: it shows, and says, nothing of the photo it showed.
    func clear() {
        photo = nil
        isMissing = false
        showNotFound(nil)
        showMarks(nil)
        showBadge(nil)
        apply(nil)
        setTooltip(ShownText(""))
    }
}
