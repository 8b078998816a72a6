import CCairo
import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// An RGB photo whose pixel (x, y) is `colour(x)` on every row.
func stripedPhoto(width: Int, height: Int, colour: (Int) -> (UInt8, UInt8, UInt8)) -> DecodedImage {
    let stride = width * 3
    let pixels = PixelBuffer(count: stride * height) { storage in
        let bytes = storage.assumingMemoryBound(to: UInt8.self)
        for x in 0..<width {
            let (r, g, b) = colour(x)
            bytes[3 * x] = r; bytes[3 * x + 1] = g; bytes[3 * x + 2] = b
        }
        for y in 1..<height { (bytes + y * stride).update(from: bytes, count: stride) }
    }
    let size = PixelSize(width: width, height: height)
    return DecodedImage(size: size, stride: stride, hasAlpha: false, pixels: pixels, sourceSize: size, format: "jpeg")
}

/// An RGB photo filled with `colour(x, y)`.
func photo(width: Int, height: Int, colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> DecodedImage {
    let stride = width * 3
    let pixels = PixelBuffer(count: stride * height) { storage in
        let bytes = storage.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                let p = bytes + y * stride + 3 * x
                p[0] = r; p[1] = g; p[2] = b
            }
        }
    }
    let size = PixelSize(width: width, height: height)
    return DecodedImage(size: size, stride: stride, hasAlpha: false, pixels: pixels, sourceSize: size, format: "png")
}

extension PremultipliedImage {
    /// The pixel at (x, y) as (r, g, b), premultiplied as stored.
    func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let word = pixels.bytes.advanced(by: y * stride + x * 4).assumingMemoryBound(to: UInt32.self).pointee
        return (Int((word >> 16) & 0xFF), Int((word >> 8) & 0xFF), Int(word & 0xFF))
    }

    func pixel(_ x: Int, _ y: Int, isNear colour: DrawingColour, tolerance: Int = 2) -> Bool {
        let (r, g, b) = rgb(x, y)
        return abs(r - Int(colour.r)) <= tolerance && abs(g - Int(colour.g)) <= tolerance && abs(b - Int(colour.b)) <= tolerance
    }

    /// How many pixels differ from `other`'s, and by how much at most in a channel.
    func difference(from other: PremultipliedImage) -> (pixels: Int, most: Int) {
        var count = 0, most = 0
        for y in 0..<size.height { for x in 0..<size.width {
            let a = rgb(x, y), b = other.rgb(x, y)
            let d = max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
            if d > 0 { count += 1; most = max(most, d) }
        } }
        return (count, most)
    }

}

func stroke(_ points: [ViewPoint], colour: DrawingColour, width: Double, tool: Stroke.Tool = .pen) -> BoardItem.Content {
    var stroke = Stroke(tool: tool, colour: colour, width: width, start: StrokePoint(points[0]))
    for p in points.dropFirst() { stroke.extend(to: StrokePoint(p)) }
    return .stroke(stroke)
}

private func at(_ x: Double, _ y: Double) -> ViewPoint { ViewPoint(x: x, y: y) }

/// The renderer for real: pixels of a board drawn on a known photo.
@Suite struct BoardRenderingTests {
    private let grey = (UInt8(0x80), UInt8(0x70), UInt8(0x60))

    @Test func aStrokeIsItsColourWhereItWasDrawnAndThePhotoIsEverywhereElse() {
        let images = BoardImages(photo: BoardPhoto(stripedPhoto(width: 400, height: 300) { _ in grey }))
        var board = Board(photoSize: PixelSize(width: 400, height: 300))
        board.add(stroke([at(50, 150), at(200, 150), at(350, 150)], colour: .green, width: 10))
        let image = BoardSaving.renderedImage(board, images: images)
        #expect(image.size == PixelSize(width: 400, height: 300))
        let photoColour = DrawingColour(r: grey.0, g: grey.1, b: grey.2)
        for x in [60, 200, 340] {
            #expect(image.pixel(x, 150, isNear: .green) && image.pixel(x, 146, isNear: .green) && image.pixel(x, 153, isNear: .green))
            #expect(image.pixel(x, 157, isNear: photoColour) && image.pixel(x, 100, isNear: photoColour))
        }
        #expect(image.pixel(30, 150, isNear: photoColour) && image.pixel(370, 150, isNear: photoColour))

        // On screen at half size, fitted in a 200×150 viewport: the same place, scaled.
        let view = BoardView(board: board, viewport: ViewSize(width: 200, height: 150))
        let rendered = RenderedBoard(images: images)
        rendered.update(board, for: view)
        let picture = rendered.picture!
        #expect(picture.size == PixelSize(width: 200, height: 150))
        #expect(picture.pixel(100, 75, isNear: .green) && picture.pixel(100, 50, isNear: photoColour))
    }

    @Test func onScreenAtAnyZoomAndPanTheStrokeIsUnderThePointsItWasDrawnThrough() {
        let images = BoardImages(photo: BoardPhoto(stripedPhoto(width: 1600, height: 1200) { _ in grey }))
        var board = Board(photoSize: PixelSize(width: 1600, height: 1200))
        var view = BoardView(board: board, viewport: ViewSize(width: 640, height: 480))
        // Drawn at the fit (0.4) through widget points, with a scale factor of 2.
        let widget = [at(40, 60), at(160, 120), at(300, 200)]
        let points = widget.map { view.boardPoint(forWidgetPoint: $0, scaleFactor: 2) }
        board.add(stroke(points, colour: .blue, width: 12))
        let rendered = RenderedBoard(images: images)
        let photoColour = DrawingColour(r: grey.0, g: grey.1, b: grey.2)
        func screen() -> PremultipliedImage {
            rendered.update(board, for: view)
            // The widget is 320×240 logical pixels; its cairo context has the device scale.
            return PremultipliedImage.drawn(size: PixelSize(width: 640, height: 480), isOpaque: true) { cr in
                cairo_scale(cr, 2, 2)
                rendered.paint(on: cr, view: view, scaleFactor: 2)
            }
        }
        var shown = screen()
        for p in widget { #expect(shown.pixel(Int(p.x * 2), Int(p.y * 2), isNear: .blue)) }
        #expect(shown.pixel(Int(widget[1].x * 2), Int(widget[1].y * 2) + 12, isNear: photoColour))
        // At 100%, panned: the same board points, wherever they now are on screen.
        view.transform.zoom(to: 1, around: view.devicePoint(forBoardPoint: points[1]))
        view.transform.pan(by: at(-37.5, 22.25))
        shown = screen()
        let screenRect = ViewRect(origin: .zero, size: ViewSize(width: 639, height: 469))
        let onScreen = points.map { view.devicePoint(forBoardPoint: $0) }.filter { screenRect.contains($0) }
        #expect(!onScreen.isEmpty)
        for device in onScreen {
            #expect(shown.pixel(Int(device.x), Int(device.y), isNear: .blue))
            #expect(shown.pixel(Int(device.x), Int(device.y) + 9, isNear: photoColour))
        }
        #expect(rendered.raster?.scale == 1)
    }

    @Test func pixelationShowsThePhotoInBlocksUnderTheBrushOnly() {
        // A fine checkerboard that blocks of an even size average to an even mix.
        let checker = photo(width: 640, height: 480) { x, y in (x / 2 + y / 2) % 2 == 0 ? (250, 20, 20) : (20, 20, 250) }
        let images = BoardImages(photo: BoardPhoto(checker))
        var board = Board(photoSize: PixelSize(width: 640, height: 480))
        let block = Int(board.pixelBlockSize)
        #expect(block == 12)
        board.add(.pixelation(Pixelation(width: 80, points: [at(100, 240), at(540, 240)])))
        let image = BoardSaving.renderedImage(board, images: images)
        // Blocks wholly under the brush (x 100…540, y 200…280): one colour each, the mean.
        func starts(_ from: Int, _ to: Int) -> StrideThrough<Int> { stride(from: (from + block - 1) / block * block, through: to - block, by: block) }
        #expect(Array(starts(200, 280)).count == 6)
        for blockX in starts(100, 540) {
            for blockY in starts(200, 280) {
                let first = image.rgb(blockX, blockY)
                #expect(abs(first.r - 135) <= 2 && abs(first.b - 135) <= 2 && abs(first.g - 20) <= 1)
                for dy in 0..<block { for dx in 0..<block where image.rgb(blockX + dx, blockY + dy) != first {
                    Issue.record("block at \(blockX), \(blockY) is not one colour")
                } }
            }
        }
        // Away from the brush, the checkerboard as it was.
        for (x, y) in [(50, 240), (320, 150), (320, 330), (600, 240)] {
            let expected = (x / 2 + y / 2) % 2 == 0 ? DrawingColour(r: 250, g: 20, b: 20) : DrawingColour(r: 20, g: 20, b: 250)
            #expect(image.pixel(x, y, isNear: expected, tolerance: 0))
        }
    }

    @Test func theHighlighterDarkensWhatIsUnderItAndTextShowsInAnyScript() {
        let images = BoardImages(photo: BoardPhoto(stripedPhoto(width: 600, height: 300) { x in x < 300 ? (255, 255, 255) : (40, 40, 40) }))
        var board = Board(photoSize: PixelSize(width: 600, height: 300))
        board.add(stroke([at(20, 50), at(580, 50)], colour: .blue, width: 30, tool: .highlighter))
        let label = BoardText.laidOut(TextLabel("你好 Hi", at: at(40, 150), fontSize: 60, colour: .red))
        #expect(label.box.width > 100 && label.box.height > 50)
        #expect(BoardText.missingGlyphs("你好") == 0, "no font for Chinese: install fonts-droid-fallback")
        board.add(.text(label))
        let image = BoardSaving.renderedImage(board, images: images)
        // Over white: half the way to the blue. Over the dark half: darker still, never lighter.
        let light = image.rgb(150, 50), dark = image.rgb(450, 50)
        #expect(abs(light.r - (255 + 0x19) / 2) <= 2 && abs(light.b - (255 + 0xFC) / 2) <= 2)
        #expect(dark.r <= 40 && dark.g <= 40 && dark.b <= 40 && dark.r < 30)
        // The text: red pixels inside its box, none below it.
        var red = 0
        for y in 150..<Int(150 + label.box.height) { for x in 40..<Int(40 + label.box.width) where image.pixel(x, y, isNear: .red, tolerance: 8) { red += 1 } }
        #expect(red > 500)
        #expect(!(0..<600).contains { image.pixel($0, 290, isNear: .red, tolerance: 40) })
    }

    @Test func anInsertedPhotoIsDrawnTurnedAndScaledWhereItWasFixed() {
        let inserted = BoardPhoto(stripedPhoto(width: 100, height: 50) { _ in (0x3D, 0xC9, 0x2A) })
        let reference = PhotoReference("pasted")
        let images = BoardImages(photo: BoardPhoto(stripedPhoto(width: 800, height: 800) { _ in (255, 255, 255) }), inserted: [reference: inserted])
        var board = Board(photoSize: PixelSize(width: 800, height: 800))
        board.floatingPhoto = FloatingPhoto(reference: reference, imageSize: inserted.size, placement: Placement(scale: 3, angle: .pi / 2, centre: at(400, 400)))
        board.fixFloatingPhoto()
        let image = BoardSaving.renderedImage(board, images: images)
        // 300×150 turned a quarter: 150 across, 300 down.
        #expect(image.pixel(400, 400, isNear: .green) && image.pixel(400, 260, isNear: .green) && image.pixel(335, 400, isNear: .green))
        #expect(image.pixel(400, 240, isNear: .white) && image.pixel(320, 400, isNear: .white) && image.pixel(500, 300, isNear: .white))
    }

    @Test func thePictureKeptForTheScreenIsAlwaysWhatRenderingItAllGives() {
        let images = BoardImages(photo: BoardPhoto(photo(width: 800, height: 600) { x, y in (UInt8(x % 256), UInt8(y % 256), 128) }))
        var board = Board(photoSize: PixelSize(width: 800, height: 600))
        let view = BoardView(board: board, viewport: ViewSize(width: 800, height: 600))
        let rendered = RenderedBoard(images: images)
        rendered.update(board, for: view)
        let colours = DrawingColour.presets + [DrawingColour(r: 200, g: 200, b: 0, a: 128)]
        for i in 0..<500 {
            let x = Double((i * 37) % 700), y = Double((i * 53) % 520)
            let tool: Stroke.Tool = i % 7 == 0 ? .highlighter : .pen
            board.add(stroke([at(x, y), at(x + 40, y + 30), at(x + 90, y + 10)], colour: colours[i % 4], width: 6, tool: tool))
            let work = rendered.update(board, for: view)
            #expect(work.itemsDrawn == 1 && !work.renderedAll, "adding a stroke draws that stroke alone")
        }
        func check(_ step: String, maximumDrawn: Int) {
            let work = rendered.update(board, for: view)
            #expect(!work.renderedAll && work.itemsDrawn <= maximumDrawn, "\(step): drew \(work.itemsDrawn) items")
            let fresh = PremultipliedImage.drawn(size: rendered.raster!.size, isOpaque: true) {
                BoardRenderer.render(board, images: images, on: $0, raster: rendered.raster!)
            }
            // cairo's rasterisers may round an antialiased edge pixel a few levels apart when
            // an item is drawn within a repainted region's clip; a stale or missed item
            // would differ by its whole colour over many pixels.
            let difference = rendered.picture!.difference(from: fresh)
            #expect(difference.pixels <= 200 && difference.most <= 10, "\(step): the kept picture differs from a fresh rendering: \(difference)")
        }
        check("500 strokes", maximumDrawn: 0)
        board.undo()
        check("undo of the last of 500", maximumDrawn: rendered.spacing * 2)
        board.redo()
        check("redo", maximumDrawn: 1)
        for _ in 0..<40 { board.undo() }
        _ = rendered.update(board, for: view)
        board.undo()
        check("undo below a checkpoint", maximumDrawn: rendered.spacing * 2)
        let early = board.items[3].id
        board.move(early, by: at(25, 40))
        check("an early item moved", maximumDrawn: 120)
        board.recolour(board.items[200].id, to: .blue)
        check("a recolour", maximumDrawn: 120)
        board.clear()
        check("clear", maximumDrawn: 0)
        board.undo()
        check("clear undone", maximumDrawn: 1000)
        board.erase(at: at(300, 300), radius: 20)
        check("an erasure", maximumDrawn: 200)
        board.add(.shape(Shape(.arrow, from: at(10, 10), to: at(500, 400), colour: .red, width: 8)))
        board.add(.text(BoardText.laidOut(TextLabel("Hello", at: at(100, 500), fontSize: 40))))
        check("an arrow and a text", maximumDrawn: 2)
    }
}
