import CGdkPixbuf
import Glibc
import PhotoCore

/// Moving pixels between `DecodedImage` and `GdkPixbuf`, for the thumbnail cache.
enum PixbufImage {
    /// Copies a pixbuf's pixels into a new `DecodedImage`.
    static func copy(_ pixbuf: OpaquePointer, sourceSize: PixelSize, format: String) -> DecodedImage {
        let length = Int(gdk_pixbuf_get_byte_length(pixbuf))
        let bytes = gdk_pixbuf_read_pixels(pixbuf)
        let pixels = PixelBuffer(count: length) { storage in
            if let bytes { storage.copyMemory(from: bytes, byteCount: length) }
        }
        return DecodedImage(
            size: PixelSize(width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf))),
            stride: Int(gdk_pixbuf_get_rowstride(pixbuf)),
            hasAlpha: gdk_pixbuf_get_has_alpha(pixbuf) != 0,
            pixels: pixels,
            sourceSize: sourceSize,
            format: format
        )
    }

    /// Whether `pixbuf` holds `image`'s pixels, laid out alike.
    static func hasPixels(_ pixbuf: OpaquePointer, of image: DecodedImage) -> Bool {
        let length = Int(gdk_pixbuf_get_byte_length(pixbuf))
        guard Int(gdk_pixbuf_get_width(pixbuf)) == image.size.width, Int(gdk_pixbuf_get_height(pixbuf)) == image.size.height,
              Int(gdk_pixbuf_get_rowstride(pixbuf)) == image.stride, (gdk_pixbuf_get_has_alpha(pixbuf) != 0) == image.hasAlpha,
              length == image.pixels.count, let bytes = gdk_pixbuf_read_pixels(pixbuf) else { return false }
        return memcmp(bytes, image.pixels.bytes, length) == 0
    }

    /// Runs `body` with a pixbuf over `image`'s own bytes (no copy), or returns nil when
    /// the image's layout is not one a pixbuf can describe. The pixbuf must not outlive
    /// `body`: it does not own the bytes, `image` does, and is kept alive until `body` ends.
    static func withPixbuf<T>(over image: DecodedImage, _ body: (OpaquePointer) -> T) -> T? {
        let channels = image.hasAlpha ? 4 : 3
        let width = image.size.width, height = image.size.height
        guard width > 0, height > 0, width <= Int(Int32.max) / channels, height <= Int(Int32.max),
              image.stride >= width * channels, image.stride <= Int(Int32.max),
              image.pixels.count >= image.stride * (height - 1) + width * channels else { return nil }
        return withExtendedLifetime(image.pixels) { () -> T? in
            guard let pixbuf = gdk_pixbuf_new_from_data(
                image.pixels.bytes.assumingMemoryBound(to: guchar.self), GDK_COLORSPACE_RGB,
                image.hasAlpha ? 1 : 0, 8, Int32(width), Int32(height), Int32(image.stride), nil, nil
            ) else { return nil }
            defer { unref(pixbuf) }
            return body(pixbuf)
        }
    }

    /// A pixbuf shrunk to fit `box` (a new reference), or nil when it already fits.
    static func shrunk(_ pixbuf: OpaquePointer, toFit box: PixelSize) -> OpaquePointer? {
        let size = PixelSize(width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf)))
        let target = size.fitting(in: box)
        guard target != size else { return nil }
        return gdk_pixbuf_scale_simple(pixbuf, Int32(target.width), Int32(target.height), GDK_INTERP_BILINEAR)
    }

    /// gdk-pixbuf's format names ("jpeg") and MIME types ("image/jpeg"), both ways, from
    /// the installed loaders: thumbnails record the original's type as a MIME type
    /// (`Thumb::Mimetype`), decoders name it by format.
    static let formats: (mimeByName: [String: String], nameByMime: [String: String]) = {
        var mimeByName: [String: String] = [:], nameByMime: [String: String] = [:]
        var node = gdk_pixbuf_get_formats()
        let list = node
        while let current = node {
            if let format = OpaquePointer(current.pointee.data), let namePointer = gdk_pixbuf_format_get_name(format) {
                let name = String(cString: namePointer)
                g_free(namePointer)
                if let mimeTypes = gdk_pixbuf_format_get_mime_types(format) {
                    var i = 0
                    while let type = mimeTypes[i] {
                        let mime = String(cString: type).lowercased()
                        if mimeByName[name] == nil { mimeByName[name] = mime }
                        if nameByMime[mime] == nil { nameByMime[mime] = name }
                        i += 1
                    }
                    g_strfreev(mimeTypes)
                }
            }
            node = current.pointee.next
        }
        g_slist_free(list)
        return (mimeByName, nameByMime)
    }()
}
