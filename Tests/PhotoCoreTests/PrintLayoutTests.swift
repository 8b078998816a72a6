import PhotoCore
import Testing

@Suite struct PrintLayoutTests {
    @Test func turnsThePageToThePhotosShape() {
        #expect(PrintLayout.orientation(for: PixelSize(width: 1600, height: 1000)) == .landscape)
        #expect(PrintLayout.orientation(for: PixelSize(width: 1000, height: 1600)) == .portrait)
        #expect(PrintLayout.orientation(for: PixelSize(width: 800, height: 800)) == .portrait)
    }

    @Test func fitsAWidePhotoToTheWidthAndCentresItDown() {
        let rect = PrintLayout.placement(of: PixelSize(width: 1600, height: 1000), in: PageArea(width: 800, height: 600))
        #expect(rect == PageRect(x: 0, y: 50, width: 800, height: 500))
    }

    @Test func fitsATallPhotoToTheHeightAndCentresItAcross() {
        let rect = PrintLayout.placement(of: PixelSize(width: 1000, height: 2000), in: PageArea(width: 600, height: 800))
        #expect(rect == PageRect(x: 100, y: 0, width: 400, height: 800))
    }

    @Test func enlargesASmallPhotoToTheArea() {
        let rect = PrintLayout.placement(of: PixelSize(width: 40, height: 30), in: PageArea(width: 400, height: 400))
        #expect(rect == PageRect(x: 0, y: 50, width: 400, height: 300))
    }

    @Test func centresOnTheSheetBetweenUnevenMargins() {
        // A 600 × 400 sheet, 10 left and 30 right, 20 above and 5 below: 30 and 20 kept on
        // both sides leave 540 × 360; a 3:2 photo fills it.
        let margins = PageMargins(top: 20, bottom: 5, left: 10, right: 30)
        let rect = PrintLayout.placement(of: PixelSize(width: 1500, height: 1000), onSheet: PageArea(width: 600, height: 400), margins: margins)
        #expect(rect == PageRect(x: 30, y: 20, width: 540, height: 360))
    }

    @Test func centresATallPhotoOnTheSheet() {
        let margins = PageMargins(top: 40, bottom: 10, left: 0, right: 0)
        let rect = PrintLayout.placement(of: PixelSize(width: 100, height: 200), onSheet: PageArea(width: 300, height: 400), margins: margins)
        #expect(rect == PageRect(x: 70, y: 40, width: 160, height: 320))
        // As much paper on either side of it, across and down.
        #expect(rect.x == 300 - rect.x - rect.width && rect.y == 400 - rect.y - rect.height)
    }

    @Test func placesNothingForAnEmptyPhotoOrPage() {
        #expect(PrintLayout.placement(of: PixelSize(width: 0, height: 10), in: PageArea(width: 400, height: 400)).width == 0)
        #expect(PrintLayout.placement(of: PixelSize(width: 10, height: 10), in: PageArea(width: 0, height: 400)).width == 0)
    }

    @Test func decodesAtThreeHundredDotsPerInch() {
        // A4 less 1/4 inch margins, in points: 8.27 × 11.69 inches less 0.5.
        let box = PrintLayout.decodeBox(for: PageArea(width: 559.28, height: 805.89), unitsPerInch: 72)
        #expect(box == PixelSize(width: 2331, height: 3358))
    }

    @Test func capsTheDecodeBox() {
        let box = PrintLayout.decodeBox(for: PageArea(width: 7200, height: 72), unitsPerInch: 72, limit: 4096)
        #expect(box == PixelSize(width: 4096, height: 300))
    }
}
