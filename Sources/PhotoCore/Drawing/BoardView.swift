/// A board in a view: the viewer's `ViewTransform` (zoom, pan, fit, clamping) over the
/// board's crop, and the mapping between the widget's points and board pixels, at any zoom.
///
/// The transform's image is the board as cropped (`imageSize` is `Board.size`); its
/// viewport is the widget's size in device pixels (logical size × scale factor), as the
/// viewer's. The board is never turned in a view (`quarterTurns` 0). Zoom and pan through
/// `transform` (`zoom(to:around:)`, `pan(by:)`, `fit()`, `resize(to:)`), exactly as the
/// viewer does.
///
/// ```swift
/// var view = BoardView(board: board, viewport: ViewSize(width: 2560, height: 1600))
/// view.transform.zoom(by: 2, around: ViewPoint(x: 1280, y: 800))
/// let p = view.boardPoint(forWidgetPoint: ViewPoint(x: x, y: y), scaleFactor: 2)   // a drag's point
/// ```
public struct BoardView: Sendable, Equatable {
    public var transform: ViewTransform
    /// Where the crop's top-left corner is in board pixels.
    public let cropOrigin: ViewPoint

    /// The board fitted in a viewport of `viewport` device pixels.
    public init(board: Board, viewport: ViewSize) {
        self.init(cropOrigin: board.crop.origin, transform: ViewTransform(imageSize: board.size, viewport: viewport))
    }

    /// The board at `transform` (whose image size must be `board.size`).
    public init(board: Board, transform: ViewTransform) {
        self.init(cropOrigin: board.crop.origin, transform: transform)
    }

    private init(cropOrigin: ViewPoint, transform: ViewTransform) {
        self.cropOrigin = cropOrigin
        self.transform = transform
    }

    /// Whether this view shows `board` as it is cropped now (after a crop, or its undo, make
    /// a new view: the board's size changed).
    public func shows(_ board: Board) -> Bool {
        transform.imageSize == board.size && cropOrigin == board.crop.origin
    }

    /// Device pixels per board pixel.
    public var scale: Double { transform.scale }

    /// The board point under `point`, in device pixels from the viewport's top-left corner.
    public func boardPoint(forDevicePoint point: ViewPoint) -> ViewPoint {
        transform.imagePoint(forViewportPoint: point) + cropOrigin
    }

    /// The board point under `point`, in the widget's logical pixels (an event's
    /// coordinates), the widget's scale factor being `scaleFactor`.
    public func boardPoint(forWidgetPoint point: ViewPoint, scaleFactor: Double) -> ViewPoint {
        boardPoint(forDevicePoint: point * scaleFactor)
    }

    /// Where board point `point` is, in device pixels from the viewport's top-left corner.
    public func devicePoint(forBoardPoint point: ViewPoint) -> ViewPoint {
        transform.viewportPoint(forImagePoint: point - cropOrigin)
    }

    /// Where board point `point` is, in the widget's logical pixels.
    public func widgetPoint(forBoardPoint point: ViewPoint, scaleFactor: Double) -> ViewPoint {
        devicePoint(forBoardPoint: point) * (1 / scaleFactor)
    }

    /// How many board pixels `devicePixels` device pixels are at this zoom: a hit test's
    /// tolerance, an eraser's radius, a stroke's minimum spacing.
    public func boardLength(forDevicePixels devicePixels: Double) -> Double { devicePixels / scale }

    /// The board pixels in view (within the crop).
    public var visibleRect: ViewRect {
        let corner = boardPoint(forDevicePoint: .zero)
        let far = boardPoint(forDevicePoint: ViewPoint(x: transform.viewport.width, y: transform.viewport.height))
        let crop = ViewRect(origin: cropOrigin, size: ViewSize(transform.imageSize))
        return ViewRect(corner: corner, far).intersection(crop) ?? ViewRect(origin: corner, size: .zero)
    }
}

/// A grid of pixels to render a board onto: `size` pixels, `scale` of them per board pixel,
/// its top-left corner at board point `origin`. Board point p falls on pixel
/// `(p - origin) × scale`.
///
/// For saving, the whole board at scale 1 (`whole`); for the screen, what the view shows at
/// its scale, aligned with the device pixels, with a margin so small pans need no new
/// rendering (`forView`).
public struct BoardRaster: Sendable, Hashable, CustomStringConvertible {
    public let scale: Double
    public let origin: ViewPoint
    public let size: PixelSize

    public init(scale: Double, origin: ViewPoint, size: PixelSize) {
        self.scale = scale > 0 && scale.isFinite ? scale : 1
        self.origin = origin
        self.size = size
    }

    /// The whole board (its crop) at `scale`: at 1, a pixel of the saved image per board pixel.
    public static func whole(_ board: Board, scale: Double = 1) -> BoardRaster {
        let size = PixelSize(width: max(1, Int((Double(board.size.width) * scale).rounded())),
                             height: max(1, Int((Double(board.size.height) * scale).rounded())))
        return BoardRaster(scale: scale, origin: board.crop.origin, size: size)
    }

    /// The board as `view` shows it, at its scale, covering the viewport grown by `margin`
    /// of its size on each side (0.25: a quarter), cut to the board, in whole device pixels.
    public static func forView(_ view: BoardView, margin: Double = 0.25) -> BoardRaster {
        let viewport = view.transform.viewport
        let mx = (viewport.width * max(0, margin)).rounded(.up), my = (viewport.height * max(0, margin)).rounded(.up)
        let image = view.transform.imageRect
        let x0 = max(-mx, image.minX.rounded(.down)), y0 = max(-my, image.minY.rounded(.down))
        let x1 = min(viewport.width + mx, image.maxX.rounded(.up)), y1 = min(viewport.height + my, image.maxY.rounded(.up))
        let size = PixelSize(width: max(1, Int(x1 - x0)), height: max(1, Int(y1 - y0)))
        return BoardRaster(scale: view.scale, origin: view.boardPoint(forDevicePoint: ViewPoint(x: x0, y: y0)), size: size)
    }

    /// The board pixels it covers.
    public var boardRect: ViewRect {
        ViewRect(origin: origin, size: ViewSize(width: Double(size.width) / scale, height: Double(size.height) / scale))
    }

    /// Where board point `point` falls, in this grid's pixels.
    public func rasterPoint(forBoardPoint point: ViewPoint) -> ViewPoint { (point - origin) * scale }

    /// The whole pixels of this grid that board rectangle `rect` touches, cut to the grid;
    /// nil when it touches none.
    public func pixels(covering rect: ViewRect) -> (x: Int, y: Int, width: Int, height: Int)? {
        let a = rasterPoint(forBoardPoint: rect.origin), b = rasterPoint(forBoardPoint: ViewPoint(x: rect.maxX, y: rect.maxY))
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
        let x0 = max(0, Int(a.x.rounded(.down))), y0 = max(0, Int(a.y.rounded(.down)))
        let x1 = min(size.width, Int(b.x.rounded(.up))), y1 = min(size.height, Int(b.y.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// Whether this grid holds everything `view` shows, at its scale: a picture rendered on
    /// it can be painted for the view pixel for pixel.
    public func covers(_ view: BoardView) -> Bool {
        guard abs(view.scale - scale) <= scale * 1e-9 else { return false }
        let visible = view.visibleRect, mine = boardRect.expanded(by: 0.5 / scale)
        return visible.minX >= mine.minX && visible.minY >= mine.minY && visible.maxX <= mine.maxX && visible.maxY <= mine.maxY
    }

    /// `W×H at (x, y) ×scale`, for test failures and traces.
    public var description: String { "\(size) at \(origin) ×\(scale)" }
}
