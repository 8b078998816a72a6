/// An image as cairo and most compositors want it: 32 bits a pixel, alpha premultiplied,
/// stored as one native-endian word `0xAARRGGBB` (bytes B, G, R, A on little-endian machines:
/// cairo's `CAIRO_FORMAT_ARGB32`).
public struct PremultipliedImage: Sendable {
    public let size: PixelSize
    public let stride: Int
    public let isOpaque: Bool
    public let pixels: PixelBuffer

    /// Pixels already in this layout (rows `stride` bytes apart), adopted as they are: what
    /// cairo drew (the drawing board's renderer).
    public init(size: PixelSize, stride: Int, isOpaque: Bool, pixels: PixelBuffer) {
        precondition(stride >= size.width * 4 && pixels.count >= stride * size.height, "pixels too few for the size")
        self.size = size
        self.stride = stride
        self.isOpaque = isOpaque
        self.pixels = pixels
    }

    /// Converts decoded RGB or straight-alpha RGBA pixels. Runs in O(pixels): call it on the
    /// worker that decoded the image, not on the main thread.
    public init(_ image: DecodedImage) {
        let width = image.size.width, height = image.size.height
        let stride = width * 4
        let channels = image.hasAlpha ? 4 : 3
        let source = image.pixels.bytes.assumingMemoryBound(to: UInt8.self)
        let sourceStride = image.stride
        self.size = image.size
        self.stride = stride
        self.isOpaque = !image.hasAlpha
        self.pixels = PixelBuffer(count: stride * height) { storage in
            let out = storage.assumingMemoryBound(to: UInt32.self)
            for y in 0..<height {
                let row = source + y * sourceStride
                let outRow = out + y * width
                for x in 0..<width {
                    let p = row + x * channels
                    let r = UInt32(p[0]), g = UInt32(p[1]), b = UInt32(p[2])
                    if channels == 3 {
                        outRow[x] = 0xFF00_0000 | r << 16 | g << 8 | b
                    } else {
                        let a = UInt32(p[3])
                        // (c·a + 127) / 255, rounded, as cairo and pixman premultiply.
                        func premultiply(_ c: UInt32) -> UInt32 { let t = c * a + 128; return (t + (t >> 8)) >> 8 }
                        outRow[x] = a << 24 | premultiply(r) << 16 | premultiply(g) << 8 | premultiply(b)
                    }
                }
            }
        }
    }
}
