import PhotoCore
import Testing

/// `gphotobrowse --draw`'s command line: a photo, or a blank board of a size.
@Suite struct DrawOptionsTests {
    @Test func withoutDrawThereIsNothingToDraw() throws {
        #expect(try DrawOptions.parse([]) == nil)
        #expect(try DrawOptions.parse(["~/Pictures", "--size", "800x600"]) == nil)
    }

    @Test func aBlankBoardIsTheUsualScreensSize() throws {
        let options = try #require(try DrawOptions.parse(["--draw"]))
        #expect(options.photo == nil)
        #expect(options.size == PixelSize(width: 1920, height: 1080))
    }

    @Test func thePhotoAndTheSizeInAnyOrder() throws {
        #expect(try DrawOptions.parse(["--draw", "IMG_1.jpg"]) == DrawOptions(photo: "IMG_1.jpg"))
        #expect(try DrawOptions.parse(["IMG_1.jpg", "--draw"]) == DrawOptions(photo: "IMG_1.jpg"))
        #expect(try DrawOptions.parse(["--size", "800x600", "--draw", "a b.png"])
            == DrawOptions(photo: "a b.png", size: PixelSize(width: 800, height: 600)))
        #expect(try DrawOptions.parse(["--draw", "--size=640X480"])?.size == PixelSize(width: 640, height: 480))
        // The last size given counts.
        #expect(try DrawOptions.parse(["--draw", "--size", "100x100", "--size", "200x300"])?.size == PixelSize(width: 200, height: 300))
    }

    @Test func sizesWithinTheirBounds() {
        #expect(DrawOptions.size("16x16") == PixelSize(width: 16, height: 16))
        #expect(DrawOptions.size("16384x16384") == PixelSize(width: 16384, height: 16384))
        #expect(DrawOptions.size("1920X1080") == PixelSize(width: 1920, height: 1080))
        for bad in ["15x100", "100x15", "16385x100", "100x16385", "0x0", "-20x100", "100x-20", "99999999999999999999x10"] {
            #expect(DrawOptions.size(bad) == nil, "\(bad)")
        }
    }

    @Test func sizesSpelledOtherwiseAreRefused() {
        for bad in ["", "x", "800", "800x", "x600", "800x600x", "x800x600", "800xx600", "800*600", "800 x 600",
                    " 800x600", "+800x600", "800x600px", "0800.5x600", "八百x600", "８００x600"] {
            #expect(DrawOptions.size(bad) == nil, "\(bad)")
        }
        // Leading zeros are still decimal digits.
        #expect(DrawOptions.size("0800x0600") == PixelSize(width: 800, height: 600))
    }

    @Test func badArgumentsAreSaid() {
        func problem(_ arguments: [String]) -> String? {
            do {
                _ = try DrawOptions.parse(arguments)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(problem(["--draw", "--size", "big"])?.contains("big") == true)
        #expect(problem(["--draw", "--size", "10x10"])?.contains("10x10") == true)
        #expect(problem(["--draw", "--size"]) != nil)
        #expect(problem(["--draw", "--frobnicate"])?.contains("--frobnicate") == true)
        #expect(problem(["--draw", "-"]) != nil)
        #expect(problem(["--draw", "a.jpg", "b.jpg"])?.contains("b.jpg") == true)
        #expect(problem(["--draw", "a.jpg", "--size", "800x600"]) == nil)
    }
}
