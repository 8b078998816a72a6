import CCairo
import PhotoCore

/// How each kind of item is drawn with cairo, in board space (user units are board pixels).
enum ItemDrawing {
    /// Draws `content` (whose bounds are `bounds`) on `cr`; `scale` is device pixels per
    /// board pixel, for choosing a photo's level.
    static func draw(_ content: BoardItem.Content, bounds: ViewRect, board: Board, images: BoardImages,
                     on cr: OpaquePointer, scale: Double) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // Nothing an item draws leaves its bounds: clipping to them also keeps the group
        // surfaces of see-through strokes small, even on a full-resolution board.
        clipToDevicePixels(cr, covering: bounds)
        switch content {
        case .stroke(let stroke): drawStroke(stroke, on: cr)
        case .shape(let shape): drawShape(shape, on: cr)
        case .text(let label): BoardText.draw(label, on: cr)
        case .pixelation(let brush): drawPixelation(brush, board: board, photo: images.photo, on: cr)
        case .photo(let photo): drawPhoto(photo, image: images.inserted[photo.reference], on: cr, scale: scale)
        }
    }

    /// Clips `cr` to the whole device pixels `rect` (user space) touches: a clip on pixel
    /// edges cuts nothing in two, so an item drawn with it is the same, pixel for pixel,
    /// whatever other pixel-aligned clip (a repainted region) it is drawn within.
    private static func clipToDevicePixels(_ cr: OpaquePointer, covering rect: ViewRect) {
        var x0 = rect.minX, y0 = rect.minY, x1 = rect.maxX, y1 = rect.maxY
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        var left = min(x0, x1).rounded(.down), top = min(y0, y1).rounded(.down)
        var right = max(x0, x1).rounded(.up), bottom = max(y0, y1).rounded(.up)
        cairo_device_to_user(cr, &left, &top)
        cairo_device_to_user(cr, &right, &bottom)
        cairo_rectangle(cr, min(left, right), min(top, bottom), abs(right - left), abs(bottom - top))
        cairo_clip(cr)
    }

    // MARK: - Strokes

    private static func drawStroke(_ stroke: Stroke, on cr: OpaquePointer) {
        let colour = stroke.colour
        let grouped = stroke.tool == .highlighter || !colour.isOpaque
        if grouped { cairo_push_group(cr) }
        cairo_set_source_rgb(cr, colour.components.red, colour.components.green, colour.components.blue)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        let curve = stroke.curve
        if curve.isEmpty {
            let p = stroke.points[0]
            cairo_arc(cr, p.point.x, p.point.y, stroke.width(atPressure: p.pressure) / 2, 0, 2 * .pi)
            cairo_fill(cr)
        } else if stroke.hasPressure {
            // Each piece as wide as the pressure at its ends: round caps join them.
            for (segment, halfWidth) in zip(curve, stroke.segmentHalfWidths) {
                cairo_set_line_width(cr, 2 * halfWidth)
                cairo_move_to(cr, segment.start.x, segment.start.y)
                curveTo(cr, segment)
                cairo_stroke(cr)
            }
        } else {
            cairo_set_line_width(cr, stroke.width)
            trace(curve, on: cr)
            cairo_stroke(cr)
        }
        guard grouped else { return }
        cairo_pop_group_to_source(cr)
        let opacity = Double(colour.a) / 255
        if stroke.tool == .highlighter {
            cairo_set_operator(cr, CAIRO_OPERATOR_MULTIPLY)
            cairo_paint_with_alpha(cr, opacity * Stroke.highlighterOpacity)
        } else {
            cairo_paint_with_alpha(cr, opacity)
        }
    }

    private static func trace(_ curve: [CubicSegment], on cr: OpaquePointer) {
        guard let first = curve.first else { return }
        cairo_move_to(cr, first.start.x, first.start.y)
        for segment in curve { curveTo(cr, segment) }
    }

    private static func curveTo(_ cr: OpaquePointer, _ s: CubicSegment) {
        cairo_curve_to(cr, s.control1.x, s.control1.y, s.control2.x, s.control2.y, s.end.x, s.end.y)
    }

    // MARK: - Shapes

    private static func drawShape(_ shape: Shape, on cr: OpaquePointer) {
        let (r, g, b, a) = shape.colour.components
        cairo_set_source_rgba(cr, r, g, b, a)
        cairo_set_line_width(cr, shape.width)
        switch shape.kind {
        case .line:
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_move_to(cr, shape.start.x, shape.start.y)
            cairo_line_to(cr, shape.end.x, shape.end.y)
            cairo_stroke(cr)
        case .arrow:
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            guard let head = shape.arrowHead else {
                cairo_arc(cr, shape.end.x, shape.end.y, shape.width / 2, 0, 2 * .pi)
                cairo_fill(cr)
                return
            }
            // The shaft stops inside the head, so its round cap never pokes out of the tip.
            let base = ViewPoint(x: (head.left.x + head.right.x) / 2, y: (head.left.y + head.right.y) / 2)
            if !shape.colour.isOpaque { cairo_push_group(cr); cairo_set_source_rgb(cr, r, g, b) }
            cairo_move_to(cr, shape.start.x, shape.start.y)
            cairo_line_to(cr, base.x, base.y)
            cairo_stroke(cr)
            cairo_move_to(cr, head.tip.x, head.tip.y)
            cairo_line_to(cr, head.left.x, head.left.y)
            cairo_line_to(cr, head.right.x, head.right.y)
            cairo_close_path(cr)
            cairo_fill(cr)
            if !shape.colour.isOpaque { cairo_pop_group_to_source(cr); cairo_paint_with_alpha(cr, a) }
        case .rectangle:
            let rect = ViewRect(corner: shape.start, shape.end)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
            cairo_rectangle(cr, rect.minX, rect.minY, rect.size.width, rect.size.height)
            cairo_stroke(cr)
        case .ellipse:
            let rect = ViewRect(corner: shape.start, shape.end)
            guard rect.size.width > 1e-6, rect.size.height > 1e-6 else {
                cairo_move_to(cr, rect.minX, rect.minY)
                cairo_line_to(cr, rect.maxX, rect.maxY)
                cairo_stroke(cr)
                return
            }
            cairo_save(cr)
            cairo_translate(cr, rect.center.x, rect.center.y)
            cairo_scale(cr, rect.size.width / 2, rect.size.height / 2)
            cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
            cairo_restore(cr)  // the path stays; the line is as wide all round
            cairo_stroke(cr)
        }
    }

    // MARK: - Pixelation and photos

    /// The photo's blocks along the brush: each block one pixel of `pixelBlocks`, scaled up
    /// by the block size with no smoothing, on the grid fixed to the photo's corner, over the
    /// background. Both are made one source first, so the brush's antialiased edge is drawn
    /// once (two strokes would leave a halo of the background).
    private static func drawPixelation(_ brush: Pixelation, board: Board, photo: BoardPhoto?, on cr: OpaquePointer) {
        cairo_push_group(cr)
        let (r, g, b, _) = board.background.components
        cairo_set_source_rgb(cr, r, g, b)
        cairo_paint(cr)
        if board.hasPhoto, let photo {
            let blockSize = Int(board.pixelBlockSize)
            photo.pixelBlocks(blockSize).withSurface { surface in
                let pattern = cairo_pattern_create_for_surface(surface)!
                defer { cairo_pattern_destroy(pattern) }
                var matrix = cairo_matrix_t()
                cairo_matrix_init_scale(&matrix, 1 / Double(blockSize), 1 / Double(blockSize))
                cairo_pattern_set_matrix(pattern, &matrix)
                cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                cairo_set_source(cr, pattern)
                cairo_paint(cr)
                cairo_set_source_rgb(cr, 0, 0, 0)  // let go of the surface before it goes
            }
        }
        cairo_pop_group_to_source(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cr, brush.width)
        let curve = brush.curve
        if curve.isEmpty {
            cairo_arc(cr, brush.points[0].x, brush.points[0].y, brush.width / 2, 0, 2 * .pi)
            cairo_fill(cr)
        } else {
            trace(curve, on: cr)
            cairo_stroke(cr)
        }
    }

    /// A photo at its placement; a grey box when its pixels are missing.
    static func drawPhoto(_ photo: InsertedPhoto, image: BoardPhoto?, on cr: OpaquePointer, scale: Double) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let placement = photo.placement
        let w = Double(photo.imageSize.width), h = Double(photo.imageSize.height)
        cairo_translate(cr, placement.centre.x, placement.centre.y)
        cairo_rotate(cr, placement.angle)
        cairo_scale(cr, placement.scale, placement.scale)
        cairo_translate(cr, -w / 2, -h / 2)
        guard let image else {
            cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.5)
            cairo_rectangle(cr, 0, 0, w, h)
            cairo_fill(cr)
            return
        }
        // The item's size may differ from the pixels' (a sharper decode came later).
        cairo_scale(cr, w / Double(image.size.width), h / Double(image.size.height))
        let effective = scale * placement.scale * w / Double(image.size.width)
        let (level, levelScale) = image.level(forScale: effective)
        cairo_scale(cr, 1 / levelScale, 1 / levelScale)
        level.withSurface { surface in
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_rectangle(cr, 0, 0, Double(level.size.width), Double(level.size.height))
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)  // let go of the surface before it goes
        }
    }
}
