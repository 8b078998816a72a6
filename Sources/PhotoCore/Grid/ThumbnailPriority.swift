/// Where a tile the grid has bound sits relative to the part of the grid in view.
public struct TilePlacement: Sendable, Equatable {
    /// Whether any of the tile is in view.
    public let visible: Bool
    /// How far the tile's centre is from the view's centre, vertical distance counting four
    /// times: rows matter more than columns, since the view scrolls vertically.
    public let distance: Int

    public init(visible: Bool, distance: Int) {
        self.visible = visible
        self.distance = distance
    }

    /// The placement of a tile with the frame (`x`, `y`, `width`, `height`), in the coordinates
    /// of a view of `viewWidth` × `viewHeight` whose origin is its top left corner.
    public init(x: Double, y: Double, width: Double, height: Double, viewWidth: Double, viewHeight: Double) {
        visible = y < viewHeight && y + height > 0 && x < viewWidth && x + width > 0
        let dy = y + height / 2 - viewHeight / 2
        let dx = x + width / 2 - viewWidth / 2
        distance = Int(abs(dy) * 4 + abs(dx))
    }
}

/// The order in which the grid asks for thumbnails, as priorities on the decode pool
/// (highest first): tiles in view, then tiles the grid keeps bound out of view, then the
/// next screenful ahead of the scroll. Within a band, nearer the middle of the view first.
public enum ThumbnailPriority {
    public static let visibleBand = 3_000_000
    public static let boundBand = 2_000_000
    public static let prefetchBand = 1_000_000
    /// Added to a photo's priority for its embedded preview, read from the start of a file on
    /// another machine: every preview asked for comes before any whole file is read.
    public static let previewBoost = 3_000_000
    /// Within a band, distances count up to this; further is as far.
    static let bandWidth = 999_999

    /// The priority of a bound tile's thumbnail, or nil when it should not be asked for yet:
    /// GTK keeps about 30 rows of tiles bound, and those further than two screens (in
    /// `distance`'s units) wait until a scroll brings them near. While the album is still
    /// being listed (`albumListed` false) only tiles in view are asked for: photos listed
    /// later may sort before those near the view (a folder's files are listed in no order),
    /// and the processor goes to the listing.
    public static func forTile(_ placement: TilePlacement, viewHeight: Int, albumListed: Bool = true) -> Int? {
        if !placement.visible && (!albumListed || placement.distance > viewHeight * 4) { return nil }
        let band = placement.visible ? visibleBand : boundBand
        return band - min(placement.distance, bandWidth)
    }

    /// The priority of a prefetched thumbnail `distance` photos ahead of those in view.
    public static func forPrefetch(distance: Int) -> Int {
        prefetchBand - min(max(distance, 0), bandWidth)
    }
}
