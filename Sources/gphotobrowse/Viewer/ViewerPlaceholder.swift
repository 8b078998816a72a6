import CGtk
import PhotoCore

/// The viewer's placeholder: the grid's thumbnail of the photo shown (or a remote photo's
/// embedded preview), painted until its image is decoded, from the loader the grid's tiles
/// use, which changes with the tile size.
extension PhotoViewer {
    /// Shows what `loader` makes as placeholders, while the observations returned are held.
    func observe(_ loader: ThumbnailLoader) -> [Observation] {
        [loader.observeReady { [weak self] key, thumbnail in self?.thumbnailReady(key, thumbnail) },
         loader.observePreview { [weak self] key, preview in self?.previewReady(key, preview) }]
    }

    /// Takes placeholders from `loader` from now on (the grid's tiles changed size); the one
    /// asked for, if any, is asked of it instead.
    func use(thumbnails loader: ThumbnailLoader) {
        guard loader !== thumbnails else { return }
        thumbnailObservations = []
        if let thumbnailRequest {
            thumbnails.release(thumbnailRequest)
            loader.request(thumbnailRequest, priority: Int.max - 1)
        }
        thumbnails = loader
        thumbnailObservations = observe(loader)
    }

    func showPlaceholder(for photo: Photo) {
        if let thumbnailRequest { thumbnails.release(thumbnailRequest) }
        thumbnailRequest = nil
        placeholder = nil
        let key = photo.version
        switch thumbnails.cached(key) {
        case .image(_, let pixels): placeholder = (key, CanvasSurface(PremultipliedImage(pixels)))
        case .failed, nil:
            guard !photo.isNotFound else { break }
            if case .image(_, let pixels)? = thumbnails.preview(key) { placeholder = (key, CanvasSurface(PremultipliedImage(pixels))) }
            thumbnails.request(key, priority: Int.max - 1)
            thumbnailRequest = key
        }
    }

    /// A photo on another machine: its embedded preview stands in until its thumbnail comes.
    private func previewReady(_ key: PhotoVersion, _ preview: Thumbnail) {
        guard key == thumbnailRequest, placeholder == nil, case .image(_, let pixels) = preview else { return }
        placeholder = (key, CanvasSurface(PremultipliedImage(pixels)))
        render()
    }

    private func thumbnailReady(_ key: PhotoVersion, _ thumbnail: Thumbnail) {
        guard key == thumbnailRequest else { return }
        thumbnailRequest = nil
        if case .image(_, let pixels) = thumbnail {
            placeholder = (key, CanvasSurface(PremultipliedImage(pixels)))
            motionChanged()
            render()
        }
    }
}
