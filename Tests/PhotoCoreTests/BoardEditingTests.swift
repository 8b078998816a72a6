import Foundation
import PhotoCore
import Testing

/// Selection by hit test, smoothing, the view's mapping, the saved file's name.
@Suite struct BoardEditingTests {
    @Test func aClickWithinToleranceOfAnItemSelectsTheTopmostOne() {
        var board = Board(photoSize: PixelSize(width: 1000, height: 1000))
        let stroke = board.add(line(point(100, 100), point(900, 100), width: 10))
        let frame = board.add(.shape(Shape(.rectangle, from: point(200, 100), to: point(400, 300), width: 6)))
        let text = board.add(.text(TextLabel("Hi", at: point(600, 600), fontSize: 50)))
        let photo = board.add(.photo(InsertedPhoto(reference: PhotoReference("p"), imageSize: PixelSize(width: 100, height: 100),
                                                   placement: Placement(scale: 1, angle: .pi / 4, centre: point(800, 800)))))
        #expect(board.item(at: point(500, 108), tolerance: 4) == stroke)    // 5 from the line + 3
        #expect(board.item(at: point(500, 115), tolerance: 4) == nil)
        #expect(board.item(at: point(300, 100), tolerance: 4) == frame)     // on both: the frame is on top
        #expect(board.item(at: point(300, 200), tolerance: 4) == nil)       // a rectangle's inside is not it
        #expect(board.item(at: point(201, 200), tolerance: 4) == frame)
        #expect(board.item(at: point(610, 620), tolerance: 0) == text)
        #expect(board.item(at: point(800, 868), tolerance: 1) == photo)     // a corner turned down to y ≈ 870.7
        #expect(board.item(at: point(860, 860), tolerance: 1) == nil)
        board.remove([frame])
        #expect(board.item(at: point(300, 100), tolerance: 4) == stroke)
    }

    @Test func smoothingGoesThroughEveryPointAndKeepsTheEnds() {
        let points = [point(0, 0), point(10, 0), point(11, 1), point(30, 40), point(31, 80)]
        let segments = StrokeSmoothing.segments(through: points)
        #expect(segments.count == 4)
        #expect(segments.first?.start == points.first && segments.last?.end == points.last)
        for (segment, (a, b)) in zip(segments, zip(points, points.dropFirst())) {
            #expect(segment.start == a && segment.end == b)
        }
        // Consecutive pieces join smoothly: the same tangent's direction at each inner point.
        for (a, b) in zip(segments, segments.dropFirst()) {
            let out = a.end - a.control2, into = b.control1 - b.start
            #expect(abs(out.x * into.y - out.y * into.x) < 1e-9 * max(1, out.length * into.length))
            #expect(out.x * into.x + out.y * into.y >= 0)
        }
        // No loops or wide overshoot where spacing is uneven: the curve stays within a pixel
        // or two of the points' hull.
        let curve = segments.flatMap { $0.flattened(spacing: 0.5) }
        #expect(curve.allSatisfy { $0.x >= -1 && $0.x <= 32.5 && $0.y >= -1 && $0.y <= 81 })
        #expect(StrokeSmoothing.segments(through: [point(3, 3)]).isEmpty)
    }

    @Test func slowMotionMovesTheLastPointSoTheStrokeEndsUnderThePointer() {
        var stroke = Stroke(width: 4, start: StrokePoint(point(0, 0)))
        stroke.extend(to: StrokePoint(point(10, 0)), minimumSpacing: 2)
        stroke.extend(to: StrokePoint(point(10.5, 0)), minimumSpacing: 2)
        stroke.extend(to: StrokePoint(point(10.9, 0.2), pressure: 0.5), minimumSpacing: 2)
        #expect(stroke.points.count == 3)
        #expect(stroke.points.last?.point == point(10.9, 0.2) && stroke.curve.last?.end == point(10.9, 0.2))
        #expect(stroke.hasPressure && stroke.width(atPressure: 0.5) == 2.5 && stroke.width(atPressure: nil) == 4)
    }

    @Test func widgetPointsBecomeBoardPixelsAtAnyZoomAndAfterACrop() {
        var board = Board(photoSize: PixelSize(width: 6000, height: 4000))
        var view = BoardView(board: board, viewport: ViewSize(width: 1200, height: 800))
        #expect(abs(view.scale - 0.2) < 1e-12)
        // At the fit, the widget's centre (scale factor 2: 600×400 logical) is the board's.
        let centre = view.boardPoint(forWidgetPoint: point(300, 200), scaleFactor: 2)
        #expect(abs(centre.x - 3000) < 1e-9 && abs(centre.y - 2000) < 1e-9)
        // At 100%, panned: a device pixel is a board pixel.
        view.transform.zoom(to: 1, around: point(0, 0))
        view.transform.pan(by: point(-500, -300))
        let a = view.boardPoint(forDevicePoint: point(100, 100)), b = view.boardPoint(forDevicePoint: point(101, 100))
        #expect(abs(b.x - a.x - 1) < 1e-9)
        let back = view.devicePoint(forBoardPoint: a)
        #expect(abs(back.x - 100) < 1e-9 && abs(back.y - 100) < 1e-9)
        #expect(abs(view.boardLength(forDevicePixels: 6) - 6) < 1e-12)
        // Cropped: the view shows the crop, points stay in the photo's pixels.
        board.crop(to: ViewRect(origin: point(1000, 1000), size: ViewSize(width: 1200, height: 800)))
        #expect(!view.shows(board))
        view = BoardView(board: board, viewport: ViewSize(width: 1200, height: 800))
        #expect(view.shows(board) && view.scale == 1)
        #expect(view.boardPoint(forDevicePoint: point(0, 0)) == point(1000, 1000))
        #expect(view.visibleRect == board.crop)
    }

    @Test func aRasterForTheViewCoversItAtItsScaleAlignedToDevicePixels() {
        let board = Board(photoSize: PixelSize(width: 6000, height: 4000))
        var view = BoardView(board: board, viewport: ViewSize(width: 1200, height: 800))
        let fitted = BoardRaster.forView(view)
        #expect(fitted.size == PixelSize(width: 1200, height: 800) && fitted.origin == .zero && fitted.covers(view))
        view.transform.zoom(to: 1, around: point(600, 400))
        let raster = BoardRaster.forView(view, margin: 0.25)
        #expect(raster.size == PixelSize(width: 1800, height: 1200) && raster.covers(view))
        view.transform.pan(by: point(100, 0))
        #expect(raster.covers(view))
        view.transform.pan(by: point(400, 0))
        #expect(!raster.covers(view))
        #expect(BoardRaster.whole(board).size == PixelSize(width: 6000, height: 4000))
    }

    @Test func theSavedNameIsBesideTheOriginalAndNeverOneTaken() {
        #expect(MarkedUpName.name(for: "IMG_0042.jpg") { _ in false } == "IMG_0042 (marked up).jpg")
        var taken: Set<String> = ["IMG_0042 (marked up).jpg", "IMG_0042 (marked up 2).jpg"]
        #expect(MarkedUpName.name(for: "IMG_0042.jpg") { taken.contains($0) } == "IMG_0042 (marked up 3).jpg")
        taken.insert("IMG_0042 (marked up 3).jpg")
        let name = MarkedUpName.name(for: "IMG_0042.jpg") { taken.contains($0) }
        #expect(name.map { !taken.contains($0) } == true)
        #expect(MarkedUpName.name(for: "IMG_0042.HEIC", extension: "jpg") { _ in false } == "IMG_0042 (marked up).jpg")
        #expect(MarkedUpName.name(for: ".hidden") { _ in false } == ".hidden (marked up)")
        #expect(MarkedUpName.name(for: "a.b.png") { _ in false } == "a.b (marked up).png")
        #expect(MarkedUpName.name(for: "x.png") { _ in true } == nil)
        // Bytes that are not UTF-8 stay as they are.
        let latin1: [UInt8] = [0x43, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67]  // "Café.jpg" in Latin-1
        let candidates = Array(MarkedUpName.candidates(for: latin1).prefix(2))
        #expect(candidates[0] == [0x43, 0x61, 0x66, 0xE9] + Array(" (marked up).jpg".utf8))
        #expect(candidates[1] == [0x43, 0x61, 0x66, 0xE9] + Array(" (marked up 2).jpg".utf8))
        #expect(Array(MarkedUpName.drawingCandidates(extension: "png").prefix(2)) == ["Drawing.png", "Drawing 2.png"])
    }

    @Test func theExifBlockIsFoundAmongAJPEGsSegments() {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x06, 0x4A, 0x46, 0x49, 0x46]
        let xmp: [UInt8] = [0xFF, 0xE1, 0x00, 0x06] + Array("http".utf8)
        let exif = JPEGExif.header + [0x4D, 0x4D, 0x00, 0x2A]
        let app1: [UInt8] = [0xFF, 0xE1, 0x00, UInt8(exif.count + 2)] + exif
        let jpeg: [UInt8] = [0xFF, 0xD8] + app0 + xmp + app1 + [0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22]
        #expect(JPEGExif.block(in: jpeg) == exif)
        #expect(JPEGExif.block(in: [0xFF, 0xD8] + app0 + [0xFF, 0xDA, 0, 2]) == nil)
        #expect(JPEGExif.block(in: Array("GIF89a".utf8)) == nil)
        #expect(JPEGExif.block(in: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF]) == nil)  // a length past the end
    }
}
