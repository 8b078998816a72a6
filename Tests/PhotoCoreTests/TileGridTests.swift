@testable import PhotoCore
import Testing

@Suite struct TileGridTests {
    private let huge = PixelSize(width: 16000, height: 10000)
    private let viewport = ViewSize(width: 1920, height: 1080)

    @Test func theLevelIsTheLargestReductionNotBelowTheZoom() {
        #expect(TileGrid.reduction(forScale: 2) == 0)
        #expect(TileGrid.reduction(forScale: 1) == 0)
        #expect(TileGrid.reduction(forScale: 0.51) == 0)
        #expect(TileGrid.reduction(forScale: 0.5) == 1)
        #expect(TileGrid.reduction(forScale: 0.3) == 1)
        #expect(TileGrid.reduction(forScale: 0.25) == 2)
        #expect(TileGrid.reduction(forScale: 0.13) == 2)
        #expect(TileGrid.reduction(forScale: 0.12) == 3)
        #expect(TileGrid.reduction(forScale: 0.01) == 3)
    }

    @Test func levelsRoundUpAndTheLastTilesAreCut() {
        let grid = TileGrid(imageSize: PixelSize(width: 1001, height: 513), tileSize: 512)
        #expect(grid.levelSize(1) == PixelSize(width: 501, height: 257))
        #expect(grid.gridSize(0) == (2, 2))
        #expect(grid.region(of: TileKey(reduction: 0, column: 1, row: 1)) == ImageRegion(x: 512, y: 512, width: 489, height: 1, reduction: 0))
        #expect(grid.gridSize(1) == (1, 1))
        #expect(grid.imageRect(of: TileKey(reduction: 1, column: 0, row: 0)).size == ViewSize(width: 1002, height: 514))
    }

    @Test func atActualSizeTheVisibleTilesCoverTheViewCentreFirst() {
        var view = ViewTransform(imageSize: huge, viewport: viewport)
        view.zoom(to: 1, around: viewport.center)
        let grid = TileGrid(imageSize: huge)
        let plan = grid.plan(for: view)
        #expect(plan.reduction == 0)
        // The view shows x 7040..<8960, y 4460..<5540: columns 13...17, rows 8...10.
        let shown = TileGrid.visibleRect(of: view)!
        #expect(abs(shown.minX - 7040) < 1e-6 && abs(shown.minY - 4460) < 1e-6)
        #expect(Set(plan.visible) == Set((8...10).flatMap { row in (13...17).map { TileKey(reduction: 0, column: $0, row: row) } }))
        // The tile under the middle (8000, 5000) comes first.
        #expect(plan.visible.first == TileKey(reduction: 0, column: 15, row: 9))
        // Every visible tile, then a ring of one around them.
        #expect(Array(plan.wanted.prefix(plan.visible.count)) == plan.visible)
        #expect(plan.wanted.count == 7 * 5)
        #expect(Set(plan.wanted).count == plan.wanted.count)
        // Every visible photo pixel lies in a visible tile.
        for key in plan.visible { #expect(grid.region(of: key).pixels > 0) }
        let union = plan.visible.map { grid.imageRect(of: $0) }
        #expect(union.map(\.minX).min()! <= shown.minX && union.map(\.maxX).max()! >= shown.maxX)
        #expect(union.map(\.minY).min()! <= shown.minY && union.map(\.maxY).max()! >= shown.maxY)
    }

    @Test func theMarginReachesFurtherAheadOfTheMotionAndComesFirstThere() {
        var view = ViewTransform(imageSize: huge, viewport: viewport)
        view.zoom(to: 1, around: viewport.center)
        let grid = TileGrid(imageSize: huge)
        let still = grid.plan(for: view)
        // The view moves right over the photo: the photo point at the middle moves +x.
        let moving = grid.plan(for: view, motion: ViewPoint(x: 40, y: 0))
        #expect(moving.visible == still.visible)
        #expect(moving.wanted.count == still.wanted.count + 5)
        #expect(moving.wanted.contains(TileKey(reduction: 0, column: 19, row: 9)))
        #expect(!still.wanted.contains(TileKey(reduction: 0, column: 19, row: 9)))
        // The first tile asked for past the visible ones is ahead (right), not behind.
        let firstMargin = moving.wanted[moving.visible.count]
        #expect(firstMargin.column > 17)
        let left = grid.plan(for: view, motion: ViewPoint(x: -40, y: 0))
        #expect(left.wanted[left.visible.count].column < 13)
    }

    @Test func aZoomBetweenLevelsDrawsFromTheFinerLevelAndTheEdgesClamp() {
        var view = ViewTransform(imageSize: huge, viewport: viewport)
        view.zoom(to: 0.3, around: viewport.center)
        let plan = TileGrid(imageSize: huge).plan(for: view)
        #expect(plan.reduction == 1)
        // Panned to the top-left corner: no tile with a negative index.
        view.pan(by: ViewPoint(x: 1e6, y: 1e6))
        let corner = TileGrid(imageSize: huge).plan(for: view)
        #expect(corner.visible.contains(TileKey(reduction: 1, column: 0, row: 0)))
        #expect(corner.wanted.allSatisfy { $0.column >= 0 && $0.row >= 0 })
    }

    @Test func aTurnedViewCoversTheTurnedPart() {
        var view = ViewTransform(imageSize: huge, viewport: viewport, quarterTurns: 1)
        view.zoom(to: 1, around: viewport.center)
        let shown = TileGrid.visibleRect(of: view)!
        // A quarter turn: the view's width runs down the photo.
        #expect(abs(shown.size.width - 1080) < 1e-6 && abs(shown.size.height - 1920) < 1e-6)
    }

    @Test func storedRegionsMapEveryPixelThroughEachOrientation() {
        // Stored 7×4; for each orientation, the upright pixel (u, v) of a region is the stored
        // pixel the stored region's turned copy puts there.
        let stored = PixelSize(width: 7, height: 4)
        for value in 1...8 {
            let orientation = ExifOrientation(value)!
            let swaps = value >= 5
            let upright = swaps ? PixelSize(width: 4, height: 7) : stored
            // Where stored pixel (x, y) shows upright.
            func shown(_ x: Int, _ y: Int) -> (Int, Int) {
                let w = stored.width, h = stored.height
                switch value {
                case 2: return (w - 1 - x, y)
                case 3: return (w - 1 - x, h - 1 - y)
                case 4: return (x, h - 1 - y)
                case 5: return (y, x)
                case 6: return (h - 1 - y, x)
                case 7: return (h - 1 - y, w - 1 - x)
                case 8: return (y, w - 1 - x)
                default: return (x, y)
                }
            }
            let region = ImageRegion(x: 1, y: 2, width: 2, height: 1, reduction: 0)
            let back = region.stored(by: orientation, upright: upright)
            #expect(back.lies(in: stored), "orientation \(value): \(back)")
            var covered = Set<[Int]>()
            for y in back.y..<(back.y + back.height) {
                for x in back.x..<(back.x + back.width) {
                    let (u, v) = shown(x, y)
                    covered.insert([u, v])
                }
            }
            #expect(covered == [[1, 2], [2, 2]], "orientation \(value)")
        }
    }

    @Test func theCacheKeepsItsBytesLettingTheLeastRecentGo() {
        var cache = TileCache<Int, String>(capacity: 100)
        cache.insert("a", for: 1, bytes: 40)
        cache.insert("b", for: 2, bytes: 40)
        #expect(cache.value(for: 1) == "a")  // 1 is now the most recent
        let evicted = cache.insert("c", for: 3, bytes: 40)
        #expect(evicted == [2])
        #expect(cache.totalBytes == 80 && cache.count == 2)
        #expect(cache.peek(2) == nil && cache.peek(1) == "a")
        #expect(cache.insert("big", for: 4, bytes: 101).isEmpty && !cache.contains(4))
        cache.insert("a2", for: 1, bytes: 10)
        #expect(cache.totalBytes == 50)
        cache.removeAll()
        #expect(cache.totalBytes == 0 && cache.count == 0)
    }

    @Test func aRegionRequestCrossesTheWire() throws {
        let request = DecoderRequest(id: 3, operation: .region, maxPixels: 1 << 22,
                                     region: ImageRegion(x: 512, y: 1024, width: 512, height: 300, reduction: 2))
        #expect(try DecoderRequest(DecoderMessage(decoding: request.message.encoded())) == request)
        var negative = request.message
        negative.fields[DecoderRequest.Tag.regionX.rawValue] = .int(-1)
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderRequest(negative) }
        var deep = request.message
        deep.fields[DecoderRequest.Tag.reduction.rawValue] = .int(4)
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderRequest(deep) }
        var missing = request.message
        missing.fields[DecoderRequest.Tag.regionWidth.rawValue] = nil
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderRequest(missing) }
    }
}
