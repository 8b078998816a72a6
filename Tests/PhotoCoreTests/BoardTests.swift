import PhotoCore
import Testing

/// A stroke from `a` to `b` through a point between them.
func line(_ a: ViewPoint, _ b: ViewPoint, colour: DrawingColour = .red, width: Double = 10) -> BoardItem.Content {
    var stroke = Stroke(colour: colour, width: width, start: StrokePoint(a))
    stroke.extend(to: StrokePoint(ViewPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)))
    stroke.extend(to: StrokePoint(b))
    return .stroke(stroke)
}

func point(_ x: Double, _ y: Double) -> ViewPoint { ViewPoint(x: x, y: y) }

/// The board's items, undo history and what it tells renderers.
@Suite struct BoardTests {
    @Test func aNewBoardIsThePhotosSizeWithNothingOnItAndThePenRed() {
        let board = Board(photoSize: PixelSize(width: 6000, height: 4000))
        #expect(board.size == PixelSize(width: 6000, height: 4000))
        #expect(board.items.isEmpty && !board.canUndo && !board.canRedo && !board.hasUnsavedChanges)
        #expect(Stroke(width: 4, start: StrokePoint(.zero)).colour == DrawingColour(hex: "#FC5C46"))
        #expect(DrawingColour.presets == [DrawingColour(hex: "FC5C46"), DrawingColour(hex: "#3dc92a"), DrawingColour(hex: "#1994FC")])
        #expect(board.pixelBlockSize == 100)
        let blank = Board(blank: PixelSize(width: 800, height: 600))
        #expect(!blank.hasPhoto && blank.size == PixelSize(width: 800, height: 600) && blank.background == .white)
    }

    @Test func eachEditIsOneStepUndoneAndRedoneWithTheSameIDs() {
        var board = Board(photoSize: PixelSize(width: 1000, height: 800))
        let a = board.add(line(point(10, 10), point(200, 10)))
        let b = board.add(.shape(Shape(.rectangle, from: point(300, 300), to: point(400, 380), width: 4)))
        #expect(board.items.map(\.id) == [a, b])
        do { let result = board.recolour(a, to: .blue); #expect(result) }
        #expect(board.item(a)?.content.colour == .blue)
        do { let result = board.undo(); #expect(result) }
        #expect(board.item(a)?.content.colour == .red)
        do { let result = board.undo(); #expect(result) }
        #expect(board.items.map(\.id) == [a])
        do { let result = board.redo(); #expect(result) }
        do { let result = board.redo(); #expect(result) }
        #expect(board.items.map(\.id) == [a, b] && board.item(a)?.content.colour == .blue)
        do { let result = board.redo(); #expect(!result) }
        // A new edit after an undo forgets what could be redone.
        board.undo()
        board.add(line(point(0, 500), point(100, 500)))
        #expect(!board.canRedo)
        #expect(board.stepToUndo == .draw)
    }

    @Test func clearIsOneStepAndItsUndoRestoresEverythingInItsOrder() {
        var board = Board(photoSize: PixelSize(width: 1000, height: 800))
        for i in 0..<20 { board.add(line(point(10, Double(i) * 30), point(900, Double(i) * 30), colour: i % 2 == 0 ? .red : .green)) }
        board.remove([board.items[5].id])
        let before = board.items
        do { let result = board.clear(); #expect(result) }
        #expect(board.items.isEmpty && board.itemCount == 0 && board.stepToUndo == .clear)
        do { let result = board.undo(); #expect(result) }
        #expect(board.items == before)
        #expect(board.itemCount == 19)
        #expect(board.stepToUndo == .remove)
        do { let result = board.redo(); #expect(result) }
        #expect(board.items.isEmpty)
    }

    @Test func anUndoTouchesOnlyItsItemWith500ItemsAsWith5() {
        for count in [5, 500] {
            var board = Board(photoSize: PixelSize(width: 6000, height: 4000))
            for i in 0..<count { board.add(line(point(Double(i % 50) * 100, Double(i / 50) * 300), point(Double(i % 50) * 100 + 80, Double(i / 50) * 300 + 50))) }
            let top = board.items.last!
            let revision = board.revision
            board.undo()
            // What a renderer must draw again: the last item's bounds from its place, nothing else.
            let undone = board.changes(since: revision)!
            #expect(undone.repaint?.region == top.content.bounds)
            #expect(undone.repaint?.lowestPlace == count - 1)
            #expect(undone.drawnOver.isEmpty)
            board.redo()
            let redone = board.changes(since: revision + 1)!
            #expect(redone.drawnOver == [BoardChange.DrawnOver(place: count - 1, bounds: top.content.bounds)] && redone.repaint == nil)
            #expect(board.changes(since: revision)!.repaint?.region == top.content.bounds)
        }
    }

    @Test func changesLongAgoAreNotKnownSoARendererDrawsEverything() {
        var board = Board(blank: PixelSize(width: 100, height: 100))
        for _ in 0..<600 { board.add(line(point(1, 1), point(50, 50))) }
        #expect(board.changes(since: 0) == nil)
        #expect(board.changes(since: board.revision) == BoardChange.nothing)
    }

    @Test func theEraserRemovesWhatItTouchesAndADragOfItIsOneStep() {
        var board = Board(photoSize: PixelSize(width: 1000, height: 1000))
        let top = board.add(line(point(100, 100), point(900, 100)))
        let middle = board.add(line(point(100, 500), point(900, 500)))
        let bottom = board.add(line(point(100, 900), point(900, 900)))
        board.beginStep(.remove)
        #expect(board.erase(at: point(500, 110), radius: 8) == 1)  // within width/2 + radius
        do { let result = board.erase(at: point(500, 300), radius: 8); #expect(result == 0) }
        do { let result = board.erase(from: point(300, 450), to: point(300, 950), radius: 8); #expect(result == 2) }
        board.endStep()
        #expect(board.items.isEmpty)
        do { let result = board.undo(); #expect(result) }
        #expect(board.items.map(\.id) == [top, middle, bottom])
        #expect(!board.canUndo || board.stepToUndo == .draw)
    }

    @Test func draggingAnItemAlongIsOneStepAndUndoPutsItBack() {
        var board = Board(photoSize: PixelSize(width: 1000, height: 1000))
        let id = board.add(.text(TextLabel("Hello", at: point(100, 100), fontSize: 40)))
        board.beginStep(.change)
        for _ in 0..<30 { board.move(id, by: point(2, 1)) }
        board.endStep()
        guard case .text(let moved)? = board.item(id)?.content else { Issue.record("not a text"); return }
        #expect(moved.origin == point(160, 130))
        board.undo()
        guard case .text(let back)? = board.item(id)?.content else { Issue.record("not a text"); return }
        #expect(back.origin == point(100, 100))
        #expect(board.stepToUndo == .draw)
    }

    @Test func unsavedChangesFollowTheStateNotTheCountOfEdits() {
        var board = Board(photoSize: PixelSize(width: 100, height: 100))
        board.add(line(point(1, 1), point(50, 50)))
        #expect(board.hasUnsavedChanges)
        board.markSaved()
        #expect(!board.hasUnsavedChanges)
        board.add(line(point(1, 60), point(50, 60)))
        #expect(board.hasUnsavedChanges)
        board.undo()
        #expect(!board.hasUnsavedChanges)
        board.undo()
        #expect(board.hasUnsavedChanges)
    }

    @Test func cropIsOneStepThatMovesNoItemAndItsUndoBringsTheBoardBack() {
        var board = Board(photoSize: PixelSize(width: 6000, height: 4000))
        let id = board.add(line(point(1000, 1000), point(2000, 1000)))
        let item = board.item(id)
        do { let result = board.crop(to: ViewRect(origin: point(500.4, 700.6), size: ViewSize(width: 3000, height: 2000))); #expect(result) }
        #expect(board.crop == ViewRect(origin: point(500, 701), size: ViewSize(width: 3000, height: 2000)))
        #expect(board.size == PixelSize(width: 3000, height: 2000))
        #expect(board.item(id) == item)
        #expect(board.changes(since: board.revision - 1)?.isResized == true)
        // Kept within the photo.
        board.crop(to: ViewRect(origin: point(-100, -100), size: ViewSize(width: 90_000, height: 90_000)))
        #expect(board.crop == ViewRect(origin: .zero, size: ViewSize(width: 6000, height: 4000)))
        board.undo()
        board.undo()
        #expect(board.size == PixelSize(width: 6000, height: 4000) && board.stepToUndo == .draw)
    }

    @Test func aFloatingPhotoIsUnsavedUntilDroppedOrFixedAndSaved() {
        var board = Board(photoSize: PixelSize(width: 4000, height: 3000))
        let visible = ViewRect(origin: .zero, size: ViewSize(width: 4000, height: 3000))
        board.floatingPhoto = FloatingPhoto(reference: PhotoReference("b"), imageSize: PixelSize(width: 1000, height: 500), fittingIn: visible)
        #expect(board.hasUnsavedChanges)
        board.dropFloatingPhoto()
        #expect(!board.hasUnsavedChanges)
        board.floatingPhoto = FloatingPhoto(reference: PhotoReference("b"), imageSize: PixelSize(width: 1000, height: 500), fittingIn: visible)
        board.markSaved()
        #expect(board.hasUnsavedChanges, "a save leaves out what floats")
        _ = board.fixFloatingPhoto()
        #expect(board.hasUnsavedChanges)
        board.markSaved()
        #expect(!board.hasUnsavedChanges)
    }

    @Test func theFloatingPhotoIsNoItemUntilFixedAndFixingIsOneStep() {
        var board = Board(photoSize: PixelSize(width: 4000, height: 3000))
        let visible = ViewRect(origin: .zero, size: ViewSize(width: 4000, height: 3000))
        board.floatingPhoto = FloatingPhoto(reference: PhotoReference("file:///b.png"), imageSize: PixelSize(width: 1000, height: 500), fittingIn: visible)
        #expect(board.floatingPhoto?.placement.centre == point(2000, 1500))
        #expect(abs(board.floatingPhoto!.placement.scale - 2.4) < 1e-9)
        #expect(board.items.isEmpty && !board.canUndo)
        board.dropFloatingPhoto()
        #expect(board.floatingPhoto == nil && board.items.isEmpty)

        board.floatingPhoto = FloatingPhoto(reference: PhotoReference("b"), imageSize: PixelSize(width: 1000, height: 500),
                                            placement: Placement(scale: 1, centre: point(1000, 1000)))
        board.floatingPhoto?.beginGesture(centroid: point(1000, 1000))
        board.floatingPhoto?.updateGesture(scale: 2, angle: 0.5, centroid: point(1100, 1000))
        board.floatingPhoto?.endGesture()
        board.floatingPhoto?.move(by: point(0, 50))
        let placement = board.floatingPhoto!.placement
        #expect(abs(placement.scale - 2) < 1e-9 && abs(placement.angle - 0.5) < 1e-9)
        #expect(placement.centre == point(1100, 1050))
        let id = board.fixFloatingPhoto()
        #expect(board.floatingPhoto == nil && board.stepToUndo == .fixPhoto)
        guard case .photo(let fixed)? = id.flatMap(board.item)?.content else { Issue.record("no photo"); return }
        #expect(fixed.placement == placement)
        board.undo()
        #expect(board.items.isEmpty)
    }

    @Test func handlesScaleAndTurnThePhotoAboutItsCentre() {
        var photo = FloatingPhoto(reference: PhotoReference("p"), imageSize: PixelSize(width: 200, height: 100),
                                  placement: Placement(scale: 1, centre: point(500, 500)))
        #expect(photo.corners[0] == point(400, 450) && photo.corners[2] == point(600, 550))
        photo.beginHandleDrag(.corner, at: point(600, 550))
        photo.dragHandle(to: point(700, 600))  // twice as far from the centre
        photo.endHandleDrag()
        #expect(abs(photo.placement.scale - 2) < 1e-9 && photo.placement.centre == point(500, 500))
        let handle = photo.rotationHandle(distance: 30)
        #expect(abs(handle.x - 500) < 1e-9 && abs(handle.y - 370) < 1e-9)
        photo.beginHandleDrag(.rotation, at: handle)
        photo.dragHandle(to: point(630, 500))  // a quarter turn clockwise round the centre
        photo.endHandleDrag()
        #expect(abs(photo.placement.angle - .pi / 2) < 1e-9 && abs(photo.placement.scale - 2) < 1e-9)
        #expect(abs(photo.placement.centre.x - 500) < 1e-9 && abs(photo.placement.centre.y - 500) < 1e-9)
        #expect(photo.contains(point(500, 690)) && !photo.contains(point(690, 500)))
    }
}
