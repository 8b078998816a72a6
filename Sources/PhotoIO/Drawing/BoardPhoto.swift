import CCairo
import PhotoCore
import Synchronization

/// A photo's pixels made ready for the board's renderer: the board's own photo, or one
/// inserted on it. Made once from the decoded image (which a decoder process decoded: never
/// a file here), then shared by every rendering, on any thread.
///
/// It holds the pixels as cairo paints them (`PremultipliedImage`: 4 bytes a pixel, 96 MB
/// for 24 MP) and halvings of them down to 64 pixels (a third more), so a photo shown at any
/// scale is drawn from the halving just larger than it, shrunk by at most 2: sharp at every
/// zoom, and as fast at the fit as at 100%. The blocks of a pixelation are made from the full
/// pixels the first time they are needed, once for each block size.
///
/// Made in O(pixels): call `init` on a worker (about 0.3 s for 24 MP), never on the main
/// thread.
public final class BoardPhoto: Sendable {
    /// The photo's size in pixels.
    public let size: PixelSize
    /// Whether every pixel is opaque.
    public let isOpaque: Bool
    /// The pixels at full size, then each level half the one before (rounded up).
    let levels: [PremultipliedImage]
    private let blocks = Mutex<[Int: PremultipliedImage]>([:])

    /// The decoded image's pixels (8-bit RGB or RGBA, straight alpha), upright.
    public convenience init(_ image: DecodedImage) {
        self.init(PremultipliedImage(image))
    }

    /// Pixels already premultiplied, as cairo's ARGB32.
    public init(_ image: PremultipliedImage) {
        size = image.size
        isOpaque = image.isOpaque
        var levels = [image]
        while let last = levels.last, max(last.size.width, last.size.height) > 64 {
            levels.append(Self.halved(last))
        }
        self.levels = levels
    }

    /// The level to draw from for showing the photo at `scale` output pixels per photo
    /// pixel, and its own scale (its size over the photo's).
    func level(forScale scale: Double) -> (image: PremultipliedImage, scale: Double) {
        var chosen = (image: levels[0], scale: 1.0)
        for level in levels.dropFirst() {
            let levelScale = Double(level.size.width) / Double(size.width)
            guard levelScale >= scale else { break }
            chosen = (level, levelScale)
        }
        return chosen
    }

    /// The photo in blocks of `blockSize` pixels: one pixel a block, the mean of the photo's
    /// pixels in it (blocks at the right and bottom edges cut by them).
    func pixelBlocks(_ blockSize: Int) -> PremultipliedImage {
        let blockSize = max(1, blockSize)
        if let made = blocks.withLock({ $0[blockSize] }) { return made }
        let made = Self.blocks(of: levels[0], blockSize: blockSize)
        blocks.withLock { $0[blockSize] = made }
        return made
    }

    // MARK: - Making the levels

    /// `image` at half its size (rounded up), each pixel the mean of the two by two it
    /// covers, by cairo's (pixman's) filtering.
    private static func halved(_ image: PremultipliedImage) -> PremultipliedImage {
        let width = (image.size.width + 1) / 2, height = (image.size.height + 1) / 2
        return PremultipliedImage.drawn(size: PixelSize(width: width, height: height), isOpaque: image.isOpaque) { cr in
            image.withSurface { source in
                cairo_scale(cr, Double(width) / Double(image.size.width), Double(height) / Double(image.size.height))
                cairo_set_source_surface(cr, source, 0, 0)
                let pattern = cairo_get_source(cr)
                cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_paint(cr)
                cairo_set_source_rgb(cr, 0, 0, 0)  // let go of the surface before it goes
            }
        }
    }

    /// The block means of `image`, summed row by row in premultiplied values (so a
    /// transparent pixel weighs nothing in a block's colour).
    private static func blocks(of image: PremultipliedImage, blockSize: Int) -> PremultipliedImage {
        let width = image.size.width, height = image.size.height
        let columns = (width + blockSize - 1) / blockSize, rows = (height + blockSize - 1) / blockSize
        let source = UnsafePointer(image.pixels.bytes.assumingMemoryBound(to: UInt8.self))
        let pixels = PixelBuffer(count: columns * rows * 4) { storage in
            let out = storage.assumingMemoryBound(to: UInt8.self)
            var sums = [UInt64](repeating: 0, count: columns * 4)
            for row in 0..<rows {
                for i in sums.indices { sums[i] = 0 }
                let y0 = row * blockSize, y1 = min(height, y0 + blockSize)
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in y0..<y1 {
                        let line = source + y * image.stride
                        for column in 0..<columns {
                            let x0 = column * blockSize, x1 = min(width, x0 + blockSize)
                            var b: UInt64 = 0, g: UInt64 = 0, r: UInt64 = 0, a: UInt64 = 0
                            var p = line + x0 * 4
                            for _ in x0..<x1 {
                                b += UInt64(p[0]); g += UInt64(p[1]); r += UInt64(p[2]); a += UInt64(p[3])
                                p += 4
                            }
                            sums[column * 4] += b; sums[column * 4 + 1] += g
                            sums[column * 4 + 2] += r; sums[column * 4 + 3] += a
                        }
                    }
                }
                for column in 0..<columns {
                    let count = UInt64((min(width, (column + 1) * blockSize) - column * blockSize) * (y1 - y0))
                    for channel in 0..<4 {
                        out[(row * columns + column) * 4 + channel] = UInt8((sums[column * 4 + channel] + count / 2) / count)
                    }
                }
            }
        }
        return PremultipliedImage(size: PixelSize(width: columns, height: rows), stride: columns * 4,
                                  isOpaque: image.isOpaque, pixels: pixels)
    }
}

/// The pixels the renderer draws a board with: the board's photo (none for a blank board)
/// and the photos inserted on it, by the reference their items name.
public struct BoardImages: Sendable {
    public var photo: BoardPhoto?
    public var inserted: [PhotoReference: BoardPhoto]

    public init(photo: BoardPhoto? = nil, inserted: [PhotoReference: BoardPhoto] = [:]) {
        self.photo = photo
        self.inserted = inserted
    }
}

extension PremultipliedImage {
    /// An image of `size` drawn by `draw` on a cairo context over its own pixels (cleared
    /// to transparent first).
    static func drawn(size: PixelSize, isOpaque: Bool, _ draw: (OpaquePointer) -> Void) -> PremultipliedImage {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(size.width)))
        let pixels = PixelBuffer(count: stride * size.height) { $0.initializeMemory(as: UInt8.self, repeating: 0, count: stride * size.height) }
        let image = PremultipliedImage(size: size, stride: stride, isOpaque: isOpaque, pixels: pixels)
        image.withContext(draw)
        return image
    }

    /// Runs `body` with a cairo image surface over these pixels (no copy). Drawing on it
    /// writes the pixels: only for an image being made, never one that is shared.
    func withSurface<T>(_ body: (OpaquePointer) -> T) -> T {
        withExtendedLifetime(pixels) {
            let surface = cairo_image_surface_create_for_data(
                pixels.bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                Int32(size.width), Int32(size.height), Int32(stride))!
            defer {
                cairo_surface_finish(surface)
                cairo_surface_destroy(surface)
            }
            return body(surface)
        }
    }

    /// Runs `body` with a cairo context drawing on these pixels.
    func withContext<T>(_ body: (OpaquePointer) -> T) -> T {
        withSurface { surface in
            let cr = cairo_create(surface)!
            defer { cairo_destroy(cr) }
            let result = body(cr)
            cairo_surface_flush(surface)
            return result
        }
    }
}
