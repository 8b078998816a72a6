import CCairo
import Glibc
import PhotoCore

/// The board as the screen shows it, kept between frames so that drawing costs what changed:
/// adding a stroke draws that stroke, undoing it draws a few items at most, never all 500.
///
/// It renders the board (through `BoardRenderer`, as saving does) onto a raster of the view
/// (`BoardRaster.forView`: the visible part and a margin, at the view's scale) and keeps
/// layers of that raster:
/// - the base: the background and the photo alone, rendered once per raster (the only time
///   a 24 MP photo is read);
/// - checkpoints: the base and the items at places below some place, one every `spacing`
///   places (32 at first);
/// - the picture: everything, which `paint` puts on screen pixel for pixel.
///
/// `update` catches up with the board's changes (`Board.changes(since:)`):
/// - an item added on top is drawn over the picture: one item, O(its pixels);
/// - anything else (an undo, a removal, a move, a recolour, Clear) repaints only the region
///   it touched: the region is copied from the highest layer below the lowest place changed,
///   and the items above it that meet the region are drawn again, clipped to it, up through
///   each later checkpoint (which is repaired on the way) to the picture. Undoing the last of
///   500 strokes draws the strokes since the checkpoint below it (fewer than `spacing`) that
///   meet its bounds; a change to an early item draws the items above it that meet its
///   bounds. Every layer is only ever copied within the region, never re-rendered whole;
/// - a new raster (zoom, a pan past the margin, a crop, new pixels) renders everything once,
///   making the checkpoints as it goes.
///
/// Memory: the layers are raster-sized (4 bytes a device pixel: 33 MB for a 2560×1600 view
/// with a 25% margin). Checkpoints are kept within `memoryLimit`: when one more would not fit,
/// every other one goes and the spacing doubles, so undo stays bounded by the spacing.
///
/// One thread (the main thread): not Sendable.
///
/// ```swift
/// let rendered = RenderedBoard(images: images)
/// // In the draw function, the view in device pixels:
/// rendered.update(board, for: view)
/// rendered.paint(on: cr, view: view, scaleFactor: scaleFactor)
/// ```
public final class RenderedBoard {
    /// What an `update` did, in items drawn: for tests and benchmarks.
    public struct Work: Sendable, Equatable {
        /// Whether everything was rendered (a new raster).
        public var renderedAll = false
        /// How many items were drawn, on every layer together.
        public var itemsDrawn = 0
    }

    public private(set) var images: BoardImages
    /// The most bytes the checkpoints take.
    public let memoryLimit: Int
    /// The raster the layers are rendered on.
    public private(set) var raster: BoardRaster?
    /// How many places apart checkpoints are.
    public private(set) var spacing = 32

    private var base: PremultipliedImage?
    private var checkpoints: [(place: Int, image: PremultipliedImage)] = []
    private var layerPicture: PremultipliedImage?
    private var revision = -1

    public init(images: BoardImages, memoryLimit: Int = 192 << 20) {
        self.images = images
        self.memoryLimit = memoryLimit
    }

    /// Everything drawn, as the screen shows it (before `paint` places it).
    public var picture: PremultipliedImage? { layerPicture }

    /// New pixels (a photo inserted, a sharper decode): the next update renders everything.
    public func setImages(_ images: BoardImages) {
        self.images = images
        raster = nil
    }

    /// Brings the picture up to `board` for `view`: a new raster when the current one does
    /// not cover the view at its scale (`margin` as `BoardRaster.forView`), else the changes.
    @discardableResult
    public func update(_ board: Board, for view: BoardView, margin: Double = 0.25) -> Work {
        let target = raster.flatMap { $0.covers(view) ? $0 : nil } ?? .forView(view, margin: margin)
        return update(board, raster: target)
    }

    /// Brings the picture up to `board` on `raster`.
    @discardableResult
    public func update(_ board: Board, raster: BoardRaster) -> Work {
        guard raster == self.raster, let base, let picture = layerPicture,
              let change = board.changes(since: revision), !change.isResized else {
            return renderAll(board, raster: raster)
        }
        var work = Work()
        var repaint = change.repaint
        if let lowest = change.drawnOver.map(\.place).min(), lowest < checkpoints.last?.place ?? 0 {
            // Items back under a checkpoint (an undone Clear, a redo far down): drawn once
            // each on the layers above them, as a repaint does.
            let region = change.drawnOver.dropFirst().reduce(change.drawnOver[0].bounds) { $0.union($1.bounds) }
            repaint = (region, lowest)
        } else {
            for drawn in change.drawnOver {
                work.itemsDrawn += draw(board, on: picture, region: drawn.bounds, places: drawn.place..<(drawn.place + 1))
            }
        }
        if let (region, lowest) = repaint, let pixels = raster.pixels(covering: region) {
            var below = (place: 0, image: base)
            for checkpoint in checkpoints where checkpoint.place <= lowest { below = checkpoint }
            for layer in checkpoints.filter({ $0.place > lowest }) + [(place: board.placeCount, image: picture)] {
                copy(pixels, from: below.image, to: layer.image)
                work.itemsDrawn += draw(board, on: layer.image, region: region, places: below.place..<layer.place)
                below = layer
            }
        }
        revision = board.revision
        if board.placeCount - (checkpoints.last?.place ?? 0) >= spacing { addCheckpoint(at: board.placeCount) }
        return work
    }

    /// Paints the picture on `cr`, a widget's cairo context (logical pixels, `scaleFactor`
    /// device pixels each) showing `view`: pixel for pixel when the view's scale is the
    /// raster's, else scaled (while a zoom settles, before the next `update`).
    public func paint(on cr: OpaquePointer, view: BoardView, scaleFactor: Double) {
        guard let raster, let picture = layerPicture else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_scale(cr, 1 / scaleFactor, 1 / scaleFactor)
        let corner = view.devicePoint(forBoardPoint: raster.origin)
        let sameScale = abs(view.scale - raster.scale) <= raster.scale * 1e-9
        if sameScale {
            cairo_translate(cr, corner.x.rounded(), corner.y.rounded())
        } else {
            cairo_translate(cr, corner.x, corner.y)
            cairo_scale(cr, view.scale / raster.scale, view.scale / raster.scale)
        }
        picture.withSurface { surface in
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), sameScale ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
            cairo_rectangle(cr, 0, 0, Double(raster.size.width), Double(raster.size.height))
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)  // let go of the surface before it goes
        }
    }

    // MARK: - Rendering

    /// Renders the base, then the items, making checkpoints along the way.
    private func renderAll(_ board: Board, raster: BoardRaster) -> Work {
        self.raster = raster
        checkpoints = []
        spacing = 32
        let images = images
        let base = PremultipliedImage.drawn(size: raster.size, isOpaque: true) { cr in
            BoardRenderer.render(board, images: images, on: cr, raster: raster, region: nil, places: 0..<0, base: true)
        }
        self.base = base
        let picture = base.copied()
        layerPicture = picture
        var work = Work(renderedAll: true)
        var start = 0
        while start < board.placeCount {
            let end = min(board.placeCount, start + spacing)
            work.itemsDrawn += draw(board, on: picture, region: nil, places: start..<end)
            if end - (checkpoints.last?.place ?? 0) >= spacing, end < board.placeCount { addCheckpoint(at: end) }
            start = end
        }
        revision = board.revision
        return work
    }

    /// Draws the items at `places` meeting `region` (nil: all) on `layer`; returns how many.
    private func draw(_ board: Board, on layer: PremultipliedImage, region: ViewRect?, places: Range<Int>) -> Int {
        guard let raster else { return 0 }
        var count = 0
        var limit = raster.boardRect.intersection(board.crop)
        if let region { limit = limit.flatMap { $0.intersection(region) } }
        guard let limit else { return 0 }
        for place in places {
            if let item = board.item(atPlace: place), item.bounds.intersects(limit) { count += 1 }
        }
        guard count > 0 else { return 0 }
        let images = images
        layer.withContext { cr in
            BoardRenderer.render(board, images: images, on: cr, raster: raster, region: region, places: places, base: false)
        }
        return count
    }

    /// Keeps the picture as a checkpoint for `place`, thinning the checkpoints when they
    /// would take more than `memoryLimit`.
    private func addCheckpoint(at place: Int) {
        guard let picture = layerPicture else { return }
        let bytes = picture.stride * picture.size.height
        guard bytes > 0, bytes <= memoryLimit else { return }
        if (checkpoints.count + 1) * bytes > memoryLimit {
            checkpoints = checkpoints.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            spacing *= 2
        }
        checkpoints.append((place, picture.copied()))
    }

    /// Copies the pixel rectangle `pixels` of `source` into `target` (same size).
    private func copy(_ pixels: (x: Int, y: Int, width: Int, height: Int), from source: PremultipliedImage, to target: PremultipliedImage) {
        let rowBytes = pixels.width * 4
        for y in pixels.y..<(pixels.y + pixels.height) {
            let offset = y * source.stride + pixels.x * 4
            memcpy(target.pixels.bytes + offset, source.pixels.bytes + offset, rowBytes)
        }
    }
}

extension PremultipliedImage {
    /// A copy of the pixels, to draw on apart from these.
    func copied() -> PremultipliedImage {
        let count = stride * size.height
        let source = pixels.bytes
        let copy = PixelBuffer(count: count) { $0.copyMemory(from: source, byteCount: count) }
        return PremultipliedImage(size: size, stride: stride, isOpaque: isOpaque, pixels: copy)
    }
}

extension BoardRaster {
    /// The viewport of `view` itself: pixel (0, 0) is its top-left device pixel. For drawing
    /// what is not in the picture (the item being drawn, the floating photo) straight on the
    /// widget, after scaling its cairo context by 1 / scale factor.
    public static func viewport(of view: BoardView) -> BoardRaster {
        let size = view.transform.viewport
        return BoardRaster(scale: view.scale, origin: view.boardPoint(forDevicePoint: .zero),
                           size: PixelSize(width: max(1, Int(size.width.rounded(.up))), height: max(1, Int(size.height.rounded(.up)))))
    }
}
