import CGtk
import PhotoCore

/// The viewer's bottom bar: previous and next, where the photo stands in the folder
/// ("12 / 340"), the zoom level, rotate, Save Rotation while turned, the slideshow (its menu:
/// the interval, looping), Add to Album…, and the properties panel's toggle; in edit mode, a
/// "Selected" check for the photo shown. What shows is the window's `ActionPolicy`'s answer.
@MainActor
final class ViewerToolbar {
    let root: Widget
    private let position: Widget
    private let zoomLevel: Widget
    let previous: Widget
    let next: Widget
    /// "Selected": whether the photo shown is part of the selection, in edit mode only.
    private let selectedCheck: Widget
    /// Save Rotation, shown while the photo is turned.
    private let saveRotation: Widget
    /// Plays a Live Photo's or a motion photo's movie, shown for those only.
    private let playMotion: Widget

    init() {
        let bar = gtk_center_box_new()!
        gtk_widget_add_css_class(bar, "toolbar")
        gtk_widget_add_css_class(bar, "viewer-toolbar")

        let start = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        // TRANSLATORS: a check box in the viewer, in edit mode: the photo shown is selected.
        selectedCheck = Texts.checkButton(ShownText(tr("Selected")))
        Texts.setTooltip(selectedCheck, ShownText(tr("Part of the selection (Space)")))
        gtk_actionable_set_action_name(selectedCheck.cast(), "viewer.select")
        gtk_widget_set_visible(selectedCheck, 0)
        previous = Self.button("go-previous-symbolic", tr("Previous Photo (Left)"), action: "viewer.previous")
        next = Self.button("go-next-symbolic", tr("Next Photo (Right)"), action: "viewer.next")
        position = gtk_label_new(nil)
        gtk_widget_add_css_class(position, "numeric")
        for child in [selectedCheck, previous, next, position] { gtk_box_append(start.cast(), child) }

        let end = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        zoomLevel = gtk_label_new(nil)
        gtk_widget_add_css_class(zoomLevel, "numeric")
        gtk_widget_add_css_class(zoomLevel, "dim-label")
        let zoomOut = Self.button("zoom-out-symbolic", tr("Zoom Out (−)"), action: "viewer.zoom-out")
        let zoomIn = Self.button("zoom-in-symbolic", tr("Zoom In (+)"), action: "viewer.zoom-in")
        let fit = Self.button("zoom-fit-best-symbolic", tr("Best Fit (0)"), action: "viewer.zoom-fit")
        let rotateLeft = Self.button("object-rotate-left-symbolic", tr("Rotate Left (Shift+R)"), action: "viewer.rotate-left")
        let rotateRight = Self.button("object-rotate-right-symbolic", tr("Rotate Right (R)"), action: "viewer.rotate-right")
        saveRotation = gtk_button_new_with_label(tr("Save Rotation"))
        Texts.setTooltip(saveRotation, ShownText(tr("Write the rotation into the photo’s file (Ctrl+S)")))
        gtk_actionable_set_action_name(saveRotation.cast(), "win.save-rotation")
        gtk_widget_set_visible(saveRotation, 0)
        // In the middle, away from the slideshow's ▶ and raised among the flat tools: what this
        // photo holds, as a phone's photos app shows it.
        playMotion = gtk_button_new()
        let motionContent = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_box_append(motionContent.cast(), gtk_image_new_from_icon_name("media-playback-start-symbolic"))
        // TRANSLATORS: a button in the viewer, shown for a Live Photo or a motion photo: plays its movie.
        gtk_box_append(motionContent.cast(), Texts.label(ShownText(tr("Live"))))
        gtk_button_set_child(playMotion.cast(), motionContent)
        Texts.setTooltip(playMotion, ShownText(tr("Play the Movie (long press)")))
        gtk_actionable_set_action_name(playMotion.cast(), "viewer.play-motion")
        gtk_widget_add_css_class(playMotion, "live-button")
        gtk_widget_set_visible(playMotion, 0)
        let slideshow = adw_split_button_new()!
        adw_split_button_set_icon_name(slideshow.cast(), "media-playback-start-symbolic")
        Accessible.name(slideshow, tooltip: tr("Slideshow (F5)"))
        adw_split_button_set_dropdown_tooltip(slideshow.cast(), tr("Slideshow Options"))
        Accessible.name(splitButton: slideshow, tr("Slideshow"), menu: tr("Slideshow Options"))
        gtk_actionable_set_action_name(slideshow.cast(), "viewer.slideshow")
        let slideshowMenu = PhotoViewer.slideshowMenu()
        adw_split_button_set_menu_model(slideshow.cast(), slideshowMenu.cast())
        slideshowMenu.unref()
        gtk_widget_add_css_class(slideshow, "flat")
        let addToAlbum = Self.button("bookmark-new-symbolic", tr("Add to Album… (Ctrl+D)"), action: "win.add-to-album")
        let markUp = Self.button("document-edit-symbolic", tr("Mark Up (Ctrl+M)"), action: "win.mark-up")
        let properties = gtk_toggle_button_new()!
        gtk_button_set_icon_name(properties.cast(), "document-properties-symbolic")
        Accessible.name(properties, tooltip: tr("Properties (Alt+Enter)"))
        gtk_actionable_set_action_name(properties.cast(), "viewer.properties")
        for child in [zoomLevel, zoomOut, zoomIn, fit, rotateLeft, rotateRight, saveRotation, slideshow, markUp, addToAlbum, properties] { gtk_box_append(end.cast(), child) }

        gtk_center_box_set_start_widget(bar.cast(), start)
        gtk_center_box_set_center_widget(bar.cast(), playMotion)
        gtk_center_box_set_end_widget(bar.cast(), end)
        root = bar
    }

    private static func button(_ icon: String, _ tooltip: String, action: String) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        Accessible.name(button, tooltip: tooltip)
        gtk_actionable_set_action_name(button.cast(), action)
        gtk_widget_add_css_class(button, "flat")
        return button
    }

    func showSaveRotation(_ shown: Bool) { gtk_widget_set_visible(saveRotation, shown ? 1 : 0) }

    func showPlayMotion(_ shown: Bool) { gtk_widget_set_visible(playMotion, shown ? 1 : 0) }

    func showSelectedCheck(_ shown: Bool) { gtk_widget_set_visible(selectedCheck, shown ? 1 : 0) }

    func show(index: Int, count: Int, zoomPercent: Int) {
        // TRANSLATORS: where the shown photo stands in the folder: "12 / 340".
        Texts.setText(label: position, ShownText(tr("%1$d / %2$d", index + 1, count)))
        Texts.setText(label: zoomLevel, ShownText(tr("%d%%", zoomPercent)))
    }
}
