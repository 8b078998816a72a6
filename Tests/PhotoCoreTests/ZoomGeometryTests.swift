import PhotoCore
import Testing

/// 24 MP, landscape.
private let landscape = PixelSize(width: 6000, height: 4000)
private let portrait = PixelSize(width: 4000, height: 6000)
private let viewport = ViewSize(width: 1280, height: 800)

private func close(_ a: Double, _ b: Double, within tolerance: Double = 1e-6) -> Bool {
    abs(a - b) <= tolerance
}

private func close(_ a: ViewPoint, _ b: ViewPoint, within tolerance: Double = 1e-6) -> Bool {
    close(a.x, b.x, within: tolerance) && close(a.y, b.y, within: tolerance)
}

private func close(_ a: ViewRect, _ b: ViewRect, within tolerance: Double = 1e-6) -> Bool {
    close(a.origin, b.origin, within: tolerance)
        && close(a.size.width, b.size.width, within: tolerance) && close(a.size.height, b.size.height, within: tolerance)
}

private func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> ViewRect {
    ViewRect(origin: ViewPoint(x: x, y: y), size: ViewSize(width: width, height: height))
}

/// The viewport's corners, centre and a few points between.
private let viewportPoints = [
    ViewPoint(x: 0, y: 0), ViewPoint(x: 1280, y: 0), ViewPoint(x: 0, y: 800), ViewPoint(x: 1280, y: 800),
    ViewPoint(x: 640, y: 400), ViewPoint(x: 100, y: 700), ViewPoint(x: 1000, y: 123.5),
]

@Suite struct ZoomGeometryTests {
    // MARK: Fit

    @Test func fitsALandscapePhotoToTheViewportHeight() {
        let view = ViewTransform(imageSize: landscape, viewport: viewport)
        #expect(view.fitScale == 0.2)
        #expect(view.scale == 0.2)
        #expect(view.isFitted)
        #expect(close(view.imageRect, rect(40, 0, 1200, 800)))
    }

    @Test func fitsAPortraitPhotoToTheViewportHeight() {
        let view = ViewTransform(imageSize: portrait, viewport: viewport)
        #expect(close(view.fitScale, 800.0 / 6000))
        #expect(close(view.imageRect, rect((1280 - 4000.0 * 800 / 6000) / 2, 0, 4000.0 * 800 / 6000, 800)))
    }

    @Test func fitsAWidePanoramaToTheViewportWidth() {
        let view = ViewTransform(imageSize: PixelSize(width: 12800, height: 2000), viewport: viewport)
        #expect(view.fitScale == 0.1)
        #expect(close(view.imageRect, rect(0, 300, 1280, 200)))
    }

    @Test func fitsARotatedPhotoByItsTurnedSize() {
        let turned = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 1)
        let upright = ViewTransform(imageSize: portrait, viewport: viewport)
        #expect(turned.rotatedImageSize == ViewSize(width: 4000, height: 6000))
        #expect(close(turned.fitScale, upright.fitScale))
        #expect(close(turned.imageRect, upright.imageRect))
        #expect(ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 2).fitScale == 0.2)
        #expect(ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: -1).quarterTurns == 3)
    }

    @Test func showsASmallImageAtActualSizeNotBlownUp() {
        let view = ViewTransform(imageSize: PixelSize(width: 640, height: 480), viewport: viewport)
        #expect(view.fitScale == 1)
        #expect(view.isFitted && view.isActualSize)
        #expect(close(view.imageRect, rect(320, 160, 640, 480)))
    }

    @Test func anUnallocatedViewportFitsAtOneAndRefitsWhenSized() {
        var view = ViewTransform(imageSize: landscape, viewport: .zero)
        #expect(view.fitScale == 1)
        view.resize(to: viewport)
        #expect(view.isFitted)
        #expect(view.scale == 0.2)
        #expect(ViewTransform(imageSize: PixelSize(width: 0, height: 0), viewport: viewport).fitScale == 1)
    }

    // MARK: Mapping

    @Test func imageCornersMapToTheRectCornersForEachRotation() {
        let w = 6000.0, h = 4000.0
        let topLeft = ViewPoint.zero, topRight = ViewPoint(x: w, y: 0)
        for turns in 0...3 {
            let view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: turns)
            let r = view.imageRect
            let corners = [ViewPoint(x: r.minX, y: r.minY), ViewPoint(x: r.maxX, y: r.minY),
                           ViewPoint(x: r.maxX, y: r.maxY), ViewPoint(x: r.minX, y: r.maxY)]
            // Clockwise turns carry the top-left corner clockwise round the rect.
            #expect(close(view.viewportPoint(forImagePoint: topLeft), corners[turns]))
            #expect(close(view.viewportPoint(forImagePoint: topRight), corners[(turns + 1) % 4]))
            #expect(close(view.viewportPoint(forImagePoint: ViewPoint(x: w / 2, y: h / 2)), r.center))
        }
    }

    @Test func mappingRoundTripsForEachRotation() {
        for turns in 0...3 {
            var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: turns)
            view.zoom(to: 0.7, around: ViewPoint(x: 300, y: 200))
            for point in viewportPoints {
                let image = view.imagePoint(forViewportPoint: point)
                #expect(close(view.viewportPoint(forImagePoint: image), point))
            }
        }
    }

    // MARK: Zoom

    @Test func zoomingKeepsThePointUnderThePointerFixed() {
        for turns in 0...3 {
            for point in viewportPoints {
                var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: turns, scale: 1,
                                         pan: ViewPoint(x: 310, y: -220))
                let before = view.imagePoint(forViewportPoint: point)
                view.zoom(by: 1.5, around: point)
                #expect(view.scale == 1.5)
                #expect(close(view.imagePoint(forViewportPoint: point), before), "turns \(turns) at \(point)")
                view.zoom(to: 3.25, around: point)
                #expect(close(view.imagePoint(forViewportPoint: point), before), "turns \(turns) at \(point)")
            }
        }
    }

    @Test func zoomingInFromTheFitAtTheImageCornersKeepsThem() {
        // The image has the viewport's shape, so at the fit its corners are the viewport's.
        for turns in 0...3 {
            let size = turns % 2 == 0 ? PixelSize(width: 3200, height: 2000) : PixelSize(width: 2000, height: 3200)
            let fitted = ViewTransform(imageSize: size, viewport: viewport, quarterTurns: turns)
            #expect(fitted.fitScale == 0.4)
            let corners = [ViewPoint.zero, ViewPoint(x: Double(size.width), y: 0),
                           ViewPoint(x: 0, y: Double(size.height)), ViewPoint(x: Double(size.width), y: Double(size.height))]
            for corner in corners {
                var view = fitted
                let at = view.viewportPoint(forImagePoint: corner)
                view.zoom(by: 2, around: at)
                #expect(close(view.viewportPoint(forImagePoint: corner), at), "turns \(turns), corner \(corner)")
            }
        }
    }

    @Test func zoomingFromTheFitAroundAPointOnALetterboxedImage() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport)
        let point = ViewPoint(x: 100, y: 100)
        let before = view.imagePoint(forViewportPoint: point)
        #expect(close(before, ViewPoint(x: 300, y: 500)))
        view.zoom(to: 1, around: point)
        #expect(close(view.imagePoint(forViewportPoint: point), before))
    }

    @Test func zoomIsClampedBetweenTheFitAndTwentyTimes() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport)
        view.zoom(by: 0.5, around: ViewPoint(x: 10, y: 10))
        #expect(view.isFitted)
        #expect(view.pan == .zero)
        view.zoom(to: 1000, around: ViewPoint(x: 10, y: 10))
        #expect(view.scale == ZoomGeometry.maximumScale)
        #expect(view.maximumScale == 20)
        view.zoom(to: .nan, around: .zero)
        #expect(view.scale == 20)
        // A small image cannot be zoomed out below 100%, its fit.
        var small = ViewTransform(imageSize: PixelSize(width: 300, height: 200), viewport: viewport)
        small.zoom(by: 0.5, around: ViewPoint(x: 640, y: 400))
        #expect(small.scale == 1)
    }

    @Test func zoomingOutKeepsTheImageInView() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 0, scale: 2, pan: ViewPoint(x: 5000, y: 3000))
        view.zoom(to: 0.5, around: ViewPoint(x: 1280, y: 800))
        let r = view.imageRect
        #expect(r.minX <= 0 && r.maxX >= 1280 && r.minY <= 0 && r.maxY >= 800)
        view.zoom(to: 0.21, around: ViewPoint(x: 0, y: 0))
        // 1260 wide: centred across; 840 high: no gap above or below.
        #expect(close(view.imageRect.center.x, 640))
        #expect(view.imageRect.minY <= 0 && view.imageRect.maxY >= 800)
    }

    // MARK: Pan

    @Test func panDoesNothingWhenTheImageFitsBothWays() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport)
        view.pan(by: ViewPoint(x: 300, y: -200))
        #expect(view.pan == .zero)
        #expect(view.isFitted)
    }

    @Test func panCentresTheNarrowAxisAndClampsTheWideOne() {
        // 800×1200 at 0.2: narrower than the viewport, taller.
        var view = ViewTransform(imageSize: portrait, viewport: viewport, quarterTurns: 0, scale: 0.2, pan: .zero)
        view.pan(by: ViewPoint(x: 500, y: 500))
        #expect(view.pan == ViewPoint(x: 0, y: 200))
        #expect(close(view.imageRect, rect(240, 0, 800, 1200)))
        view.pan(by: ViewPoint(x: -500, y: -1000))
        #expect(view.pan == ViewPoint(x: 0, y: -200))
        #expect(close(view.imageRect.maxY, 800))
        view.pan(by: ViewPoint(x: 0, y: 150))
        #expect(view.pan == ViewPoint(x: 0, y: -50))
    }

    @Test func panStopsAtTheEdgesOnBothAxesWhenTheImageIsLarger() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 0, scale: 1, pan: .zero)
        view.pan(by: ViewPoint(x: 100_000, y: 100_000))
        #expect(view.imageRect.origin == .zero)
        view.pan(by: ViewPoint(x: -100_000, y: -100_000))
        #expect(view.imageRect.maxX == 1280 && view.imageRect.maxY == 800)
        view.pan(by: ViewPoint(x: 60, y: 40))
        #expect(view.imageRect.maxX == 1340 && view.imageRect.maxY == 840)
    }

    @Test func theImageNeverDriftsOutOfView() {
        var generator = SeededGenerator(seed: 3)
        var view = ViewTransform(imageSize: landscape, viewport: viewport)
        for _ in 0..<1000 {
            let point = ViewPoint(x: Double.random(in: -200...1500, using: &generator), y: Double.random(in: -200...1000, using: &generator))
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: view.zoom(by: Double.random(in: 0.3...3, using: &generator), around: point)
            case 1: view.pan(by: ViewPoint(x: Double.random(in: -3000...3000, using: &generator), y: Double.random(in: -3000...3000, using: &generator)))
            case 2: view.rotate(by: Int.random(in: -3...3, using: &generator))
            default: view.resize(to: ViewSize(width: Double.random(in: 200...2000, using: &generator), height: Double.random(in: 200...1500, using: &generator)))
            }
            let r = view.imageRect, v = view.viewport
            for (low, high, length) in [(r.minX, r.maxX, v.width), (r.minY, r.maxY, v.height)] {
                if high - low <= length + 1e-6 {
                    #expect(close(low + high, length, within: 1e-6))  // centred
                } else {
                    #expect(low <= 1e-6 && high >= length - 1e-6)  // no gap
                }
            }
            #expect(view.scale >= view.minimumScale && view.scale <= view.maximumScale)
        }
    }

    // MARK: Double click

    @Test func doubleClickGoesToActualSizeUnderThePointerAndBack() {
        let fitted = ViewTransform(imageSize: landscape, viewport: viewport)
        var view = fitted
        let point = ViewPoint(x: 900, y: 300)
        let under = view.imagePoint(forViewportPoint: point)
        view.toggleFitAndActualSize(at: point)
        #expect(view.isActualSize && !view.isFitted)
        #expect(close(view.imagePoint(forViewportPoint: point), under))
        view.toggleFitAndActualSize(at: point)
        #expect(view == fitted)
    }

    @Test func doubleClickWhenZoomedElsewhereFits() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 1, scale: 3, pan: ViewPoint(x: 99, y: 99))
        view.toggleFitAndActualSize(at: ViewPoint(x: 5, y: 5))
        #expect(view.isFitted)
        #expect(view.pan == .zero)
    }

    @Test func doubleClickOnASmallImageDoublesIt() {
        var view = ViewTransform(imageSize: PixelSize(width: 640, height: 480), viewport: viewport)
        view.toggleFitAndActualSize(at: ViewPoint(x: 640, y: 400))
        #expect(view.scale == 2)
        view.toggleFitAndActualSize(at: ViewPoint(x: 640, y: 400))
        #expect(view.scale == 1 && view.isFitted)
    }

    @Test func doubleClickWorksOnARotatedImage() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 3)
        let point = ViewPoint(x: 700, y: 650)
        let under = view.imagePoint(forViewportPoint: point)
        view.toggleFitAndActualSize(at: point)
        #expect(view.isActualSize)
        #expect(close(view.imagePoint(forViewportPoint: point), under))
    }

    // MARK: Rotation

    @Test func rotatingAFittedImageRefitsIt() {
        let view = ViewTransform(imageSize: landscape, viewport: viewport)
        let turned = view.rotated(by: 1)
        #expect(turned.quarterTurns == 1)
        #expect(turned.isFitted)
        #expect(close(turned.scale, 800.0 / 6000))
        #expect(close(turned.imageRect.center, ViewPoint(x: 640, y: 400)))
        #expect(view.rotated(by: -1).quarterTurns == 3)
        #expect(view.rotated(by: 4) == view)
        #expect(turned.rotated(by: 3) == view)
    }

    @Test func rotatingAZoomedImageKeepsTheCentrePointAndScale() {
        for turns in [1, 2, 3, -1] {
            var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 0, scale: 1, pan: ViewPoint(x: 100, y: 50))
            let centre = viewport.center
            let before = view.imagePoint(forViewportPoint: centre)
            view.rotate(by: turns)
            #expect(view.scale == 1)
            #expect(close(view.imagePoint(forViewportPoint: centre), before), "turns \(turns)")
        }
    }

    @Test func rotatingClampsAScaleBelowTheNewFit() {
        // 0.19 is above the fit while turned (0.133) and below it upright (0.2).
        var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 1, scale: 0.19, pan: .zero)
        #expect(!view.isFitted)
        view.rotate(by: 1)
        #expect(view.isFitted && view.scale == 0.2)
    }

    @Test func rotatedAndRotateAgree() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 0, scale: 0.8, pan: ViewPoint(x: -120, y: 33))
        let copy = view.rotated(by: 3)
        view.rotate(by: 3)
        #expect(view == copy)
    }

    @Test func snapsAGestureAngleToTheNearestQuarterTurn() {
        func degrees(_ d: Double) -> Double { d * Double.pi / 180 }
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: 0) == 0)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: degrees(44)) == 0)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: degrees(46)) == 1)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: degrees(-44)) == 0)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: degrees(-46)) == -1)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: degrees(134)) == 1)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: degrees(136)) == 2)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: degrees(-181)) == -2)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: degrees(365)) == 4)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: .nan) == 0)
        #expect(ZoomGeometry.snappedQuarterTurns(forAngle: .infinity) == 0)
        #expect(ViewTransform(imageSize: landscape, viewport: viewport)
            .rotated(by: ZoomGeometry.snappedQuarterTurns(forAngle: degrees(-100))).quarterTurns == 3)
    }

    // MARK: Resizing

    @Test func resizingKeepsAFittedImageFitted() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport)
        view.resize(to: ViewSize(width: 3000, height: 3000))
        #expect(view.isFitted && view.scale == 0.5)
    }

    @Test func resizingAZoomedImageKeepsTheCentrePoint() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 0, scale: 1, pan: ViewPoint(x: 200, y: -100))
        let before = view.imagePoint(forViewportPoint: viewport.center)
        let bigger = ViewSize(width: 1920, height: 1080)
        view.resize(to: bigger)
        #expect(view.scale == 1)
        #expect(close(view.imagePoint(forViewportPoint: bigger.center), before))
    }

    // MARK: Decoding

    @Test func decodesAtTheFittedSizeWhenFitted() {
        for turns in 0...3 {
            let view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: turns)
            let size = view.decodeSize(for: view.scale)
            let shown = view.imageRect.size
            let (width, height) = turns % 2 == 0 ? (shown.width, shown.height) : (shown.height, shown.width)
            #expect(abs(Double(size.width) - width) <= 1 && abs(Double(size.height) - height) <= 1, "turns \(turns): \(size)")
            #expect(!view.needsSharperImage(decoded: size))
        }
        #expect(ViewTransform(imageSize: landscape, viewport: viewport).decodeSize(for: 0.2) == PixelSize(width: 1200, height: 800))
    }

    @Test func decodesAtFullResolutionWhenZoomedIn() {
        let view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 0, scale: 2, pan: .zero)
        #expect(view.decodeSize(for: view.scale) == landscape)
        #expect(view.decodeSize(for: 1) == landscape)
        #expect(view.decodeSize(for: 0.25) == landscape)
    }

    @Test func aSmallImageDecodesWhole() {
        let small = PixelSize(width: 640, height: 480)
        let view = ViewTransform(imageSize: small, viewport: viewport)
        #expect(view.decodeSize(for: view.scale) == small)
        #expect(view.decodeSize(for: 4) == small)
    }

    @Test func theFitDecodeBoxGivesTheFitSizeForAnUnknownImage() {
        #expect(ZoomGeometry.fitDecodeBox(viewport: viewport, quarterTurns: 0) == PixelSize(width: 1280, height: 800))
        #expect(ZoomGeometry.fitDecodeBox(viewport: viewport, quarterTurns: 1) == PixelSize(width: 800, height: 1280))
        #expect(ZoomGeometry.fitDecodeBox(viewport: .zero, quarterTurns: 0) == PixelSize(width: 1, height: 1))
        for turns in 0...3 {
            for size in [landscape, portrait, PixelSize(width: 640, height: 480), PixelSize(width: 12800, height: 2000)] {
                let view = ViewTransform(imageSize: size, viewport: viewport, quarterTurns: turns)
                let decoded = size.fitting(in: ZoomGeometry.fitDecodeBox(viewport: viewport, quarterTurns: turns))
                let wanted = view.decodeSize(for: view.scale)
                #expect(abs(decoded.width - wanted.width) <= 1 && abs(decoded.height - wanted.height) <= 1)
                #expect(!view.needsSharperImage(decoded: decoded))
            }
        }
    }

    @Test func asksForASharperImageOnlyWhenTheDecodeIsTooSmall() {
        var view = ViewTransform(imageSize: landscape, viewport: viewport)
        #expect(!view.needsSharperImage(decoded: PixelSize(width: 1200, height: 800)))
        #expect(!view.needsSharperImage(decoded: PixelSize(width: 1199, height: 799)))  // rounding
        #expect(view.needsSharperImage(decoded: PixelSize(width: 256, height: 171)))  // a thumbnail
        view.zoom(by: 1.2, around: viewport.center)
        #expect(view.needsSharperImage(decoded: PixelSize(width: 1200, height: 800)))
        view.zoom(to: 2, around: viewport.center)
        #expect(view.needsSharperImage(decoded: PixelSize(width: 1200, height: 800)))
        #expect(!view.needsSharperImage(decoded: landscape))
        view.fit()
        #expect(!view.needsSharperImage(decoded: landscape))
    }

    @Test func anInitialScaleAndPanAreClamped() {
        let view = ViewTransform(imageSize: landscape, viewport: viewport, quarterTurns: 6, scale: 0.01, pan: ViewPoint(x: 50, y: 50))
        #expect(view.quarterTurns == 2)
        #expect(view.isFitted && view.pan == .zero)
    }
}
