import CGdkPixbuf
import PhotoCore

/// The image types this machine can decode: the MIME types of gdk-pixbuf's installed
/// loaders, so HEIC and AVIF appear exactly when their loaders are installed.
public enum ImageTypes {
    /// MIME types of every installed gdk-pixbuf loader.
    public static let supported: Set<String> = {
        var types = Set<String>()
        var node = gdk_pixbuf_get_formats()
        let list = node
        while let current = node {
            if let format = OpaquePointer(current.pointee.data),
               let mimeTypes = gdk_pixbuf_format_get_mime_types(format) {
                var i = 0
                while let type = mimeTypes[i] {
                    types.insert(String(cString: type).lowercased())
                    i += 1
                }
                g_strfreev(mimeTypes)
            }
            node = current.pointee.next
        }
        g_slist_free(list)
        return types
    }()

    /// Classifies a content type; a type GIO knows as a subtype or alias of a supported
    /// one counts as supported.
    public static func classify(_ contentType: String?) -> ImageKind {
        let kind = ImageKind.classify(contentType: contentType, supported: supported)
        guard kind == .other, let contentType else { return kind }
        let isAlias = supported.contains { g_content_type_is_a(contentType, $0) != 0 }
        return isAlias ? .image : .other
    }
}
