import CExif
import CGdkPixbuf
import Foundation
import PhotoCore
import PhotoIO
import Testing

/// One 6000×4000 photo for every test here (made once: 96 MB of pixels).
private let bigPhoto = BoardPhoto(stripedPhoto(width: 6000, height: 4000) { x in (UInt8(40 + x % 150), 110, 160) })

/// The photo's colour at column x.
private func photoColour(_ x: Int) -> DrawingColour { DrawingColour(r: UInt8(40 + x % 150), g: 110, b: 160) }

private func at(_ x: Double, _ y: Double) -> ViewPoint { ViewPoint(x: x, y: y) }

/// A board over the big photo with a red stroke across (1000…5000, 2000), 40 px wide.
private func markedBoard() -> Board {
    var board = Board(photoSize: PixelSize(width: 6000, height: 4000))
    board.add(stroke([at(1000, 2000), at(3000, 2000), at(5000, 2000)], colour: .red, width: 40))
    return board
}

/// The pixbuf of a saved file; the caller unrefs it.
private func load(_ path: String) -> OpaquePointer? {
    gdk_pixbuf_new_from_file(path, nil)
}

private func pixel(_ pixbuf: OpaquePointer, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
    let stride = Int(gdk_pixbuf_get_rowstride(pixbuf)), channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
    let p = gdk_pixbuf_get_pixels(pixbuf)! + y * stride + x * channels
    return (Int(p[0]), Int(p[1]), Int(p[2]))
}

private func isNear(_ p: (r: Int, g: Int, b: Int), _ colour: DrawingColour, _ tolerance: Int) -> Bool {
    abs(p.r - Int(colour.r)) <= tolerance && abs(p.g - Int(colour.g)) <= tolerance && abs(p.b - Int(colour.b)) <= tolerance
}

/// IFD `ifd`'s entry `tag` in the file at `path`, as libexif shows it; nil when absent.
private func exifValue(_ path: String, _ tag: ExifTag, in ifd: Int) -> String? {
    guard let data = exif_data_new_from_file(path) else { return nil }
    defer { exif_data_unref(data) }
    let directories = [data.pointee.ifd.0, data.pointee.ifd.1, data.pointee.ifd.2, data.pointee.ifd.3, data.pointee.ifd.4]
    guard let entry = exif_content_get_entry(directories[ifd], tag) else { return nil }
    if entry.pointee.format == EXIF_FORMAT_SHORT {
        return String(exif_get_short(entry.pointee.data, exif_data_get_byte_order(data)))
    }
    var buffer = [CChar](repeating: 0, count: 256)
    return String(cString: exif_entry_get_value(entry, &buffer, 256))
}

@Suite(.serialized) struct BoardSavingTests {
    private let folder = TempFolder()

    /// An original beside which the board is saved: a small real JPEG with EXIF turned 6.
    private func original() -> String {
        folder.image("plain.jpg", width: 60, height: 40, type: "jpeg")
        let bytes = jpeg(folder.bytes("plain.jpg"), withExif: [
            .orientation(6), .ascii(0x010F, "Gphotobrowse Camera", in: .ifd0),
            .dateTimeOriginal("2021:06:01 12:00:00"),
        ])
        try? FileManager.default.removeItem(atPath: folder.path("plain.jpg"))
        return folder.file("IMG_0042.jpg", bytes: bytes)
    }

    /// Decoder processes, as the app's.
    private static let decoder: IsolatedDecoder = {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        return IsolatedDecoder(settings: settings)
    }()

    private func names() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []) }

    @Test func aJPEGBesideTheOriginalHasItsFullSizeTheStrokeAndItsExifUpright() throws {
        let path = original()
        let originalBytes = folder.bytes("IMG_0042.jpg")
        // The block a decoder process makes of the original's EXIF, for the copy's size.
        let exif = try #require(Self.decoder.savedExif(uri: fileURI(path), size: PixelSize(width: 6000, height: 4000)))
        let saved = BoardSaving.saveBeside(original: fileURI(path), board: markedBoard(), images: BoardImages(photo: bigPhoto),
                                           format: .jpeg(quality: 92), exif: exif)
        #expect(try saved.get() == folder.uri("IMG_0042 (marked up).jpg"))
        let pixbuf = try #require(load(folder.path("IMG_0042 (marked up).jpg")))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        #expect(gdk_pixbuf_get_width(pixbuf) == 6000 && gdk_pixbuf_get_height(pixbuf) == 4000)
        // The stroke where it was drawn, within 2 px of its edge; the photo elsewhere.
        for x in [1000, 2500, 4999] {
            #expect(isNear(pixel(pixbuf, x, 2000), .red, 12) && isNear(pixel(pixbuf, x, 1982), .red, 16) && isNear(pixel(pixbuf, x, 2017), .red, 16))
            #expect(isNear(pixel(pixbuf, x, 1900), photoColour(x), 12) && isNear(pixel(pixbuf, x, 2100), photoColour(x), 12))
        }
        #expect(isNear(pixel(pixbuf, 920, 2000), photoColour(920), 12))
        // The EXIF: upright, the rest kept, no stale thumbnail.
        let copy = folder.path("IMG_0042 (marked up).jpg")
        #expect(exifValue(copy, EXIF_TAG_ORIENTATION, in: 0) == "1")
        #expect(exifValue(copy, EXIF_TAG_MAKE, in: 0) == "Gphotobrowse Camera")
        #expect(exifValue(copy, EXIF_TAG_DATE_TIME_ORIGINAL, in: 2) == "2021:06:01 12:00:00")
        #expect(PhotoMetadata.dateTaken(path: copy) == PhotoMetadata.dateTaken(path: path))
        // The original is untouched, and nothing else is left in the folder.
        #expect(folder.bytes("IMG_0042.jpg") == originalBytes)
        #expect(names() == ["IMG_0042.jpg", "IMG_0042 (marked up).jpg"])
    }

    @Test func aPNGHasTheExactPixelsAndATakenNameIsNeverReplaced() throws {
        let path = original()
        folder.file("IMG_0042 (marked up).png", text: "someone else's")
        let saved = BoardSaving.saveBeside(original: fileURI(path), board: markedBoard(), images: BoardImages(photo: bigPhoto),
                                           format: .png, exif: Self.decoder.savedExif(uri: fileURI(path), size: PixelSize(width: 6000, height: 4000)))
        #expect(try saved.get() == folder.uri("IMG_0042 (marked up 2).png"))
        #expect(folder.bytes("IMG_0042 (marked up).png") == Array("someone else's".utf8))
        let pixbuf = try #require(load(folder.path("IMG_0042 (marked up 2).png")))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        #expect(gdk_pixbuf_get_width(pixbuf) == 6000 && gdk_pixbuf_get_height(pixbuf) == 4000)
        #expect(isNear(pixel(pixbuf, 3000, 2000), .red, 0) && isNear(pixel(pixbuf, 3000, 1981), .red, 0))
        #expect(isNear(pixel(pixbuf, 3000, 2030), photoColour(3000), 0) && isNear(pixel(pixbuf, 10, 10), photoColour(10), 0))
        // The PNG's eXIf chunk carries the EXIF, upright.
        let bytes = folder.bytes("IMG_0042 (marked up 2).png")
        let chunk = try #require(bytes.indices.dropLast(4).first { bytes[$0..<($0 + 4)].elementsEqual("eXIf".utf8) })
        let tiff = Array(bytes[(chunk + 4)...].prefix(4096))
        #expect(tiff.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) || tiff.starts(with: [0x49, 0x49, 0x2A, 0x00]))
        #expect(names() == ["IMG_0042.jpg", "IMG_0042 (marked up).png", "IMG_0042 (marked up 2).png"])
    }

    @Test func saveAsWritesExactlyTheNameChosenAndFailsRatherThanReplace() throws {
        var board = Board(blank: PixelSize(width: 300, height: 200))
        board.add(.shape(Shape(.ellipse, from: at(50, 50), to: at(250, 150), colour: .blue, width: 12)))
        board.crop(to: ViewRect(origin: at(0, 0), size: ViewSize(width: 150, height: 200)))
        let target = folder.uri("mine.webp")
        let format = SaveFormat.forFileName("mine.webp") ?? .png
        if format.isAvailable {
            #expect(try BoardSaving.save(board, images: BoardImages(), format: format, to: target).get() == target)
            let pixbuf = try #require(load(folder.path("mine.webp")))
            #expect(gdk_pixbuf_get_width(pixbuf) == 150 && gdk_pixbuf_get_height(pixbuf) == 200)
            #expect(isNear(pixel(pixbuf, 50, 100), .blue, 24) && isNear(pixel(pixbuf, 100, 100), .white, 8))
            g_object_unref(UnsafeMutableRawPointer(pixbuf))
        }
        folder.file("taken.png", text: "mine")
        let refused = BoardSaving.save(board, images: BoardImages(), format: .png, to: folder.uri("taken.png"))
        #expect(refused.failure?.kind == .exists)
        #expect(folder.bytes("taken.png") == Array("mine".utf8))
        #expect(!names().contains { $0.hasSuffix(".part") })
        // A blank board's Save: "Drawing.png", then "Drawing 2.png".
        #expect(try BoardSaving.saveDrawing(in: folder.uri, board: board, images: BoardImages()).get() == folder.uri("Drawing.png"))
        #expect(try BoardSaving.saveDrawing(in: folder.uri, board: board, images: BoardImages()).get() == folder.uri("Drawing 2.png"))
    }

    @Test func onA24MegapixelPhotoAStrokeAddedDrawsThatStrokeAloneAndNotThePhoto() {
        var board = markedBoard()
        var view = BoardView(board: board, viewport: ViewSize(width: 1280, height: 800))
        let rendered = RenderedBoard(images: BoardImages(photo: bigPhoto))
        #expect(rendered.update(board, for: view).renderedAll)
        board.add(stroke([at(500, 500), at(800, 700)], colour: .blue, width: 30))
        let work = rendered.update(board, for: view)
        #expect(!work.renderedAll && work.itemsDrawn == 1)
        board.undo()
        #expect(!rendered.update(board, for: view).renderedAll)
        // A zoom is a new raster: everything once, the photo from the level nearest it.
        view.transform.zoom(by: 2, around: at(640, 400))
        let zoomed = rendered.update(board, for: view)
        #expect(zoomed.renderedAll && zoomed.itemsDrawn <= 1)
        #expect(rendered.picture?.size.width ?? 0 <= 1280 * 3 / 2 + 2)
    }

    @Test func theClipboardGetsPNGBytesOfTheWholeBoard() throws {
        var board = Board(blank: PixelSize(width: 320, height: 240), background: .black)
        board.add(stroke([at(0, 120), at(320, 120)], colour: .green, width: 20))
        let png = try BoardSaving.encodedPNG(board, images: BoardImages()).get()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        folder.file("clip.png", bytes: png)
        let pixbuf = try #require(load(folder.path("clip.png")))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        #expect(gdk_pixbuf_get_width(pixbuf) == 320 && isNear(pixel(pixbuf, 160, 120), .green, 0) && isNear(pixel(pixbuf, 160, 20), .black, 0))
    }

    @Test func aFolderThatCannotBeWrittenFailsWithAReasonAndLeavesNothing() throws {
        let missing = folder.uri("nowhere") + "/IMG_1.jpg"
        let failed = BoardSaving.saveBeside(original: missing, board: Board(blank: PixelSize(width: 10, height: 10)),
                                            images: BoardImages(), format: .png)
        #expect(failed.failure?.kind == .noFolder)
        #expect(names().isEmpty)
    }
}
