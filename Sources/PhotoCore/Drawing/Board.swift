/// The drawing board: a photo (or a blank sheet) and the items drawn on it, editable until
/// saved, with any number of undo steps.
///
/// Everything is in **board pixels**: the pixels of the photo as shown upright (after its
/// EXIF orientation; `DecodedImage.sourceSize`), or of the blank board's chosen size, from
/// its top-left corner, x right and y down. Items keep those coordinates for the board's
/// life; cropping only changes which rectangle of them is the board (`crop`), so a crop costs
/// nothing whatever is drawn, and a 6000×4000 photo saves as 6000×4000 pixels, or as its crop.
///
/// Items are kept in drawing order, each at a place of its own (`item(atPlace:)`): a removed
/// item's place stays empty, so undo puts it back where it was without moving any other, and
/// every step costs what it touches: adding, removing or changing an item, undoing or redoing
/// it, is O(1) with 500 items as with 5; Clear and its undo are O(n), the items they touch.
///
/// A value: copying it is cheap (its storage is shared until written), so a save can take
/// the board to a worker as it is while drawing goes on.
///
/// ```swift
/// var board = Board(photoSize: PixelSize(width: 6000, height: 4000))
/// var stroke = Stroke(colour: .red, width: board.suggestedWidth, start: StrokePoint(ViewPoint(x: 100, y: 100)))
/// stroke.extend(to: StrokePoint(ViewPoint(x: 400, y: 260)))
/// let id = board.add(.stroke(stroke))     // one undo step
/// board.recolour(id, to: .blue)           // another
/// board.undo()                            // red again
/// board.clear()                           // one step…
/// board.undo()                            // …and everything is back
/// ```
public struct Board: Sendable {
    /// The size of the photo, or of the blank board: the board pixels items live in.
    public let photoSize: PixelSize
    /// Whether there is a photo under the items (else a blank board of `background`).
    public let hasPhoto: Bool
    /// What is under the photo (shows through a photo's transparent pixels), or the blank
    /// board's colour. The saved image is opaque.
    public let background: DrawingColour
    /// The side of a pixelation's blocks, in board pixels: a 40th of the board's shorter
    /// side, at least 12 (100 on a 6000×4000 photo), so that a face or a number plate is a
    /// few blocks across, too few to recognise or read.
    public let pixelBlockSize: Double

    /// The rectangle of board pixels that is the board (whole pixels, within `photoSize`):
    /// what is shown and saved.
    public private(set) var crop: ViewRect
    /// A photo being inserted, floating over the board until `fixFloatingPhoto` puts it on
    /// it or `dropFloatingPhoto` takes it away; not an item, not in the undo history.
    public var floatingPhoto: FloatingPhoto?

    private var places: [BoardItem?] = []
    private var placeByID: [BoardItemID: Int] = [:]
    private var nextID = 1
    /// The highest place holding an item, -1 when none does.
    private var topPlace = -1
    private var history = BoardHistory()
    private var log = BoardChangeLog()
    private var nextStepSerial = 1
    private var savedState = 0

    /// How many items are on the board.
    public private(set) var itemCount = 0

    /// A blank board of `size` pixels, of `background`.
    public init(blank size: PixelSize, background: DrawingColour = .white) {
        self.init(size: size, hasPhoto: false, background: background)
    }

    /// A board over a photo of `photoSize` pixels (upright: after its EXIF orientation).
    public init(photoSize: PixelSize, background: DrawingColour = .white) {
        self.init(size: photoSize, hasPhoto: true, background: background)
    }

    private init(size: PixelSize, hasPhoto: Bool, background: DrawingColour) {
        let size = PixelSize(width: max(1, size.width), height: max(1, size.height))
        photoSize = size
        self.hasPhoto = hasPhoto
        self.background = background
        pixelBlockSize = Double(max(12, min(size.width, size.height) / 40))
        crop = ViewRect(origin: .zero, size: ViewSize(size))
    }

    // MARK: - What is on it

    /// The board's size in pixels: the crop's.
    public var size: PixelSize { PixelSize(width: Int(crop.size.width), height: Int(crop.size.height)) }

    /// A line width that shows well at the fit: a 250th of the shorter side, at least 2.
    public var suggestedWidth: Double { max(2, Double(min(size.width, size.height)) / 250) }

    /// A text size that reads well at the fit: a 25th of the shorter side, at least 12.
    public var suggestedTextSize: Double { max(12, Double(min(size.width, size.height)) / 25) }

    /// The items in drawing order, first drawn first. O(places).
    public var items: [BoardItem] { places.compactMap { $0 } }

    /// The item `id`, if it is on the board.
    public func item(_ id: BoardItemID) -> BoardItem? { placeByID[id].flatMap { places[$0] } }

    /// The number of places in the drawing order, empty ones included.
    public var placeCount: Int { places.count }

    /// The item at `place` in the drawing order; nil for an empty place.
    public func item(atPlace place: Int) -> BoardItem? { places.indices.contains(place) ? places[place] : nil }

    /// The place of item `id` in the drawing order.
    public func place(of id: BoardItemID) -> Int? { placeByID[id] }

    /// The topmost item within `tolerance` board pixels of `point` (a click's selection:
    /// pass a few device pixels over the view's scale), or nil.
    public func item(at point: ViewPoint, tolerance: Double) -> BoardItemID? {
        var place = topPlace
        while place >= 0 {
            if let item = places[place], item.bounds.expanded(by: tolerance).contains(point),
               item.content.distance(to: point) <= tolerance {
                return item.id
            }
            place -= 1
        }
        return nil
    }

    /// Every item within `radius` of `point`, in drawing order.
    public func items(touching point: ViewPoint, radius: Double) -> [BoardItemID] {
        places.compactMap { item in
            guard let item, item.bounds.expanded(by: radius).contains(point),
                  item.content.distance(to: point) <= radius else { return nil }
            return item.id
        }
    }

    // MARK: - Changes, for renderers

    /// Counts the changes made to what is drawn (items and crop; not the floating photo).
    public var revision: Int { log.revision }

    /// What changed since `revision`; nil when that is too long ago to say (draw it all).
    public func changes(since revision: Int) -> BoardChange? { log.changes(since: revision) }

    // MARK: - Editing

    /// Adds an item on top of the others: one undo step (or part of the step gathering).
    @discardableResult
    public mutating func add(_ content: BoardItem.Content) -> BoardItemID {
        add(content, kind: .draw)
    }

    private mutating func add(_ content: BoardItem.Content, kind: BoardStep.Kind) -> BoardItemID {
        let item = BoardItem(id: BoardItemID(rawValue: nextID), content: content)
        nextID += 1
        places.append(nil)
        perform(.add([PlacedItem(place: places.count - 1, item: item)]), kind: kind)
        return item.id
    }

    /// Removes the items `ids` (those on the board): one step. False when none was.
    @discardableResult
    public mutating func remove(_ ids: [BoardItemID]) -> Bool {
        remove(ids, kind: .remove)
    }

    private mutating func remove(_ ids: [BoardItemID], kind: BoardStep.Kind) -> Bool {
        let placed = Set(ids).compactMap { id in placeByID[id].map { PlacedItem(place: $0, item: places[$0]!) } }
        guard !placed.isEmpty else { return false }
        perform(.remove(placed.sorted { $0.place < $1.place }), kind: kind)
        return true
    }

    /// Replaces item `id`'s content (a text edited, a shape's end dragged): one step, or
    /// one with the changes to the same item just before it in the step gathering.
    @discardableResult
    public mutating func replace(_ id: BoardItemID, with content: BoardItem.Content) -> Bool {
        guard let place = placeByID[id], let before = places[place], before.content != content else { return false }
        perform(.change(place: place, before: before, after: BoardItem(id: id, content: content)), kind: .change)
        return true
    }

    /// Moves item `id` by `offset` board pixels. Dragging an item: call it at each motion
    /// between `beginStep(.change)` and `endStep()`, and the drag is one undo step.
    @discardableResult
    public mutating func move(_ id: BoardItemID, by offset: ViewPoint) -> Bool {
        guard let item = item(id) else { return false }
        return replace(id, with: item.content.moved(by: offset))
    }

    /// Gives item `id` the colour `colour` (nothing for a photo or a pixelation).
    @discardableResult
    public mutating func recolour(_ id: BoardItemID, to colour: DrawingColour) -> Bool {
        guard let item = item(id) else { return false }
        return replace(id, with: item.content.recoloured(colour))
    }

    /// Gives item `id` a line or brush `width` (nothing for a text or a photo).
    @discardableResult
    public mutating func setWidth(_ id: BoardItemID, to width: Double) -> Bool {
        guard let item = item(id) else { return false }
        return replace(id, with: item.content.withWidth(width))
    }

    /// The eraser at `point`: removes every item within `radius` of it, returning how many.
    /// An eraser's drag: call it (or `erase(from:to:radius:)`) at each motion between
    /// `beginStep(.remove)` and `endStep()`, and the drag is one undo step.
    @discardableResult
    public mutating func erase(at point: ViewPoint, radius: Double) -> Int {
        let touched = items(touching: point, radius: radius)
        return remove(touched, kind: .remove) ? touched.count : 0
    }

    /// The eraser moved from `start` to `end`: erases at points `radius` apart between them.
    @discardableResult
    public mutating func erase(from start: ViewPoint, to end: ViewPoint, radius: Double) -> Int {
        let steps = max(1, Int((start.distance(to: end) / max(radius, 0.5)).rounded(.up)))
        var touched: Set<BoardItemID> = []
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            touched.formUnion(items(touching: start + (end - start) * t, radius: radius))
        }
        return remove(Array(touched), kind: .remove) ? touched.count : 0
    }

    /// Removes every item: one step, whose undo brings every one back where it was.
    @discardableResult
    public mutating func clear() -> Bool {
        remove(items.map(\.id), kind: .clear)
    }

    /// Crops the board to `rect` (board pixels; rounded to whole pixels and kept within the
    /// photo, at least one pixel): one step. Items outside it stay, unseen and unsaved, and
    /// undo brings them back into view.
    @discardableResult
    public mutating func crop(to rect: ViewRect) -> Bool {
        let x0 = min(max(rect.minX.rounded(), 0), Double(photoSize.width - 1))
        let y0 = min(max(rect.minY.rounded(), 0), Double(photoSize.height - 1))
        let x1 = min(max(rect.maxX.rounded(), x0 + 1), Double(photoSize.width))
        let y1 = min(max(rect.maxY.rounded(), y0 + 1), Double(photoSize.height))
        let cropped = ViewRect(origin: ViewPoint(x: x0, y: y0), size: ViewSize(width: x1 - x0, height: y1 - y0))
        guard rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite, cropped != crop else { return false }
        perform(.crop(before: crop, after: cropped), kind: .crop)
        return true
    }

    /// Fixes the floating photo onto the board where it floats: one step. Returns its id.
    @discardableResult
    public mutating func fixFloatingPhoto() -> BoardItemID? {
        guard let floating = floatingPhoto else { return nil }
        floatingPhoto = nil
        return add(.photo(floating.photo), kind: .fixPhoto)
    }

    /// Takes the floating photo away, leaving the board as it was (Escape).
    public mutating func dropFloatingPhoto() { floatingPhoto = nil }

    // MARK: - Steps

    /// Gathers the edits that follow, until `endStep()`, into one undo step of `kind`.
    public mutating func beginStep(_ kind: BoardStep.Kind) { history.beginStep(kind) }

    /// Ends the step begun by `beginStep`. Undo and redo end it themselves.
    public mutating func endStep() { history.endStep() }

    /// Whether there is a step to undo, or to redo.
    public var canUndo: Bool { !history.undoSteps.isEmpty || history.isGathering }
    public var canRedo: Bool { !history.redoSteps.isEmpty }
    /// What undo would take back, and what redo would do again.
    public var stepToUndo: BoardStep.Kind? { history.undoSteps.last?.kind }
    public var stepToRedo: BoardStep.Kind? { history.redoSteps.last?.kind }

    /// Takes the last step back; false when there is none. Costs what the step touched.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let step = history.takeUndo() else { return false }
        var change = BoardChange.nothing
        for command in step.commands.reversed() { change = change.followed(by: apply(command.inverse)) }
        log.append(change)
        return true
    }

    /// Does the last undone step again; false when there is none.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let step = history.takeRedo() else { return false }
        var change = BoardChange.nothing
        for command in step.commands { change = change.followed(by: apply(command)) }
        log.append(change)
        return true
    }

    /// Whether the board differs from when it was opened or last `markSaved()` (undoing back
    /// to that state makes it equal again), or a photo floats on it, not yet placed: closing
    /// then asks.
    public var hasUnsavedChanges: Bool {
        history.undoSteps.last?.serial ?? 0 != savedState || history.isGathering || floatingPhoto != nil
    }

    /// The board as it is now has been saved.
    public mutating func markSaved() { savedState = history.undoSteps.last?.serial ?? 0 }

    // MARK: - Applying commands

    private mutating func perform(_ command: BoardCommand, kind: BoardStep.Kind) {
        log.append(apply(command))
        history.record(command, kind: kind, serial: nextStepSerial)
        nextStepSerial += 1
    }

    /// Applies `command` to the places, and says what that changed for a renderer.
    private mutating func apply(_ command: BoardCommand) -> BoardChange {
        switch command {
        case .add(let placed):
            var change = BoardChange.nothing
            for entry in placed {
                let bounds = entry.item.bounds
                change = change.followed(by: entry.place > topPlace
                    ? .drawn(over: entry.place, bounds: bounds) : .repainting(bounds, from: entry.place))
                places[entry.place] = entry.item
                placeByID[entry.item.id] = entry.place
                itemCount += 1
                topPlace = max(topPlace, entry.place)
            }
            return change
        case .remove(let placed):
            var region: ViewRect?
            for entry in placed {
                places[entry.place] = nil
                placeByID[entry.item.id] = nil
                itemCount -= 1
                let bounds = entry.item.bounds
                region = region?.union(bounds) ?? bounds
            }
            // Down to the next item: each place is passed once for each time it was the top.
            while topPlace >= 0 && places[topPlace] == nil { topPlace -= 1 }
            return region.map { .repainting($0, from: placed[0].place) } ?? .nothing
        case .change(let place, let before, let after):
            places[place] = after
            return .repainting(before.bounds.union(after.bounds), from: place)
        case .crop(_, let after):
            crop = after
            return .resized
        }
    }
}
