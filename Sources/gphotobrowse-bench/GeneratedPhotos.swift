import CGdkPixbuf
import Foundation

// Photos the benchmarks make for themselves.

/// Writes a JPEG of one colour (`rgba`, as gdk_pixbuf_fill takes it) at `path`; false when
/// it cannot be written.
func writeSolidJPEG(_ path: String, rgba: UInt32, width: Int32 = 640, height: Int32 = 480) -> Bool {
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height) else { return false }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    gdk_pixbuf_fill(pixbuf, rgba)
    return gdk_pixbuf_savev(pixbuf, path, "jpeg", nil, nil, nil) != 0
}

/// Sets a file's access and modification times to `seconds` since 1970; false when it cannot.
func setModified(_ path: String, seconds: Int) -> Bool {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    return utimensat(AT_FDCWD, path, &times, 0) == 0
}

/// An image of colour `index` (its own, picked from the index) with a gradient across it and
/// grain over it, so that it compresses as a photo does, not as a flat colour: saved as a
/// JPEG by gdk-pixbuf (quality 75) it weighs about a quarter of a megabyte a megapixel. The
/// caller unrefs it.
func grainyPixbuf(index: Int, width: Int, height: Int) -> OpaquePointer? {
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else { return nil }
    let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
    let pixels = gdk_pixbuf_get_pixels(pixbuf)!
    // A colour of its own, each channel low enough for the gradient and grain to stay in range.
    let red = index * 67 % 150, green = index * 131 % 150, blue = index * 199 % 150
    var state = UInt32(truncatingIfNeeded: index) &* 2_654_435_761 | 1
    for y in 0..<height {
        let row = pixels + y * stride
        for x in 0..<width {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            let grain = Int(state % grainRange)
            row[x * 3] = UInt8(truncatingIfNeeded: red + x * 50 / width + grain)
            row[x * 3 + 1] = UInt8(truncatingIfNeeded: green + y * 50 / height + grain)
            row[x * 3 + 2] = UInt8(truncatingIfNeeded: blue + (x + y) * 50 / (width + height) + grain)
        }
    }
    return pixbuf
}

/// The grain: 0 to one less than this.
private let grainRange: UInt32 = 48
