import CGtk
import PhotoCore

/// The paged viewer: one photo fitted to the window, previous/next on the keyboard and on
/// screen. It shows the photo's thumbnail at once, then the image decoded at the size of
/// the window.
@MainActor
final class PhotoViewer {
    let root: Widget
    private let picture: OpaquePointer
    private let message: Widget
    private let counter: Widget
    private let previousButton: Widget
    private let nextButton: Widget
    private let contents: FolderContents
    private let thumbnails: ThumbnailLoader
    private let decoder: any ImageDecoding
    private var current: (index: Int, id: String)?
    private var pending: DecodePool.Ticket?
    private var texture: Texture?
    /// The shown photo's thumbnail, asked for while its full image decodes.
    private var thumbnailRequest: ThumbnailKey?
    private var showsFullImage = false

    /// The shown photo changed (its name goes in the window title).
    var onPhotoChanged: (Photo) -> Void = { _ in }
    /// The person asked to go back to the grid.
    var onClose: () -> Void = {}

    var index: Int? { current?.index }

    init(contents: FolderContents, thumbnails: ThumbnailLoader, decoder: any ImageDecoding) {
        self.contents = contents
        self.thumbnails = thumbnails
        self.decoder = decoder

        root = gtk_overlay_new()
        gtk_widget_add_css_class(root, "photo-viewer")
        gtk_widget_set_focusable(root, 1)
        gtk_widget_set_hexpand(root, 1)
        gtk_widget_set_vexpand(root, 1)

        picture = gtk_picture_new()!.cast()
        gtk_picture_set_can_shrink(picture, 1)
        gtk_picture_set_content_fit(picture, GTK_CONTENT_FIT_CONTAIN)
        gtk_overlay_set_child(root.cast(), picture.widget)

        message = gtk_label_new(nil)
        gtk_label_set_wrap(message.cast(), 1)
        gtk_label_set_justify(message.cast(), GTK_JUSTIFY_CENTER)
        gtk_widget_add_css_class(message, "viewer-message")
        gtk_widget_set_halign(message, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(message, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(message, 0)
        gtk_overlay_add_overlay(root.cast(), message)

        counter = gtk_label_new(nil)
        gtk_widget_add_css_class(counter, "osd")
        gtk_widget_add_css_class(counter, "viewer-counter")
        gtk_widget_set_halign(counter, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(counter, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(counter, 12)
        gtk_overlay_add_overlay(root.cast(), counter)

        previousButton = Self.pagingButton(icon: "go-previous-symbolic", tooltip: "Previous Photo", align: GTK_ALIGN_START)
        nextButton = Self.pagingButton(icon: "go-next-symbolic", tooltip: "Next Photo", align: GTK_ALIGN_END)
        gtk_overlay_add_overlay(root.cast(), previousButton)
        gtk_overlay_add_overlay(root.cast(), nextButton)
        onSignal(previousButton, "clicked") { [weak self] in self?.page(by: -1) }
        onSignal(nextButton, "clicked") { [weak self] in self?.page(by: 1) }

        // Capture phase: paging keys work wherever the focus is inside the viewer.
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] keyval, state in self?.keyPressed(keyval, state) ?? false }
        gtk_widget_add_controller(root, keys)

        contents.observeChanges { [weak self] _ in self?.folderChanged() }
        thumbnails.observeReady { [weak self] key, thumbnail in self?.thumbnailReady(key, thumbnail) }
    }

    private static func pagingButton(icon: String, tooltip: String, align: GtkAlign) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(button, tooltip)
        gtk_widget_add_css_class(button, "osd")
        gtk_widget_add_css_class(button, "circular")
        gtk_widget_set_halign(button, align)
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(button, 12)
        gtk_widget_set_margin_end(button, 12)
        gtk_widget_set_focusable(button, 0)
        return button
    }

    /// Shows the photo at `index`.
    func show(_ index: Int) {
        guard index >= 0, index < contents.photos.count else { return }
        let photo = contents.photos[index]
        if current?.id == photo.id { return }
        cancelDecode()
        current = (index, photo.id)
        Trace.milestone("page", index)

        gtk_widget_set_visible(message, 0)
        showsFullImage = false
        // Show the photo at once from its thumbnail, from memory or the thumbnail cache.
        let key = ThumbnailKey(photo)
        switch thumbnails.cached(key) {
        case .image(let thumbnail): setTexture(thumbnail)
        case .failed, nil:
            setTexture(nil)
            thumbnails.request(key, priority: Int.max - 1)
            thumbnailRequest = key
        }
        updateChrome()
        onPhotoChanged(photo)
        decodeFull(photo, index: index)
    }

    private func thumbnailReady(_ key: ThumbnailKey, _ thumbnail: Thumbnail) {
        guard key == thumbnailRequest else { return }
        thumbnailRequest = nil
        if case .image(let texture) = thumbnail, !showsFullImage { setTexture(texture) }
    }

    /// Gives keyboard focus to the viewer.
    func focus() { gtk_widget_grab_focus(root) }

    /// Leaves the viewer: drops the full image and any decode under way.
    func stop() {
        cancelDecode()
        setTexture(nil)
        current = nil
    }

    func page(by delta: Int) {
        guard let current else { return }
        show(min(max(current.index + delta, 0), contents.photos.count - 1))
    }

    private func keyPressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        let modifiers = state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
        guard modifiers == 0 else { return false }
        switch Int32(keyval) {
        case GDK_KEY_Left, GDK_KEY_KP_Left, GDK_KEY_Page_Up, GDK_KEY_BackSpace: page(by: -1)
        case GDK_KEY_Right, GDK_KEY_KP_Right, GDK_KEY_Page_Down, GDK_KEY_space: page(by: 1)
        case GDK_KEY_Home: show(0)
        case GDK_KEY_End: show(contents.photos.count - 1)
        case GDK_KEY_Escape: onClose()
        default: return false
        }
        return true
    }

    /// The folder changed under the viewer: follow the shown photo to its new index.
    private func folderChanged() {
        guard let current else { return }
        if let index = contents.photos.index(of: current.id) {
            self.current = (index, current.id)
            updateChrome()
        } else if contents.photos.count > 0 {
            self.current = nil
            show(min(current.index, contents.photos.count - 1))
        } else {
            onClose()
        }
    }

    private func updateChrome() {
        guard let current else { return }
        gtk_label_set_text(counter.cast(), "\(current.index + 1) / \(contents.photos.count)")
        gtk_widget_set_sensitive(previousButton, current.index > 0 ? 1 : 0)
        gtk_widget_set_sensitive(nextButton, current.index + 1 < contents.photos.count ? 1 : 0)
    }

    private func decodeFull(_ photo: Photo, index: Int) {
        let scale = Int(gtk_widget_get_scale_factor(root))
        let width = max(Int(gtk_widget_get_width(root)), 640) * scale
        let height = max(Int(gtk_widget_get_height(root)), 480) * scale
        let edge = max(width, height)
        let request = DecodeRequest(uri: photo.id, fitting: PixelSize(width: edge, height: edge))
        let decoder = self.decoder
        pending = DecodePool.shared.submit(priority: Int.max) { [weak self] flag in
            let result = decoder.decode(request, cancellation: flag)
            if case .failure(let failure) = result, failure.kind == .cancelled { return }
            onMain { self?.fullImageReady(photo.id, result) }
        }
    }

    private func fullImageReady(_ id: String, _ result: Result<DecodedImage, DecodeFailure>) {
        guard let current, current.id == id else { return }
        pending = nil
        switch result {
        case .success(let image):
            setTexture(image.makeTexture())
            showsFullImage = true
            gtk_widget_set_visible(message, 0)
            Trace.milestone("full-image", current.index)
        case .failure(let failure):
            setTexture(nil)
            showMessage(failure.reason)
        }
    }

    private func showMessage(_ text: String) {
        gtk_label_set_text(message.cast(), text)
        gtk_widget_set_visible(message, 1)
    }

    /// Shows `newTexture`, or nothing.
    private func setTexture(_ newTexture: Texture?) {
        gtk_picture_set_paintable(picture, newTexture?.pointer)
        texture = newTexture
    }

    /// Cancels the decode under way, if any.
    func cancelDecode() {
        if let pending { DecodePool.shared.cancel(pending) }
        pending = nil
        if let thumbnailRequest { thumbnails.release(thumbnailRequest) }
        thumbnailRequest = nil
    }
}
