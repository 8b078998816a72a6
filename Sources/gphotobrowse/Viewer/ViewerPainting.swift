import CGtk
import PhotoCore

/// The viewer's painting: the shown photo (its decoded image, an animation's frame, else its
/// thumbnail) and a neighbour sliding in, laid out on the canvas through the view's
/// `ViewTransform`, with the tiles sharper than the fit-size image over it; then the chrome
/// (message, download, position, zoom, the select toggle) brought up to date.
extension PhotoViewer {
    var scaleFactor: Double { Double(gtk_widget_get_scale_factor(canvas.widget)) }
    /// Where the photo is fitted: the canvas above the toolbar while the toolbar shows out of
    /// fullscreen (its translucent bar hides no edge of a fitted photo), the whole canvas else.
    var viewportSize: ViewSize {
        ViewSize(width: canvas.width * scaleFactor, height: max(canvas.height - chrome.bottomInset, 1) * scaleFactor)
    }

    /// The canvas's size, or before the viewer was first laid out (entering it from the grid),
    /// the size of the page it is about to fill: what display-size images are decoded for.
    var expectedViewportSize: ViewSize {
        if canvas.width > 0, canvas.height > 0 { return viewportSize }
        guard let page = gtk_widget_get_parent(root) else { return viewportSize }
        return ViewSize(width: Double(gtk_widget_get_width(page)) * scaleFactor,
                        height: max(Double(gtk_widget_get_height(page)) - chrome.bottomInset, 1) * scaleFactor)
    }

    /// What to paint for a photo: its decoded image (the current frame of an animation),
    /// else its thumbnail.
    private func picture(for id: String) -> (surface: CanvasSurface, sourceSize: PixelSize, isFull: Bool)? {
        if let image = images.images[id] {
            if id == current?.id, !image.frames.isEmpty {
                let frame = image.frames[min(animation.frame, image.frames.count - 1)]
                return (frame.surface, image.sourceSize, true)
            }
            return (image.surface, image.sourceSize, true)
        }
        if let placeholder, placeholder.key.id == id { return (placeholder.surface, placeholder.surface.size, false) }
        return nil
    }

    /// Lays the shown photo (and a neighbour sliding in) out on the canvas and updates the chrome.
    func render() {
        guard let current else { return }
        let viewport = viewportSize
        var layers: [(surface: CanvasSurface, placement: CanvasPlacement)] = []
        if let picture = picture(for: current.id), viewport.width > 0 {
            if transform?.imageSize != picture.sourceSize {
                transform = ViewTransform(imageSize: picture.sourceSize, viewport: viewport, quarterTurns: rotations[current.id])
            } else if transform?.viewport != viewport {
                transform?.resize(to: viewport)
            }
            layers.append((picture.surface, placement(for: transform!, surface: picture.surface, offset: gestures.slide)))
            layers += sharperLayers(picture, index: current.index)
            if picture.isFull, tracedFullImage != current.id {
                tracedFullImage = current.id
                Trace.milestone("full-image", current.index)
            }
        }
        let slide = gestures.slide
        if slide != 0 {
            let neighbour = current.index + (slide < 0 ? 1 : -1)
            if neighbour >= 0, neighbour < contents.photos.count, let picture = picture(for: contents.photos[neighbour].id) {
                let fitted = ViewTransform(imageSize: picture.sourceSize, viewport: viewport, quarterTurns: rotations[contents.photos[neighbour].id])
                let gap = canvas.width + 24
                layers.insert((picture.surface, placement(for: fitted, surface: picture.surface, offset: slide + (slide < 0 ? gap : -gap))), at: 0)
            }
        }
        canvas.show(layers)
        video.layout(bottomInset: chrome.bottomInset, sliding: slide != 0)
        let endMissing = images.images[current.id]?.endMissing == true  // shown as far as it goes
        chrome.showMessage(endMissing ? FailureWords.endMissing : contents.photos.photo(id: current.id).flatMap(message(for:)), overPhoto: endMissing)
        download.show(images.downloads[current.id])
        download.offerRetry(images.retryable.contains(current.id))
        chrome.show(index: current.index, count: contents.photos.count, zoomPercent: Int(((transform?.scale ?? 1) * 100).rounded()))
        showSelectedState()
    }

    /// Why the photo cannot be shown, if it cannot.
    private func message(for photo: Photo) -> String? {
        if photo.isNotFound { return tr("“%s” was not found: it was moved or deleted outside this app.", OutsideText(photo.displayName)) }
        if photo.isVideo, video.shownID == photo.id, let failure = video.failure {
            // The decoder's reason (a codec's name and its package) says more than the player's.
            return images.failure(for: photo.id)?.reason ?? failure
        }
        return images.failure(for: photo.id)?.reason
    }

    /// Device-pixel geometry to widget coordinates for the canvas.
    private func placement(for transform: ViewTransform, surface: CanvasSurface, offset: Double) -> CanvasPlacement {
        let rect = transform.imageRect
        let sourceWidth = Double(transform.imageSize.width)
        return CanvasPlacement(
            centerX: rect.center.x / scaleFactor + offset,
            centerY: rect.center.y / scaleFactor,
            scale: transform.scale * sourceWidth / Double(surface.size.width) / scaleFactor,
            rotation: transform.rotationDegrees * .pi / 180 + gestures.angle)
    }

    /// The toolbar's select toggle shows whether the shown photo is selected.
    func showSelectedState() {
        let selected = current.map { isEditing() && isSelected($0.id) } ?? false
        g_simple_action_set_state(selectAction.pointer.cast(), g_variant_new_boolean(selected ? 1 : 0))
    }
}
