import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The paged, zoomable viewer: one photo fitted to the window, its neighbours decoded
/// ahead, zoom around the pointer, pan, rotate, a properties panel, and chrome that a
/// single click hides.
///
/// The photo shows at once from its thumbnail; its display-size image follows once paging
/// has settled (`ViewerImages`), and a full-resolution one when the zoom needs more pixels.
/// Zoom, pan and rotation are the core's `ViewTransform`, in device pixels.
@MainActor
final class PhotoViewer {
    let root: Widget
    private let canvas = PhotoCanvas()
    private let overlay: Widget
    private let toolbar = ViewerToolbar()
    private let toolbarRevealer: Widget
    private let message: Widget
    private let zoomBadge: Widget
    private let previousButton: Widget
    private let nextButton: Widget
    private let properties = PropertiesPanel()
    private let propertiesRevealer: Widget
    private let propertiesAction: OpaquePointer
    private let selectAction: OpaquePointer
    private let contents: FolderContents
    private let thumbnails: ThumbnailLoader
    private let images: ViewerImages

    private var current: (index: Int, id: String)?
    private var transform: ViewTransform?
    /// Rotation is a view setting, kept per photo while the folder is open; files are untouched.
    private var rotations: [String: Int] = [:]
    private var placeholder: (key: ThumbnailKey, surface: CanvasSurface)?
    private var thumbnailRequest: ThumbnailKey?
    private var tracedFullImage: String?
    /// Horizontal offset (widget pixels) while a swipe drags the photo aside.
    private var slide = 0.0
    private var swipeVelocity = 0.0
    private var gestureAngle = 0.0
    private var dragLast = (x: 0.0, y: 0.0)
    private var pinchStart: ViewTransform?
    private var pointer = (x: 0.0, y: 0.0)
    private var scrollAccumulator = (x: 0.0, y: 0.0)
    private var pendingSingleClick: UInt32 = 0
    private var hideTimer: UInt32 = 0
    private var badgeTimer: UInt32 = 0
    private var hoverTimer: UInt32 = 0
    private var frameTimer: UInt32 = 0
    private var frameIndex = 0
    private(set) var chromeVisible = true
    private(set) var isFullscreen = false

    /// The shown photo changed (its name goes in the window title).
    var onPhotoChanged: (Photo) -> Void = { _ in }
    /// The person asked to go back to the grid.
    var onClose: () -> Void = {}
    /// The header bar should show or hide with the viewer's own chrome.
    var onChromeVisibility: (Bool) -> Void = { _ in }
    /// The window should enter or leave fullscreen.
    var onFullscreen: (Bool) -> Void = { _ in }
    /// A right click asked for the context menu at (x, y) in `menuAnchor`.
    var onContextMenu: (_ x: Double, _ y: Double) -> Void = { _, _ in }
    var menuAnchor: Widget { canvas.widget }
    /// Edit mode: Space selects the shown photo instead of paging.
    var isEditing: () -> Bool = { false }
    var isSelected: (String) -> Bool = { _ in false }
    var onToggleSelected: (String) -> Void = { _ in }

    var index: Int? { current?.index }

    init(contents: FolderContents, thumbnails: ThumbnailLoader, decoder: IsolatedDecoder) {
        self.contents = contents
        self.thumbnails = thumbnails
        images = ViewerImages(decoder: decoder)

        overlay = gtk_overlay_new()
        gtk_widget_add_css_class(overlay, "photo-viewer")
        gtk_widget_set_hexpand(overlay, 1)
        gtk_widget_set_vexpand(overlay, 1)
        gtk_overlay_set_child(overlay.cast(), canvas.widget)

        message = gtk_label_new(nil)
        gtk_label_set_wrap(message.cast(), 1)
        gtk_label_set_justify(message.cast(), GTK_JUSTIFY_CENTER)
        gtk_widget_add_css_class(message, "viewer-message")
        gtk_widget_set_halign(message, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(message, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(message, 0)
        gtk_widget_set_can_target(message, 0)
        gtk_overlay_add_overlay(overlay.cast(), message)

        zoomBadge = gtk_label_new(nil)
        gtk_widget_add_css_class(zoomBadge, "osd")
        gtk_widget_add_css_class(zoomBadge, "zoom-badge")
        gtk_widget_set_halign(zoomBadge, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(zoomBadge, GTK_ALIGN_START)
        gtk_widget_set_margin_top(zoomBadge, 18)
        gtk_widget_set_visible(zoomBadge, 0)
        gtk_widget_set_can_target(zoomBadge, 0)
        gtk_overlay_add_overlay(overlay.cast(), zoomBadge)

        previousButton = Self.pagingButton(icon: "go-previous-symbolic", tooltip: "Previous Photo", align: GTK_ALIGN_START, action: "viewer.previous")
        nextButton = Self.pagingButton(icon: "go-next-symbolic", tooltip: "Next Photo", align: GTK_ALIGN_END, action: "viewer.next")
        gtk_overlay_add_overlay(overlay.cast(), previousButton)
        gtk_overlay_add_overlay(overlay.cast(), nextButton)

        toolbarRevealer = gtk_revealer_new()
        gtk_revealer_set_transition_type(toolbarRevealer.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_child(toolbarRevealer.cast(), toolbar.root)
        gtk_revealer_set_reveal_child(toolbarRevealer.cast(), 1)
        gtk_widget_set_valign(toolbarRevealer, GTK_ALIGN_END)
        gtk_overlay_add_overlay(overlay.cast(), toolbarRevealer)

        propertiesRevealer = gtk_revealer_new()
        gtk_revealer_set_transition_type(propertiesRevealer.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_LEFT)
        gtk_revealer_set_child(propertiesRevealer.cast(), properties.root)
        gtk_revealer_set_reveal_child(propertiesRevealer.cast(), 0)

        root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        gtk_widget_set_focusable(root, 1)
        gtk_box_append(root.cast(), overlay)
        gtk_box_append(root.cast(), propertiesRevealer)

        let actions = g_simple_action_group_new()!
        propertiesAction = g_simple_action_new_stateful("properties", nil, g_variant_new_boolean(0)).cast()
        g_action_map_add_action(actions.cast(), propertiesAction.cast())
        selectAction = g_simple_action_new_stateful("select", nil, g_variant_new_boolean(0)).cast()
        g_action_map_add_action(actions.cast(), selectAction.cast())
        gtk_widget_insert_action_group(root, "viewer", actions.cast())
        actions.unref()

        images.onChange = { [weak self] id in self?.imageChanged(id) }
        contents.observeChanges { [weak self] _ in self?.folderChanged() }
        thumbnails.observeReady { [weak self] key, thumbnail in self?.thumbnailReady(key, thumbnail) }
        onSignal(canvas.widget, "resize", integers: { [weak self] _, _ in self?.render() })
        onSignal(selectAction, "change-state", pointer: { [weak self] _ in
            guard let self, let current = self.current else { return }
            self.onToggleSelected(current.id)
            self.showSelectedState()
        })
        onSignal(propertiesAction, "change-state", pointer: { [weak self] value in
            guard let self, let value else { return }
            self.showProperties(g_variant_get_boolean(value.cast()) != 0)
        })
        installActions(actions)
        installKeys()
        installPointer()
    }

    private static func pagingButton(icon: String, tooltip: String, align: GtkAlign, action: String) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(button, tooltip)
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

    // MARK: Showing a photo

    /// Shows the photo at `index`. Entering the viewer loads at once; paging within it waits
    /// until paging settles.
    func show(_ index: Int, entering: Bool = false) {
        guard index >= 0, index < contents.photos.count else { return }
        let photo = contents.photos[index]
        if current?.id == photo.id { return }
        current = (index, photo.id)
        stopAnimation()
        transform = nil
        slide = 0
        gestureAngle = 0
        tracedFullImage = nil
        Trace.milestone("page", index)
        showPlaceholder(for: photo)
        images.displayBox = ZoomGeometry.fitDecodeBox(viewport: viewportSize, quarterTurns: 0)
        images.paged(to: photo.id, in: contents.photos, immediately: entering)
        onPhotoChanged(photo)
        if gtk_revealer_get_reveal_child(propertiesRevealer.cast()) != 0 { loadProperties(of: photo) }
        render()
    }

    /// Gives keyboard focus to the viewer.
    func focus() { gtk_widget_grab_focus(root) }

    /// Leaves the viewer: drops every image and decode.
    func stop() {
        cancelDecode()
        stopAnimation()
        current = nil
        transform = nil
        placeholder = nil
        canvas.show([])
        if isFullscreen { setFullscreen(false) }
        if !chromeVisible { setChrome(visible: true) }
    }

    /// Cancels the decodes under way. Touches no widget.
    func cancelDecode() {
        images.stop()
        if let thumbnailRequest { thumbnails.release(thumbnailRequest) }
        thumbnailRequest = nil
    }

    func page(by delta: Int) {
        guard let current, contents.photos.count > 0 else { return }
        show(min(max(current.index + delta, 0), contents.photos.count - 1))
    }

    private func showPlaceholder(for photo: Photo) {
        if let thumbnailRequest { thumbnails.release(thumbnailRequest) }
        thumbnailRequest = nil
        placeholder = nil
        let key = ThumbnailKey(photo)
        switch thumbnails.cached(key) {
        case .image(let texture): placeholder = (key, CanvasSurface(texture: texture))
        case .failed, nil:
            thumbnails.request(key, priority: Int.max - 1)
            thumbnailRequest = key
        }
    }

    private func thumbnailReady(_ key: ThumbnailKey, _ thumbnail: Thumbnail) {
        guard key == thumbnailRequest else { return }
        thumbnailRequest = nil
        if case .image(let texture) = thumbnail {
            placeholder = (key, CanvasSurface(texture: texture))
            render()
        }
    }

    private func imageChanged(_ id: String) {
        guard current?.id == id || slide != 0 else { return }
        if current?.id == id { playIfAnimated() }
        render()
    }

    /// Plays the shown photo's frames, each for its own duration.
    private func playIfAnimated() {
        guard frameTimer == 0, let current, let image = images.images[current.id], image.frames.count > 1 else { return }
        let id = current.id
        frameTimer = after(milliseconds: UInt32(image.frames[frameIndex].duration)) { [weak self] in
            guard let self else { return }
            self.frameTimer = 0
            guard self.current?.id == id, let image = self.images.images[id], !image.frames.isEmpty else { return }
            if self.frameIndex + 1 < image.frames.count {
                self.frameIndex += 1
            } else if image.loops {
                self.frameIndex = 0
            } else {
                return
            }
            self.render()
            self.playIfAnimated()
        }
    }

    private func stopAnimation() {
        if frameTimer != 0 { g_source_remove(frameTimer) }
        frameTimer = 0
        frameIndex = 0
    }

    /// The folder changed under the viewer: follow the shown photo to its new index.
    private func folderChanged() {
        guard let current else { return }
        if let index = contents.photos.index(of: current.id) {
            self.current = (index, current.id)
            render()
        } else if contents.photos.count > 0 {
            self.current = nil
            show(min(current.index, contents.photos.count - 1), entering: true)
        } else {
            onClose()
        }
    }

    // MARK: Painting

    private var scaleFactor: Double { Double(gtk_widget_get_scale_factor(canvas.widget)) }
    private var viewportSize: ViewSize { ViewSize(width: canvas.width * scaleFactor, height: canvas.height * scaleFactor) }

    /// What to paint for a photo: its decoded image (the current frame of an animation),
    /// else its thumbnail.
    private func picture(for id: String) -> (surface: CanvasSurface, sourceSize: PixelSize, isFull: Bool)? {
        if let image = images.images[id] {
            if id == current?.id, !image.frames.isEmpty {
                let frame = image.frames[min(frameIndex, image.frames.count - 1)]
                return (frame.surface, image.sourceSize, true)
            }
            return (image.surface, image.sourceSize, true)
        }
        if let placeholder, placeholder.key.id == id { return (placeholder.surface, placeholder.surface.size, false) }
        return nil
    }

    /// Lays the shown photo (and a neighbour sliding in) out on the canvas and updates the chrome.
    private func render() {
        guard let current else { return }
        let viewport = viewportSize
        var layers: [(surface: CanvasSurface, placement: CanvasPlacement)] = []
        if let picture = picture(for: current.id), viewport.width > 0 {
            if transform?.imageSize != picture.sourceSize {
                transform = ViewTransform(imageSize: picture.sourceSize, viewport: viewport, quarterTurns: rotations[current.id] ?? 0)
            } else if transform?.viewport != viewport {
                transform?.resize(to: viewport)
            }
            layers.append((picture.surface, placement(for: transform!, surface: picture.surface, offset: slide)))
            if picture.isFull, tracedFullImage != current.id {
                tracedFullImage = current.id
                Trace.milestone("full-image", current.index)
            }
            let animated = images.images[current.id]?.frames.isEmpty == false  // frames stay at display size
            if picture.isFull, !animated, let transform, transform.needsSharperImage(decoded: picture.surface.size) {
                images.sharpen(contents.photos[current.index], to: transform.decodeSize(for: transform.scale))
            }
        }
        if slide != 0 {
            let neighbour = current.index + (slide < 0 ? 1 : -1)
            if neighbour >= 0, neighbour < contents.photos.count, let picture = picture(for: contents.photos[neighbour].id) {
                let fitted = ViewTransform(imageSize: picture.sourceSize, viewport: viewport, quarterTurns: rotations[contents.photos[neighbour].id] ?? 0)
                let gap = canvas.width + 24
                layers.insert((picture.surface, placement(for: fitted, surface: picture.surface, offset: slide + (slide < 0 ? gap : -gap))), at: 0)
            }
        }
        canvas.show(layers)

        if let failure = images.failure(for: current.id) {
            gtk_label_set_text(message.cast(), failure.reason)
            gtk_widget_set_visible(message, 1)
        } else {
            gtk_widget_set_visible(message, 0)
        }
        toolbar.show(index: current.index, count: contents.photos.count, zoomPercent: Int(((transform?.scale ?? 1) * 100).rounded()))
        showSelectedState()
        gtk_widget_set_sensitive(previousButton, current.index > 0 ? 1 : 0)
        gtk_widget_set_sensitive(nextButton, current.index + 1 < contents.photos.count ? 1 : 0)
    }

    /// Device-pixel geometry to widget coordinates for the canvas.
    private func placement(for transform: ViewTransform, surface: CanvasSurface, offset: Double) -> CanvasPlacement {
        let rect = transform.imageRect
        let sourceWidth = Double(transform.imageSize.width)
        return CanvasPlacement(
            centerX: rect.center.x / scaleFactor + offset,
            centerY: rect.center.y / scaleFactor,
            scale: transform.scale * sourceWidth / Double(surface.size.width) / scaleFactor,
            rotation: transform.rotationDegrees * .pi / 180 + gestureAngle)
    }

    /// The toolbar's select toggle shows whether the shown photo is selected.
    func showSelectedState() {
        let selected = current.map { isEditing() && isSelected($0.id) } ?? false
        g_simple_action_set_state(selectAction.cast(), g_variant_new_boolean(selected ? 1 : 0))
    }

    // MARK: Zoom, pan, rotate

    private func changeTransform(showLevel: Bool = true, _ change: (inout ViewTransform) -> Void) {
        guard var view = transform else { return }
        change(&view)
        transform = view
        if let current { rotations[current.id] = view.quarterTurns }
        render()
        if showLevel { showZoomLevel() }
    }

    private var center: ViewPoint { viewportSize.center }

    private func pointerPoint(_ x: Double, _ y: Double) -> ViewPoint { ViewPoint(x: x * scaleFactor, y: y * scaleFactor) }

    func zoomIn() { changeTransform { $0.zoom(by: 1.25, around: center) } }
    func zoomOut() { changeTransform { $0.zoom(by: 0.8, around: center) } }
    func zoomToFit() { changeTransform { $0.fit() } }
    func zoomToActualSize() { changeTransform { $0.zoom(to: 1, around: center) } }
    func rotate(by quarterTurns: Int) { changeTransform(showLevel: false) { $0.rotate(by: quarterTurns) } }

    /// The zoom level in a badge for a moment.
    private func showZoomLevel() {
        guard let transform else { return }
        gtk_label_set_text(zoomBadge.cast(), "\(Int((transform.scale * 100).rounded()))%")
        gtk_widget_set_visible(zoomBadge, 1)
        if badgeTimer != 0 { g_source_remove(badgeTimer) }
        badgeTimer = after(milliseconds: 1200) { [weak self] in
            self?.badgeTimer = 0
            if let badge = self?.zoomBadge { gtk_widget_set_visible(badge, 0) }
        }
    }

    // MARK: Chrome, fullscreen, properties

    private func setChrome(visible: Bool) {
        chromeVisible = visible
        gtk_revealer_set_reveal_child(toolbarRevealer.cast(), visible ? 1 : 0)
        onChromeVisibility(visible)
    }

    func toggleFullscreen() { setFullscreen(!isFullscreen) }

    private func setFullscreen(_ on: Bool) {
        isFullscreen = on
        onFullscreen(on)
        if on { scheduleChromeHide() } else { setChrome(visible: true) }
    }

    /// In fullscreen the chrome hides itself after two seconds without pointer motion.
    private func scheduleChromeHide() {
        if hideTimer != 0 { g_source_remove(hideTimer) }
        hideTimer = after(milliseconds: 2000) { [weak self] in
            guard let self else { return }
            self.hideTimer = 0
            if self.isFullscreen { self.setChrome(visible: false) }
        }
    }

    /// Shows or hides the properties panel (Alt+Enter, the toolbar's and the header bar's button).
    func toggleProperties() {
        showProperties(gtk_revealer_get_reveal_child(propertiesRevealer.cast()) == 0)
    }

    private func showProperties(_ on: Bool) {
        g_simple_action_set_state(propertiesAction.cast(), g_variant_new_boolean(on ? 1 : 0))
        gtk_revealer_set_reveal_child(propertiesRevealer.cast(), on ? 1 : 0)
        if on, let current { loadProperties(of: contents.photos[current.index]) }
    }

    /// Reads the photo's details on a worker and shows them if it is still the one shown.
    private func loadProperties(of photo: Photo) {
        let uri = photo.id
        Thread.detachNewThread { [weak self] in
            let details = IsolatedDecoder.shared.properties(uri: uri)
            onMain { [weak self] in
                guard let self, self.current?.id == uri else { return }
                var details = details
                if details.dimensions == nil, let size = self.images.images[uri]?.sourceSize { details.dimensions = size }
                self.properties.show(details.rows)
            }
        }
    }

    // MARK: Input

    private func installActions(_ actions: some GObjectPointer) {
        addAction(actions, "previous") { [weak self] in self?.page(by: -1) }
        addAction(actions, "next") { [weak self] in self?.page(by: 1) }
        addAction(actions, "zoom-in") { [weak self] in self?.zoomIn() }
        addAction(actions, "zoom-out") { [weak self] in self?.zoomOut() }
        addAction(actions, "zoom-fit") { [weak self] in self?.zoomToFit() }
        addAction(actions, "rotate-left") { [weak self] in self?.rotate(by: -1) }
        addAction(actions, "rotate-right") { [weak self] in self?.rotate(by: 1) }
    }

    private func installKeys() {
        // Capture phase: the viewer's keys work wherever the focus is inside it.
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] keyval, state in self?.keyPressed(keyval, state) ?? false }
        gtk_widget_add_controller(root, keys)
    }

    private func keyPressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        let control = state.rawValue & GDK_CONTROL_MASK.rawValue != 0
        let alt = state.rawValue & GDK_ALT_MASK.rawValue != 0
        let key = Int32(keyval)
        if alt && !control && (key == GDK_KEY_Return || key == GDK_KEY_KP_Enter) {
            toggleProperties()
            return true
        }
        guard !control, !alt else { return false }
        let zoomed = transform.map { !$0.isFitted } ?? false
        let step = 0.1
        switch key {
        case GDK_KEY_Left, GDK_KEY_KP_Left:
            if zoomed { changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: $0.viewport.width * step, y: 0)) } } else { page(by: -1) }
        case GDK_KEY_Right, GDK_KEY_KP_Right:
            if zoomed { changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: -$0.viewport.width * step, y: 0)) } } else { page(by: 1) }
        case GDK_KEY_Up, GDK_KEY_KP_Up:
            guard zoomed else { return false }
            changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: 0, y: $0.viewport.height * step)) }
        case GDK_KEY_Down, GDK_KEY_KP_Down:
            guard zoomed else { return false }
            changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: 0, y: -$0.viewport.height * step)) }
        case GDK_KEY_Page_Up, GDK_KEY_BackSpace: page(by: -1)
        case GDK_KEY_space where isEditing():
            if let current { onToggleSelected(current.id) }
            showSelectedState()
        case GDK_KEY_Page_Down, GDK_KEY_space: page(by: 1)
        case GDK_KEY_Home: show(0)
        case GDK_KEY_End: show(contents.photos.count - 1)
        case GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add: zoomIn()
        case GDK_KEY_minus, GDK_KEY_KP_Subtract: zoomOut()
        case GDK_KEY_0, GDK_KEY_KP_0: zoomToFit()
        case GDK_KEY_1, GDK_KEY_KP_1: zoomToActualSize()
        case GDK_KEY_r: rotate(by: 1)
        case GDK_KEY_R: rotate(by: -1)
        case GDK_KEY_F11: toggleFullscreen()
        case GDK_KEY_Escape:
            if isFullscreen { setFullscreen(false) } else { onClose() }
        default: return false
        }
        return true
    }

    private func installPointer() {
        let widget = canvas.widget
        // Single click: chrome; double click: fit ⇄ 100% at the point. The single click waits
        // for the double-click time so that a double click does not flash the chrome; the
        // double click itself acts at once.
        let clicks = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(clicks.cast(), 1)
        onPressed(clicks) { [weak self] presses, x, y in self?.clicked(presses, x, y) }
        gtk_widget_add_controller(widget, clicks.cast())

        let rightClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(rightClick.cast(), 3)
        onPressed(rightClick) { [weak self] _, x, y in self?.onContextMenu(x, y) }
        gtk_widget_add_controller(widget, rightClick.cast())

        // Mouse back and forward buttons.
        let sideButtons = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(sideButtons.cast(), 0)
        onPressed(sideButtons) { [weak self, sideButtons] _, _, _ in
            switch gtk_gesture_single_get_current_button(sideButtons.cast()) {
            case 8: self?.page(by: -1)
            case 9: self?.page(by: 1)
            default: break
            }
        }
        gtk_widget_add_controller(widget, sideButtons.cast())

        // A swipe's speed decides a page turn at the end of a drag; added before the drag so
        // that its signal comes first.
        let swipe = gtk_gesture_swipe_new()!
        onSignal(swipe, "swipe", doubles: { [weak self] vx, _ in self?.swipeVelocity = vx })
        gtk_widget_add_controller(widget, swipe.cast())

        let drag = gtk_gesture_drag_new()!
        onSignal(drag, "drag-begin", doubles: { [weak self] _, _ in
            self?.dragLast = (0, 0)
            self?.swipeVelocity = 0
        })
        onSignal(drag, "drag-update", doubles: { [weak self] x, y in self?.dragged(x, y) })
        onSignal(drag, "drag-end", doubles: { [weak self] x, _ in self?.dragEnded(x) })
        gtk_widget_add_controller(widget, drag.cast())

        let pinch = gtk_gesture_zoom_new()!
        onSequence(pinch, "begin") { [weak self] in self?.pinchStart = self?.transform }
        onSignal(pinch, "scale-changed", double: { [weak self, pinch] scale in
            guard let self, let start = self.pinchStart else { return }
            var x = 0.0, y = 0.0
            gtk_gesture_get_bounding_box_center(pinch.cast(), &x, &y)
            var view = start
            view.zoom(to: start.scale * scale, around: self.pointerPoint(x, y))
            self.changeTransform { $0 = view }
        })
        gtk_widget_add_controller(widget, pinch.cast())

        let twist = gtk_gesture_rotate_new()!
        onSignal(twist, "angle-changed", doubles: { [weak self] angle, _ in
            self?.gestureAngle = angle
            self?.render()
        })
        onSequence(twist, "end") { [weak self] in
            guard let self else { return }
            let turns = ZoomGeometry.snappedQuarterTurns(forAngle: self.gestureAngle)
            self.gestureAngle = 0
            self.rotate(by: turns)
        }
        gtk_widget_add_controller(widget, twist.cast())

        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
        onScroll(scroll) { [weak self, scroll] dx, dy in
            let state = gtk_event_controller_get_current_event_state(scroll.cast())
            return self?.scrolled(dx, dy, control: state.rawValue & GDK_CONTROL_MASK.rawValue != 0) ?? false
        }
        gtk_widget_add_controller(widget, scroll.cast())

        let motion = gtk_event_controller_motion_new()!
        onSignal(motion, "motion", doubles: { [weak self] x, y in self?.moved(x, y) })
        gtk_widget_add_controller(overlay, motion.cast())
    }

    private func clicked(_ presses: Int32, _ x: Double, _ y: Double) {
        if pendingSingleClick != 0 {
            g_source_remove(pendingSingleClick)
            pendingSingleClick = 0
        }
        if presses == 2 {
            changeTransform { $0.toggleFitAndActualSize(at: pointerPoint(x, y)) }
        } else if presses == 1 {
            pendingSingleClick = after(milliseconds: 300) { [weak self] in
                guard let self else { return }
                self.pendingSingleClick = 0
                self.setChrome(visible: !self.chromeVisible)
            }
        }
    }

    private func dragged(_ x: Double, _ y: Double) {
        guard let transform else { return }
        let delta = (x - dragLast.x, y - dragLast.y)
        dragLast = (x, y)
        if transform.isFitted {
            slide = x  // the photo follows the finger; its neighbour slides in beside it
            render()
        } else {
            changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: delta.0 * scaleFactor, y: delta.1 * scaleFactor)) }
        }
    }

    private func dragEnded(_ x: Double) {
        guard slide != 0 else { return }
        let far = abs(x) > canvas.width / 4
        let fast = abs(swipeVelocity) > 600 && (swipeVelocity < 0) == (x < 0)
        let direction = x < 0 ? 1 : -1
        slide = 0
        if far || fast { page(by: direction) } else { render() }
    }

    private func scrolled(_ dx: Double, _ dy: Double, control: Bool) -> Bool {
        if control {
            changeTransform { $0.zoom(by: pow(1.25, -dy), around: pointerPoint(pointer.x, pointer.y)) }
            return true
        }
        if let transform, !transform.isFitted {
            changeTransform(showLevel: false) { $0.pan(by: ViewPoint(x: -dx * 40 * scaleFactor, y: -dy * 40 * scaleFactor)) }
            return true
        }
        // Wheels and touchpads: one page per notch, or per notch's worth of smooth scrolling.
        scrollAccumulator.x += dx
        scrollAccumulator.y += dy
        let amount = abs(scrollAccumulator.x) > abs(scrollAccumulator.y) ? scrollAccumulator.x : scrollAccumulator.y
        if abs(amount) >= 1 {
            scrollAccumulator = (0, 0)
            page(by: amount > 0 ? 1 : -1)
        }
        return true
    }

    private func moved(_ x: Double, _ y: Double) {
        guard abs(x - pointer.x) + abs(y - pointer.y) > 1 else { return }
        pointer = (x, y)
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
            if !chromeVisible { setChrome(visible: true) }
            scheduleChromeHide()
        }
    }
}
