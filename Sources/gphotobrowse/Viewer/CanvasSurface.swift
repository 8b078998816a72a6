import CGtk
import PhotoCore

/// A cairo image surface over pixels this object owns, for the viewer to paint at any
/// scale with cairo's good filter (GTK 4.8's renderers scale textures bilinearly, which
/// aliases when shrinking a photo).
final class CanvasSurface {
    private let live = LiveObjects.Token("CanvasSurface")
    let surface: OpaquePointer  // cairo_surface_t
    let size: PixelSize
    private let pixels: PixelBuffer

    /// Wraps converted pixels without copying them.
    init(_ image: PremultipliedImage) {
        pixels = image.pixels
        size = image.size
        surface = cairo_image_surface_create_for_data(
            pixels.bytes.assumingMemoryBound(to: UInt8.self), image.isOpaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32,
            Int32(size.width), Int32(size.height), Int32(image.stride))
    }

    deinit { cairo_surface_destroy(surface) }
}
