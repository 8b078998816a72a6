import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The shown photo's tiles: a JPEG, or a large PNG or TIFF, zoomed past its fit-size image is drawn from 512-pixel
/// tiles decoded for what shows plus a margin (the core's `TileGrid`), at the zoom's scale,
/// in the decoder processes (`IsolatedDecoder.decodeRegion`, a row's missing tiles in one
/// request), over the fit-size image
/// scaled, so nothing is ever blank while tiles come. Tiles are kept within `capacity`
/// bytes (`TileCache`), asked for as zoom and pan change (those no longer wanted
/// cancelled) and dropped when the page turns. A photo whose tiles cannot be decoded (a
/// CMYK JPEG, an interlaced PNG) is decoded whole at full resolution instead, as any other
/// format is.
///
/// Traces `tiles-sharp COUNT` once every tile the view shows, at its level, has been drawn.
@MainActor
final class ViewerTiles {
    private let live = LiveObjects.Token("ViewerTiles")
    private let decoder: IsolatedDecoder
    /// The bytes tiles may take: what a 1920×1080 view shows at 100% (at most 20 tiles of
    /// 1 MiB) and part of the margin, the side the view moves to first. Only as many tiles
    /// as fit are asked for, so the visible ones never push each other out.
    static let capacity = 28 << 20
    private var photo: PhotoVersion?
    private var grid: TileGrid?
    private var cache = TileCache<TileKey, CanvasSurface>(capacity: ViewerTiles.capacity)
    private var inFlight: [TileKey: QueuedWork] = [:]
    /// Photos whose tiles could not be decoded: they are decoded whole instead.
    private var refused: Set<PhotoVersion> = []
    /// The photo point at the view's middle last time, and the way the view last moved.
    private var lastMiddle: (point: ViewPoint, scale: Double)?
    private var motion = ViewPoint.zero
    /// The visible tiles last traced sharp, and those waiting for their frame to be drawn.
    private var tracedSharp: [TileKey] = []
    private var sharpPending: [TileKey]?

    /// A tile arrived (or failed): the view repaints.
    var onChange: () -> Void = {}

    /// The window's jobs, which the tiles' decodes belong to.
    private let jobs: WindowJobs

    init(decoder: IsolatedDecoder, jobs: WindowJobs) {
        self.decoder = decoder
        self.jobs = jobs
    }

    /// The formats decoded a region at a time (`RegionDecoders`) besides JPEG, and the size
    /// from which they are: a PNG's region is inflated from the photo's first row, so one of
    /// at most 16 MP (64 MB whole) is cheaper decoded whole once.
    static let rowFormats: Set<String> = ["png", "tiff"]
    static let rowFormatsFrom = 16_000_000

    /// Whether `photo`, decoded at `fitImage` as `format`, is drawn from tiles in `view`: a
    /// JPEG, or a PNG or TIFF of more than `rowFormatsFrom` pixels, whose pixels on screen
    /// exceed the fit-size image.
    func applies(to photo: Photo, format: String, view: ViewTransform, fitImage: PixelSize) -> Bool {
        (format == "jpeg" || (Self.rowFormats.contains(format) && view.imageSize.pixels > Self.rowFormatsFrom))
            && !refused.contains(photo.version) && view.needsSharperImage(decoded: fitImage)
    }

    /// The tiles to draw over the fit-size image for `view`, back to front (coarser levels
    /// first, as far as they are here), each with the photo pixels it covers; asks for the
    /// tiles missing and cancels those no longer wanted.
    func layers(for photo: Photo, format: String, view: ViewTransform) -> [(surface: CanvasSurface, covers: ViewRect)] {
        if self.photo != photo.version { drop() }
        self.photo = photo.version
        if grid?.imageSize != view.imageSize { grid = TileGrid(imageSize: view.imageSize) }
        guard let grid else { return [] }
        let plan = grid.plan(for: view, motion: followMotion(view))
        request(plan, of: photo, grid: grid, rowsPerRequest: format == "jpeg" ? 1 : Self.rowsPerRequest)

        var layers: [(surface: CanvasSurface, covers: ViewRect)] = []
        // Coarser tiles already here show under the level's own until those come.
        if let shown = TileGrid.visibleRect(of: view) {
            let coarser = cache.keys.filter { $0.reduction > plan.reduction }.sorted { $0.reduction > $1.reduction }
            for key in coarser {
                let covers = grid.imageRect(of: key)
                guard covers.maxX > shown.minX, covers.minX < shown.maxX, covers.maxY > shown.minY, covers.minY < shown.maxY,
                      let surface = cache.value(for: key) else { continue }
                layers.append((surface, covers))
            }
        }
        var missing = false
        for key in plan.wanted.reversed() where !plan.visible.contains(key) { _ = cache.value(for: key) }  // kept, not drawn
        for key in plan.visible.reversed() {
            if let surface = cache.value(for: key) { layers.append((surface, grid.imageRect(of: key))) } else { missing = true }
        }
        if !missing, !plan.visible.isEmpty, plan.visible != tracedSharp { sharpPending = plan.visible }
        return layers
    }

    /// The canvas drew a frame: the tiles it showed are on screen.
    func drawn() {
        guard let sharp = sharpPending else { return }
        sharpPending = nil
        tracedSharp = sharp
        Trace.milestone("tiles-sharp", sharp.count)
    }

    /// The view no longer draws from tiles (zoomed back to the fit): decodes stop, the
    /// tiles decoded stay for a zoom back in.
    func pause() {
        for work in inFlight.values { work.cancel() }
        inFlight.removeAll()
        lastMiddle = nil
        sharpPending = nil
        tracedSharp = []
    }

    /// Lets go of every tile and decode (the page turned, the viewer closed).
    func drop() {
        pause()
        cache.removeAll()
        photo = nil
        grid = nil
        motion = .zero
    }

    /// How the view moved over the photo since the last frame, in photo pixels; the last
    /// motion while it stands still, none after a zoom.
    private func followMotion(_ view: ViewTransform) -> ViewPoint {
        let middle = view.imagePoint(forViewportPoint: view.viewport.center)
        if let last = lastMiddle, last.scale == view.scale {
            let moved = middle - last.point
            if abs(moved.x) > 0.5 || abs(moved.y) > 0.5 { motion = moved }
        } else {
            motion = .zero
        }
        lastMiddle = (middle, view.scale)
        return motion
    }

    /// The most tiles of a row decoded in one request: the rows above them are skipped once
    /// for all of them (a JPEG is read from its start to reach a row).
    static let tilesPerRequest = 8
    /// The most rows of tiles a PNG's or TIFF's request covers, within
    /// `IsolatedDecoder.maxRegionPixels`: a PNG is inflated from its start to reach a row,
    /// far slower than a JPEG's rows are skipped, so a view's tiles are one or two requests.
    static let rowsPerRequest = 4

    private func request(_ plan: TilePlan, of photo: Photo, grid: TileGrid, rowsPerRequest: Int) {
        let affordable = Array(plan.wanted.prefix(max(plan.visible.count, ViewerTiles.capacity / (grid.tileSize * grid.tileSize * 4))))
        let wanted = Set(affordable)
        // A request no longer wanted for one of its tiles goes; its other tiles are asked again.
        let unwanted = Set(inFlight.filter { !wanted.contains($0.key) }.map(\.value.ticket))
        for (key, work) in inFlight where unwanted.contains(work.ticket) {
            work.cancel()
            inFlight[key] = nil
        }
        let decoder = self.decoder
        let uri = photo.id, version = photo.version
        let missing = Set(affordable.filter { !cache.contains($0) && inFlight[$0] == nil })
        var asked = Set<TileKey>()
        for (n, key) in affordable.enumerated() where missing.contains(key) && !asked.contains(key) {
            // The run of missing tiles of its row around it, in one request (and for a PNG or a
            // TIFF, of the rows below it).
            func free(_ column: Int, _ row: Int) -> Bool {
                let next = TileKey(reduction: key.reduction, column: column, row: row)
                return missing.contains(next) && !asked.contains(next)
            }
            var first = key.column, last = key.column
            while last - first + 1 < Self.tilesPerRequest, free(last + 1, key.row) { last += 1 }
            while last - first + 1 < Self.tilesPerRequest, free(first - 1, key.row) { first -= 1 }
            // The rows below whose same tiles are all missing too, within a request's pixels.
            var bottom = key.row
            while bottom - key.row + 1 < rowsPerRequest,
                  (bottom - key.row + 2) * (last - first + 1) * grid.tileSize * grid.tileSize <= IsolatedDecoder.maxRegionPixels,
                  (first...last).allSatisfy({ free($0, bottom + 1) }) { bottom += 1 }
            let keys = (key.row...bottom).flatMap { row in (first...last).map { TileKey(reduction: key.reduction, column: $0, row: row) } }
            asked.formUnion(keys)
            let regions = keys.map { grid.region(of: $0) }
            let run = ImageRegion(x: regions[0].x, y: regions[0].y, width: regions.last!.x + regions.last!.width - regions[0].x,
                                  height: regions.last!.y + regions.last!.height - regions[0].y, reduction: key.reduction)
            // Behind the shown photo's own image, ahead of its neighbours'.
            let owner = MainThreadOwner(self)
            let work = jobs.submit(to: .shared, priority: 100_000 - n) { flag in
                let decoded = decoder.decodeRegion(uri: uri, region: run, cancellation: flag)
                if case .failure(let failure) = decoded, failure.kind == .cancelled { return }
                let tiles = decoded.map { image in
                    zip(keys, regions).map { key, region in (key, PremultipliedImage(Self.part(of: image, region, in: run))) }
                }
                owner.onMain { viewerTiles in viewerTiles.arrived(keys, of: version, tiles) }
            }
            for key in keys { inFlight[key] = work }
        }
    }

    /// The pixels of `region` in `image`, a decode of `run` (which holds it), without a copy.
    nonisolated private static func part(of image: DecodedImage, _ region: ImageRegion, in run: ImageRegion) -> DecodedImage {
        let channels = image.hasAlpha ? 4 : 3
        let offset = (region.y - run.y) * image.stride + (region.x - run.x) * channels
        let whole = image.pixels
        let pixels = PixelBuffer(adopting: whole.bytes + offset, count: image.stride * (region.height - 1) + region.width * channels) { _, _ in
            withExtendedLifetime(whole) {}
        }
        return DecodedImage(size: region.size, stride: image.stride, hasAlpha: image.hasAlpha, pixels: pixels,
                            sourceSize: image.sourceSize, format: image.format)
    }

    private func arrived(_ keys: [TileKey], of version: PhotoVersion, _ result: Result<[(TileKey, PremultipliedImage)], DecodeFailure>) {
        guard photo == version else { return }
        switch result {
        case .success(let tiles):
            for (key, image) in tiles where inFlight.removeValue(forKey: key) != nil {
                cache.insert(CanvasSurface(image), for: key, bytes: image.stride * image.size.height)
            }
        case .failure(let failure):
            guard keys.contains(where: { inFlight[$0] != nil }) else { return }
            if failure.isLasting {
                // The file's own fault (a CMYK JPEG, a damaged one): decoded whole instead.
                refused.insert(version)
                pause()
            } else {
                // Timed out on a busy machine, or no decoder process for now: asked again in a
                // second, or at the next change of the view.
                for key in keys { inFlight[key] = nil }
                after(milliseconds: 1000) { [weak self] in
                    guard let self, self.photo == version else { return }
                    self.onChange()
                }
                return
            }
        }
        onChange()
    }
}

extension PhotoViewer {
    /// What is drawn over the shown picture when the zoom needs more pixels than it has: a
    /// large JPEG's, PNG's or TIFF's tiles; any other photo has its full-resolution image
    /// decoded instead.
    func sharperLayers(_ picture: (surface: CanvasSurface, sourceSize: PixelSize, isFull: Bool),
                       index: Int) -> [(surface: CanvasSurface, placement: CanvasPlacement)] {
        let photo = contents.photos[index]
        let image = images.images[photo.id]
        let animated = image?.frames.isEmpty == false  // frames stay at display size
        guard picture.isFull, !animated, let transform, transform.needsSharperImage(decoded: picture.surface.size) else {
            tiles.pause()
            return []
        }
        if let image, tiles.applies(to: photo, format: image.format, view: transform, fitImage: picture.surface.size) {
            return tiles.layers(for: photo, format: image.format, view: transform).map {
                ($0.surface, tilePlacement(covers: $0.covers, surface: $0.surface, view: transform, offset: gestures.slide))
            }
        }
        images.sharpen(photo, to: transform.decodeSize(for: transform.scale))
        return []
    }

    /// Where a tile covering `covers` (photo pixels) of a level reduced by `reduction` is
    /// painted in `view`, with the shown photo's slide `offset`.
    func tilePlacement(covers: ViewRect, surface: CanvasSurface, view: ViewTransform, offset: Double) -> CanvasPlacement {
        let scale = view.scale * covers.size.width / Double(surface.size.width)
        var centre = view.viewportPoint(forImagePoint: covers.center)
        if abs(scale - 1) < 1e-9 {
            // A tile pixel a device pixel: its corner on a device pixel, so nothing blurs.
            let a = view.viewportPoint(forImagePoint: covers.origin)
            let b = view.viewportPoint(forImagePoint: ViewPoint(x: covers.maxX, y: covers.maxY))
            let corner = ViewPoint(x: min(a.x, b.x), y: min(a.y, b.y))
            centre = centre + ViewPoint(x: corner.x.rounded() - corner.x, y: corner.y.rounded() - corner.y)
        }
        return CanvasPlacement(centerX: centre.x / scaleFactor + offset, centerY: centre.y / scaleFactor,
                               scale: scale / scaleFactor, rotation: view.rotationDegrees * .pi / 180 + gestures.angle,
                               hardEdges: true)
    }
}
