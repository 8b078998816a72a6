import PhotoCore

/// The covers of album chips (the switcher's, the album list's): each bound chip asks the
/// open folder's thumbnails for its cover, holds the request until it is unbound, and shows
/// the thumbnail when it arrives.
@MainActor
final class AlbumCovers {
    /// Where covers come from (the open folder's thumbnails); nil shows none.
    var thumbnails: ThumbnailLoader? {
        didSet {
            guard thumbnails !== oldValue else { return }
            observeThumbnails()
            if let oldValue, thumbnails != nil { moveRequests(from: oldValue) }
        }
    }
    private var observations: [Observation] = []
    /// The chips bound, weakly, by identity.
    private var chips: [ObjectIdentifier: Weak<AlbumChip>] = [:]

    /// Binds `chip` to `album`, its cover shown if the thumbnail is at hand, else asked for.
    func show(_ album: AlbumSummary, on chip: AlbumChip) {
        release(chip)
        chips[ObjectIdentifier(chip)] = Weak(chip)
        chip.show(album, cover: cover(for: album))
    }

    /// The chip was unbound: its request goes.
    func release(_ chip: AlbumChip) {
        if let key = chip.coverKey { thumbnails?.release(key) }
        chips[ObjectIdentifier(chip)] = nil
    }

    private func cover(for album: AlbumSummary) -> Texture? {
        guard let thumbnails, let photo = album.cover else { return nil }
        if case .image(let texture, _)? = thumbnails.cached(photo.version) { return texture }
        thumbnails.request(photo.version, priority: ThumbnailPriority.prefetchBand - 1)
        return nil
    }

    private func observeThumbnails() {
        observations = []
        guard let thumbnails else { return }
        observations = [thumbnails.observeReady { [weak self] key, thumbnail in
            guard let self, case .image(let texture, _) = thumbnail else { return }
            for chip in self.chips.values.compactMap(\.object) where chip.coverKey == key { chip.showCover(texture) }
        }]
    }

    /// The covers asked of `old` are asked of the thumbnails now used (the tile size changed):
    /// the chips keep showing theirs until then.
    private func moveRequests(from old: ThumbnailLoader) {
        for chip in chips.values.compactMap(\.object) {
            guard let key = chip.coverKey else { continue }
            old.release(key)
            guard let thumbnails else { continue }
            if case .image(let texture, _)? = thumbnails.cached(key) { chip.showCover(texture) } else {
                thumbnails.request(key, priority: ThumbnailPriority.prefetchBand - 1)
            }
        }
    }
}
