/// A rectangle of a photo decoded on its own (a viewer's tile): in the pixels of the photo
/// reduced by `2^reduction` (JPEG's DCT scaling: 1, 1/2, 1/4, 1/8), upright (after the
/// photo's EXIF orientation), from the top-left corner.
public struct ImageRegion: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// The photo is reduced by `2^reduction`, 0...3.
    public var reduction: Int

    public init(x: Int, y: Int, width: Int, height: Int, reduction: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.reduction = reduction
    }

    /// The deepest reduction: 1/8, as far as JPEG's DCT scaling goes.
    public static let maxReduction = 3

    public var pixels: Int { width * height }
    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var description: String { "\(width)×\(height) at (\(x), \(y)) of 1/\(1 << reduction)" }

    /// The size of a photo of `size` reduced by `2^reduction`, as a JPEG decoder scales it
    /// (rounded up: the last pixel covers what is left).
    public static func reducedSize(_ size: PixelSize, reduction: Int) -> PixelSize {
        let factor = 1 << reduction
        return PixelSize(width: (size.width + factor - 1) / factor, height: (size.height + factor - 1) / factor)
    }

    /// Whether the region lies inside an image of `size` (its reduced size) and is not empty.
    public func lies(in size: PixelSize) -> Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= size.width && y + height <= size.height
    }

    /// The same pixels in the photo as stored, before its EXIF orientation: `upright` is the
    /// reduced image's upright size. Decode that rectangle, turn it by `orientation`, and
    /// the result is this region.
    public func stored(by orientation: ExifOrientation, upright: PixelSize) -> ImageRegion {
        // The stored image's size: the upright one with its sides swapped by a quarter turn.
        let swaps = orientation.value >= 5
        let w = swaps ? upright.height : upright.width   // stored width
        let h = swaps ? upright.width : upright.height   // stored height
        func region(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> ImageRegion {
            ImageRegion(x: x, y: y, width: width, height: height, reduction: reduction)
        }
        switch orientation.value {
        case 2: return region(w - x - width, y, width, height)
        case 3: return region(w - x - width, h - y - height, width, height)
        case 4: return region(x, h - y - height, width, height)
        // A transpose: stored (sx, sy) shows at (sy, sx).
        case 5: return region(y, x, height, width)
        // A quarter turn clockwise: stored (sx, sy) shows at (h - 1 - sy, sx).
        case 6: return region(y, h - x - width, height, width)
        // A transverse: stored (sx, sy) shows at (h - 1 - sy, w - 1 - sx).
        case 7: return region(w - y - height, h - x - width, height, width)
        // A quarter turn anticlockwise: stored (sx, sy) shows at (sy, w - 1 - sx).
        case 8: return region(w - y - height, x, height, width)
        default: return self
        }
    }
}
