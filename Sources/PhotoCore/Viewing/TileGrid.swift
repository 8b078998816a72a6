/// One tile of a photo: a square of `TileGrid.tileSize` pixels of the photo reduced by
/// `2^reduction`, at `column`, `row` of that level's grid.
public struct TileKey: Sendable, Hashable, CustomStringConvertible {
    public let reduction: Int
    public let column: Int
    public let row: Int

    public init(reduction: Int, column: Int, row: Int) {
        self.reduction = reduction
        self.column = column
        self.row = row
    }

    public var description: String { "\(column),\(row)@1/\(1 << reduction)" }
}

/// The tiles to show for one view of a photo: the level, the tiles that cover what is
/// visible (the middle first) and every tile wanted (those, then a margin around them,
/// the side the view is moving to first).
public struct TilePlan: Sendable, Equatable {
    public let reduction: Int
    public let visible: [TileKey]
    public let wanted: [TileKey]
}

/// A photo cut into tiles at each of JPEG's scales (1, 1/2, 1/4, 1/8), for showing a photo
/// larger than the screen at any zoom while decoding only the part that shows: which
/// tiles cover a view, at which level, in which order to ask for them.
///
/// Everything is in the photo's upright pixels (`ViewTransform.imageSize`); a tile's pixels
/// are the level's: a tile of level k covers `tileSize·2^k` photo pixels each way.
public struct TileGrid: Sendable, Equatable {
    public let imageSize: PixelSize
    public let tileSize: Int

    public init(imageSize: PixelSize, tileSize: Int = 512) {
        self.imageSize = imageSize
        self.tileSize = max(16, tileSize)
    }

    /// The level a view at `scale` (device pixels per photo pixel) draws from: the largest
    /// reduction whose pixels are not fewer than the screen's (1/2 down to a scale of 0.5).
    public static func reduction(forScale scale: Double) -> Int {
        var k = 0
        while k < ImageRegion.maxReduction, 1 / Double(1 << (k + 1)) >= scale { k += 1 }
        return k
    }

    /// The level's size: the photo reduced by `2^reduction`.
    public func levelSize(_ reduction: Int) -> PixelSize { ImageRegion.reducedSize(imageSize, reduction: reduction) }

    /// Columns and rows of the level's grid.
    public func gridSize(_ reduction: Int) -> (columns: Int, rows: Int) {
        let level = levelSize(reduction)
        return ((level.width + tileSize - 1) / tileSize, (level.height + tileSize - 1) / tileSize)
    }

    /// The tile's pixels in its level (the last column and row are cut at the level's edge).
    public func region(of key: TileKey) -> ImageRegion {
        let level = levelSize(key.reduction)
        let x = key.column * tileSize, y = key.row * tileSize
        return ImageRegion(x: x, y: y, width: max(0, min(tileSize, level.width - x)), height: max(0, min(tileSize, level.height - y)),
                           reduction: key.reduction)
    }

    /// The photo pixels the tile covers (upright, before the viewer's rotation).
    public func imageRect(of key: TileKey) -> ViewRect {
        let region = region(of: key)
        let factor = Double(1 << key.reduction)
        return ViewRect(origin: ViewPoint(x: Double(region.x) * factor, y: Double(region.y) * factor),
                        size: ViewSize(width: Double(region.width) * factor, height: Double(region.height) * factor))
    }

    /// The photo pixels `view` shows (upright, clipped to the photo); nil when none.
    public static func visibleRect(of view: ViewTransform) -> ViewRect? {
        let corners = [ViewPoint(x: 0, y: 0), ViewPoint(x: view.viewport.width, y: 0),
                       ViewPoint(x: 0, y: view.viewport.height), ViewPoint(x: view.viewport.width, y: view.viewport.height)]
            .map { view.imagePoint(forViewportPoint: $0) }
        let minX = max(0, corners.map(\.x).min()!), maxX = min(Double(view.imageSize.width), corners.map(\.x).max()!)
        let minY = max(0, corners.map(\.y).min()!), maxY = min(Double(view.imageSize.height), corners.map(\.y).max()!)
        guard maxX > minX, maxY > minY else { return nil }
        return ViewRect(origin: ViewPoint(x: minX, y: minY), size: ViewSize(width: maxX - minX, height: maxY - minY))
    }

    /// The tiles for `view`: its level's tiles that cover what it shows, nearest the middle
    /// first, then `margin` tiles around them, and `margin` more on the side `motion` (how the
    /// photo point at the view's middle moved since the last view, in photo pixels) heads to,
    /// the nearest to where the view is going first.
    public func plan(for view: ViewTransform, margin: Int = 1, motion: ViewPoint = .zero) -> TilePlan {
        let reduction = Self.reduction(forScale: view.scale)
        guard let shown = Self.visibleRect(of: view), imageSize.width > 0, imageSize.height > 0 else {
            return TilePlan(reduction: reduction, visible: [], wanted: [])
        }
        let span = Double(tileSize << reduction)  // photo pixels a tile covers
        let grid = gridSize(reduction)
        func cells(_ from: Double, _ to: Double, count: Int) -> ClosedRange<Int> {
            let first = min(count - 1, max(0, Int((from / span).rounded(.down))))
            return first...max(first, min(count - 1, Int(((to - 1e-6) / span).rounded(.down))))
        }
        func columns(_ from: Double, _ to: Double) -> ClosedRange<Int> { cells(from, to, count: grid.columns) }
        func rows(_ from: Double, _ to: Double) -> ClosedRange<Int> { cells(from, to, count: grid.rows) }
        let visibleColumns = columns(shown.minX, shown.maxX), visibleRows = rows(shown.minY, shown.maxY)
        let middle = shown.center
        func distance(_ key: TileKey, from point: ViewPoint) -> Double {
            let rect = imageRect(of: key)
            let dx = rect.center.x - point.x, dy = rect.center.y - point.y
            return dx * dx + dy * dy
        }
        func ordered(_ keys: [TileKey], from point: ViewPoint) -> [TileKey] {
            keys.map { ($0, distance($0, from: point)) }
                .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : ($0.0.row, $0.0.column) < ($1.0.row, $1.0.column) }.map(\.0)
        }
        var visible: [TileKey] = []
        for row in visibleRows { for column in visibleColumns { visible.append(TileKey(reduction: reduction, column: column, row: row)) } }
        visible = ordered(visible, from: middle)

        // The margin: `margin` tiles all round, `margin` more ahead of the motion.
        let ahead = (x: motion.x > 1e-9 ? 1 : motion.x < -1e-9 ? -1 : 0, y: motion.y > 1e-9 ? 1 : motion.y < -1e-9 ? -1 : 0)
        let m = max(0, margin)
        let left = visibleColumns.lowerBound - m - (ahead.x < 0 ? m : 0), right = visibleColumns.upperBound + m + (ahead.x > 0 ? m : 0)
        let top = visibleRows.lowerBound - m - (ahead.y < 0 ? m : 0), bottom = visibleRows.upperBound + m + (ahead.y > 0 ? m : 0)
        var around: [TileKey] = []
        for row in max(0, top)...min(grid.rows - 1, bottom) {
            for column in max(0, left)...min(grid.columns - 1, right)
            where !(visibleRows.contains(row) && visibleColumns.contains(column)) {
                around.append(TileKey(reduction: reduction, column: column, row: row))
            }
        }
        // Where the view is going: the middle moved ahead by half the view.
        let going = ViewPoint(x: middle.x + Double(ahead.x) * shown.size.width / 2, y: middle.y + Double(ahead.y) * shown.size.height / 2)
        return TilePlan(reduction: reduction, visible: visible, wanted: visible + ordered(around, from: going))
    }
}
