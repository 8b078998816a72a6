import CGtk
import PhotoCore
import PhotoIO

/// The drawing board being edited, without its widgets: the board (the core's model), how it
/// is viewed, its pixels and their render cache, the tool, colour and width, and what a drag
/// is in the middle of. Every edit goes through here; `onChange` tells the window to redraw
/// and to update its buttons.
@MainActor
final class BoardEditor {
    private let live = LiveObjects.Token("BoardEditor")
    private(set) var board: Board
    var view: BoardView
    private(set) var images: BoardImages
    let rendered: RenderedBoard
    var tool = BoardTool.pen { didSet { selected = nil; changed() } }
    var colour = DrawingColour.red
    /// The width as a multiple of the board's suggested one (the slider: ¼ to 8).
    var widthFactor = 1.0
    /// What the drag under way makes (a stroke, a shape), drawn over the board until it ends.
    private(set) var drag: ToolDrag?
    /// The item the select tool picked, which Delete removes and a colour recolours.
    private(set) var selected: BoardItemID?
    /// The crop tool's rectangle while it is dragged.
    private(set) var cropRect: ViewRect?
    private var moving: (item: BoardItemID?, last: ViewPoint)?
    private var erasing: ViewPoint?
    private var handleDrag = false
    var onChange: () -> Void = {}

    init(board: Board, images: BoardImages, viewport: ViewSize) {
        self.board = board
        self.images = images
        view = BoardView(board: board, viewport: viewport)
        rendered = RenderedBoard(images: images)
    }

    var width: Double { board.suggestedWidth * widthFactor }

    private func changed() { onChange() }

    // MARK: Viewing

    func resize(to viewport: ViewSize) {
        guard viewport.width > 0, viewport.height > 0 else { return }
        view.transform.resize(to: viewport)
    }

    func zoom(by factor: Double, around point: ViewPoint? = nil) {
        let centre = point ?? ViewPoint(x: view.transform.viewport.width / 2, y: view.transform.viewport.height / 2)
        view.transform.zoom(by: factor, around: centre)
        changed()
    }

    func zoomToFit() { view.transform.fit(); changed() }

    func zoomToActualSize() {
        view.transform.zoom(to: 1, around: ViewPoint(x: view.transform.viewport.width / 2, y: view.transform.viewport.height / 2))
        changed()
    }

    /// Moves the view by `delta` device pixels (space-drag, scrolling).
    func pan(by delta: ViewPoint) { view.transform.pan(by: delta); changed() }

    // MARK: Dragging

    /// A press at `point` (board pixels): starts what the tool does, or moves the floating
    /// photo by its handles or its body.
    func beginDrag(at point: ViewPoint, pressure: Double?, handleTolerance: Double) {
        if var floating = board.floatingPhoto {
            if let handle = Self.handle(of: floating, near: point, tolerance: handleTolerance) {
                floating.beginHandleDrag(handle, at: point)
                handleDrag = true
            }
            moving = (nil, point)
            board.floatingPhoto = floating
            return
        }
        switch tool {
        case .select:
            selected = board.item(at: point, tolerance: handleTolerance)
            if let selected {
                board.beginStep(.change)
                moving = (selected, point)
            }
        case .eraser:
            board.beginStep(.remove)
            _ = board.erase(at: point, radius: width * 2)
            erasing = point
        case .crop:
            cropRect = ViewRect(origin: point, size: ViewSize(width: 0, height: 0))
            drag = ToolDrag(.crop, at: point, colour: colour, width: width)
        case .text:
            break  // a click: the window asks for the text
        default:
            drag = ToolDrag(tool, at: point, colour: colour, width: width, pressure: pressure, spacing: view.boardLength(forDevicePixels: 1))
        }
        changed()
    }

    /// How many drag moves came so far (the pen's latency is traced against it).
    private(set) var moves = 0

    func moveDrag(to point: ViewPoint, pressure: Double?) {
        moves += 1
        if var floating = board.floatingPhoto, let last = moving?.last {
            if handleDrag { floating.dragHandle(to: point) } else { floating.move(by: point - last) }
            board.floatingPhoto = floating
            moving = (nil, point)
        } else if let moving, let item = moving.item {
            _ = board.move(item, by: point - moving.last)
            self.moving = (item, point)
        } else if let last = erasing {
            _ = board.erase(from: last, to: point, radius: width * 2)
            erasing = point
        } else if tool == .crop, let drag {
            cropRect = drag.rectangle(to: point)
        } else {
            drag?.move(to: point, pressure: pressure)
        }
        changed()
    }

    func endDrag() {
        if var floating = board.floatingPhoto {
            if handleDrag { floating.endHandleDrag() }
            board.floatingPhoto = floating
        } else if moving?.item != nil || erasing != nil {
            board.endStep()
        } else if tool == .crop, let rect = cropRect {
            if rect.size.width >= 8, rect.size.height >= 8, board.crop(to: rect) { view = BoardView(board: board, viewport: view.transform.viewport) }
        } else if let content = drag?.finished {
            let id = board.add(content)
            if tool == .select { selected = id }
        }
        handleDrag = false
        moving = nil
        erasing = nil
        drag = nil
        cropRect = nil
        changed()
    }

    private static func handle(of floating: FloatingPhoto, near point: ViewPoint, tolerance: Double) -> FloatingPhoto.Handle? {
        let rotation = floating.rotationHandle(distance: tolerance * 3)
        if (rotation - point).length <= tolerance { return .rotation }
        for corner in floating.corners where (corner - point).length <= tolerance { return .corner }
        return nil
    }

    // MARK: Editing

    func undo() { if board.undo() { selected = nil; refreshView(); changed() } }
    func redo() { if board.redo() { selected = nil; refreshView(); changed() } }

    /// After an undone or redone crop the board's size differs: a view of it anew.
    private func refreshView() {
        if !view.shows(board) { view = BoardView(board: board, viewport: view.transform.viewport) }
    }

    func clear() { if board.clear() { selected = nil; changed() } }

    func deleteSelected() {
        guard let selected else { return }
        _ = board.remove([selected])
        self.selected = nil
        changed()
    }

    /// The colour chosen: for the next items, and the selected one.
    func choose(_ colour: DrawingColour) {
        self.colour = colour
        if let selected { _ = board.recolour(selected, to: colour) }
        changed()
    }

    func addText(_ text: String, at point: ViewPoint) {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        let label = BoardText.laidOut(TextLabel(text, at: point, fontSize: board.suggestedTextSize * widthFactor, colour: colour))
        _ = board.add(.text(label))
        changed()
    }

    /// A photo brought in: it floats over the board, in view, until fixed or dropped.
    /// A photo brought in floats in view, centred at `point` (where it was dropped) or in
    /// the view's middle.
    func insert(_ photo: BoardPhoto, as reference: PhotoReference, at point: ViewPoint? = nil) {
        images.inserted[reference] = photo
        rendered.setImages(images)
        var floating = FloatingPhoto(reference: reference, imageSize: photo.size, fittingIn: view.visibleRect)
        if let point {
            floating = FloatingPhoto(reference: reference, imageSize: photo.size,
                                     placement: Placement(scale: floating.placement.scale, angle: 0, centre: point))
        }
        board.floatingPhoto = floating
        Trace.milestone("board-floating")
        tool = .select
        changed()
    }

    /// Two fingers on the floating photo: it follows them.
    func holdFloating(began: Bool, scale: Double, angle: Double, centroid: ViewPoint) {
        guard var floating = board.floatingPhoto else { return }
        if began { floating.beginGesture(centroid: centroid) }
        floating.updateGesture(scale: scale, angle: angle, centroid: centroid)
        board.floatingPhoto = floating
        changed()
    }

    func releaseFloating() {
        guard var floating = board.floatingPhoto, floating.isHeld else { return }
        floating.endGesture()
        board.floatingPhoto = floating
        changed()
    }

    /// Enter, a long press: the floating photo becomes part of the board (one undo step).
    func fixFloating() {
        guard board.fixFloatingPhoto() != nil else { return }
        Trace.milestone("board-placed")
        changed()
    }

    /// Escape: the floating photo goes.
    func dropFloating() {
        guard board.floatingPhoto != nil else { return }
        board.dropFloatingPhoto()
        changed()
    }

    func markSaved() { board.markSaved(); changed() }
}
