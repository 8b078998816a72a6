import CCairo
import PhotoCore

/// Draws a board with cairo: the one way a board becomes pixels, for the screen (at the
/// view's scale, through `RenderedBoard`) and for saving (at full resolution, through
/// `BoardSaving`), so what is saved is what was seen.
///
/// `render` draws onto any cairo context: its user space (as the caller set it) is taken as
/// the raster's pixels, so pixel (0, 0) of the raster is at the user-space origin; the
/// context's clip limits the work, and only items whose bounds meet the clip are drawn at all.
///
/// What is drawn, in order, within the board's crop: the background, the photo, then every
/// item in drawing order. Strokes and shapes are antialiased paths; texts are Pango layouts
/// (`BoardText`); a pixelation paints the photo's blocks (`BoardPhoto.pixelBlocks`) along its
/// brush; an inserted photo is drawn from the halving of its pixels nearest its scale, turned
/// and scaled with bilinear filtering. Nothing here decodes a file: the pixels come in
/// `BoardImages`.
///
/// ```swift
/// // The whole board at full resolution, into an image surface of the board's size:
/// BoardRenderer.render(board, images: images, on: cr, raster: .whole(board))
/// // The stroke being drawn, over the picture of the board already on screen:
/// BoardRenderer.draw(.stroke(stroke), board: board, images: images, on: cr, raster: raster)
/// ```
public enum BoardRenderer {
    /// Draws `board` on `cr`, the raster's pixels being `cr`'s user space.
    public static func render(_ board: Board, images: BoardImages, on cr: OpaquePointer, raster: BoardRaster) {
        render(board, images: images, on: cr, raster: raster, region: nil, places: 0..<board.placeCount, base: true)
    }

    /// Draws the board's base (background and photo) and the items at `places` whose bounds
    /// meet `region` (board pixels; nil: everything), clipped to the region.
    static func render(_ board: Board, images: BoardImages, on cr: OpaquePointer, raster: BoardRaster,
                       region: ViewRect?, places: Range<Int>, base: Bool) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if let region {
            guard let pixels = raster.pixels(covering: region) else { return }
            cairo_rectangle(cr, Double(pixels.x), Double(pixels.y), Double(pixels.width), Double(pixels.height))
            cairo_clip(cr)
        }
        enterBoardSpace(cr, raster: raster, board: board)
        guard let visible = clipExtents(cr) else { return }
        if base { drawBase(board, images: images, on: cr, raster: raster) }
        for place in places {
            guard let item = board.item(atPlace: place) else { continue }
            let bounds = item.bounds
            guard bounds.intersects(visible) else { continue }
            ItemDrawing.draw(item.content, bounds: bounds, board: board, images: images, on: cr, scale: raster.scale)
        }
    }

    /// Draws one item that is not on the board yet (the stroke or shape being drawn) over
    /// what `cr` holds, as `render` would draw it.
    public static func draw(_ content: BoardItem.Content, board: Board, images: BoardImages,
                            on cr: OpaquePointer, raster: BoardRaster) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        enterBoardSpace(cr, raster: raster, board: board)
        guard let visible = clipExtents(cr) else { return }
        let bounds = content.bounds
        guard bounds.intersects(visible) else { return }
        ItemDrawing.draw(content, bounds: bounds, board: board, images: images, on: cr, scale: raster.scale)
    }

    /// Draws the floating photo (not its handles: the app draws those) over what `cr` holds.
    /// Not clipped to the crop, so the part hanging over the edge shows while it is placed.
    public static func drawFloatingPhoto(_ floating: FloatingPhoto, images: BoardImages, on cr: OpaquePointer, raster: BoardRaster) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_scale(cr, raster.scale, raster.scale)
        cairo_translate(cr, -raster.origin.x, -raster.origin.y)
        ItemDrawing.drawPhoto(floating.photo, image: images.inserted[floating.reference], on: cr, scale: raster.scale)
    }

    /// Scales and translates `cr` from raster pixels to board pixels, and clips to the crop.
    private static func enterBoardSpace(_ cr: OpaquePointer, raster: BoardRaster, board: Board) {
        cairo_scale(cr, raster.scale, raster.scale)
        cairo_translate(cr, -raster.origin.x, -raster.origin.y)
        let crop = board.crop
        cairo_rectangle(cr, crop.minX, crop.minY, crop.size.width, crop.size.height)
        cairo_clip(cr)
    }

    /// The clip in user space; nil when nothing can be drawn.
    private static func clipExtents(_ cr: OpaquePointer) -> ViewRect? {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        guard x1 > x0, y1 > y0 else { return nil }
        return ViewRect(origin: ViewPoint(x: x0, y: y0), size: ViewSize(width: x1 - x0, height: y1 - y0))
    }

    /// The background, then the photo, over the crop (in board space, clipped to it).
    static func drawBase(_ board: Board, images: BoardImages, on cr: OpaquePointer, raster: BoardRaster) {
        let (r, g, b, _) = board.background.components
        cairo_set_source_rgb(cr, r, g, b)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        guard board.hasPhoto, let photo = images.photo else { return }
        let (level, levelScale) = photo.level(forScale: raster.scale)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, 0, 0, Double(photo.size.width), Double(photo.size.height))
        cairo_clip(cr)
        cairo_scale(cr, 1 / levelScale, 1 / levelScale)
        level.withSurface { surface in
            cairo_set_source_surface(cr, surface, 0, 0)
            let pattern = cairo_get_source(cr)
            cairo_pattern_set_filter(pattern, raster.scale == 1 && levelScale == 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_paint(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)  // let go of the surface before it goes
        }
    }
}
