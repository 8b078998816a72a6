import CGtk
import PhotoCore

/// What the viewer shows over the photo: the bottom toolbar, the previous/next buttons that
/// appear while the pointer moves, the zoom level badge and a message when the photo cannot
/// be shown. A single click hides or shows it (with the window's header bar); in fullscreen
/// it hides itself after two seconds without pointer motion.
@MainActor
final class ViewerChrome {
    let toolbar = ViewerToolbar()
    private let toolbarRevealer: Widget
    private let message: Widget
    private let zoomBadge: Widget
    private let previousButton: Widget
    private let nextButton: Widget
    private var hideTimer: UInt32 = 0
    private var badgeTimer: UInt32 = 0
    private var hoverTimer: UInt32 = 0
    private(set) var isVisible = true
    private(set) var isFullscreen = false
    /// A slideshow: the chrome stays hidden, whatever the pointer does.
    private(set) var isPresenting = false

    /// The header bar should show or hide with the chrome.
    var onVisibility: (Bool) -> Void = { _ in }
    /// The window should enter or leave fullscreen.
    var onFullscreen: (Bool) -> Void = { _ in }

    /// Adds the chrome's widgets over `overlay` (a GtkOverlay holding the canvas).
    init(over overlay: Widget) {
        message = gtk_label_new(nil)
        gtk_label_set_wrap(message.cast(), 1)
        gtk_label_set_justify(message.cast(), GTK_JUSTIFY_CENTER)
        gtk_widget_add_css_class(message, "viewer-message")
        gtk_widget_set_halign(message, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(message, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(message, 0)
        gtk_widget_set_can_target(message, 0)

        zoomBadge = gtk_label_new(nil)
        gtk_widget_add_css_class(zoomBadge, "osd")
        gtk_widget_add_css_class(zoomBadge, "zoom-badge")
        gtk_widget_set_halign(zoomBadge, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(zoomBadge, GTK_ALIGN_START)
        gtk_widget_set_margin_top(zoomBadge, 18)
        gtk_widget_set_visible(zoomBadge, 0)
        gtk_widget_set_can_target(zoomBadge, 0)

        previousButton = Self.pagingButton(icon: "go-previous-symbolic", tooltip: tr("Previous Photo"), align: GTK_ALIGN_START, action: "viewer.previous")
        nextButton = Self.pagingButton(icon: "go-next-symbolic", tooltip: tr("Next Photo"), align: GTK_ALIGN_END, action: "viewer.next")

        toolbarRevealer = gtk_revealer_new()
        gtk_revealer_set_transition_type(toolbarRevealer.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_child(toolbarRevealer.cast(), toolbar.root)
        gtk_revealer_set_reveal_child(toolbarRevealer.cast(), 1)
        gtk_widget_set_valign(toolbarRevealer, GTK_ALIGN_END)

        for child in [message, zoomBadge, previousButton, nextButton, toolbarRevealer] {
            gtk_overlay_add_overlay(overlay.cast(), child)
        }
    }

    private static func pagingButton(icon: String, tooltip: String, align: GtkAlign, action: String) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        Accessible.name(button, tooltip: tooltip)
        gtk_actionable_set_action_name(button.cast(), action)
        gtk_widget_add_css_class(button, "osd")
        gtk_widget_add_css_class(button, "circular")
        gtk_widget_add_css_class(button, "paging-button")
        gtk_widget_set_halign(button, align)
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(button, 12)
        gtk_widget_set_margin_end(button, 12)
        gtk_widget_set_focusable(button, 0)
        gtk_widget_set_opacity(button, 0)
        return button
    }

    /// How much of the canvas's bottom the toolbar covers, in widget pixels: its height
    /// while it shows out of fullscreen, else nothing (in fullscreen it comes and goes over
    /// the photo, which would jump if it made room each time).
    var bottomInset: Double {
        guard isVisible, !isFullscreen, !isPresenting else { return 0 }
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(toolbar.root, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, nil, nil)
        return Double(natural)
    }

    /// Shows where the photo stands and whether there is one before and after it.
    func show(index: Int, count: Int, zoomPercent: Int) {
        toolbar.show(index: index, count: count, zoomPercent: zoomPercent)
        gtk_widget_set_sensitive(previousButton, index > 0 ? 1 : 0)
        gtk_widget_set_sensitive(nextButton, index + 1 < count ? 1 : 0)
    }

    /// Shows why the photo cannot be shown, or nothing; `overPhoto`: what is wrong with a photo
    /// that shows, said at its bottom, above the toolbar, rather than over its middle.
    func showMessage(_ text: String?, overPhoto: Bool = false) {
        Texts.setText(label: message, ShownText(text ?? ""))
        gtk_widget_set_valign(message, overPhoto ? GTK_ALIGN_END : GTK_ALIGN_CENTER)
        gtk_widget_set_margin_bottom(message, overPhoto ? Int32(bottomInset) : 0)
        gtk_widget_set_visible(message, text == nil ? 0 : 1)
    }

    /// The zoom level in a badge for a moment.
    func showZoomLevel(percent: Int) { showBadge(tr("%d%%", percent)) }

    /// A word at the top of the photo for a moment (the zoom level, "Paused").
    func showBadge(_ text: String) {
        Texts.setText(label: zoomBadge, ShownText(text))
        gtk_widget_set_visible(zoomBadge, 1)
        if badgeTimer != 0 { g_source_remove(badgeTimer) }
        badgeTimer = after(milliseconds: 1200) { [weak self] in
            self?.badgeTimer = 0
            if let badge = self?.zoomBadge { gtk_widget_set_visible(badge, 0) }
        }
    }

    func setVisible(_ visible: Bool) {
        isVisible = visible
        gtk_revealer_set_reveal_child(toolbarRevealer.cast(), visible ? 1 : 0)
        onVisibility(visible)
    }

    func toggleVisible() { setVisible(!isVisible) }

    func setFullscreen(_ on: Bool) {
        isFullscreen = on
        onFullscreen(on)
        if on { scheduleHide() } else { setVisible(true) }
    }

    /// A slideshow starts (fullscreen, nothing over the photo) or ends (back to fullscreen
    /// or not, as before it).
    func present(_ on: Bool, fullscreenAfter: Bool = false) {
        isPresenting = on
        if on {
            if !isFullscreen { setFullscreen(true) }
            setVisible(false)
        } else if isFullscreen != fullscreenAfter {
            setFullscreen(fullscreenAfter)
        } else {
            setVisible(!fullscreenAfter)
            if fullscreenAfter { scheduleHide() }
        }
    }

    /// Back to the chrome shown, out of fullscreen (the viewer closed).
    func reset() {
        isPresenting = false
        if isFullscreen { setFullscreen(false) }
        if !isVisible { setVisible(true) }
    }

    /// The pointer moved: the paging buttons appear for a moment, and in fullscreen the
    /// chrome comes back until the pointer rests again.
    func pointerMoved() {
        guard !isPresenting else { return }
        gtk_widget_set_opacity(previousButton, 1)
        gtk_widget_set_opacity(nextButton, 1)
        if hoverTimer != 0 { g_source_remove(hoverTimer) }
        hoverTimer = after(milliseconds: 1500) { [weak self] in
            guard let self else { return }
            self.hoverTimer = 0
            gtk_widget_set_opacity(self.previousButton, 0)
            gtk_widget_set_opacity(self.nextButton, 0)
        }
        if isFullscreen {
            if !isVisible { setVisible(true) }
            scheduleHide()
        }
    }

    private func scheduleHide() {
        if hideTimer != 0 { g_source_remove(hideTimer) }
        hideTimer = after(milliseconds: 2000) { [weak self] in
            guard let self else { return }
            self.hideTimer = 0
            if self.isFullscreen { self.setVisible(false) }
        }
    }
}
