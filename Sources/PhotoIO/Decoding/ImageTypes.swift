import CGdkPixbuf
import PhotoCore

/// The image types this machine can decode: the MIME types of gdk-pixbuf's installed
/// loaders, so HEIC and AVIF appear exactly when their loaders are installed.
public enum ImageTypes {
    /// gdk-pixbuf loaders never used: legacy formats no camera or phone writes, whose
    /// loaders are known ways in for crafted files (QuickTime image wraps another format
    /// and hands it an unchecked canvas size; ANI has a history of CVEs).
    public static let refusedFormats: Set<String> = ["qtif", "ani"]

    /// MIME types of every installed gdk-pixbuf loader but the refused ones.
    public static let supported: Set<String> = {
        var types = Set<String>()
        var node = gdk_pixbuf_get_formats()
        let list = node
        while let current = node {
            if let format = OpaquePointer(current.pointee.data),
               !refusedFormats.contains(formatName(format)),
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
        // RAW, HEIF and JPEG XL: read by our own decoders (`StillFormat`).
        return types.union(StillFormat.mimeTypes)
    }()

    /// A loader's short name ("jpeg", "png", …).
    static func formatName(_ format: OpaquePointer?) -> String {
        guard let format, let name = gdk_pixbuf_format_get_name(format) else { return "unknown" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// Classifies a content type; a type GIO knows as a subtype or alias of a supported
    /// one counts as supported.
    public static func classify(_ contentType: String?) -> ImageKind {
        let kind = ImageKind.classify(contentType: contentType, supported: supported)
        guard kind == .other, let contentType else { return kind }
        let isAlias = supported.contains { g_content_type_is_a(contentType, $0) != 0 }
        return isAlias ? .image : .other
    }

    /// Content types that say nothing about an image: a file sniffed as one of these is
    /// given the loader its name asks for, if any.
    private static let uninformative: Set<String> = ["application/octet-stream", "text/xml", "application/xml"]

    /// The MIME type of the loader for a file, chosen from its first bytes (so a PNG named
    /// .jpg is read as a PNG), or from its name when the bytes say nothing (TGA has no
    /// signature). Only a supported, not refused, loader is ever chosen: the caller creates
    /// it with `gdk_pixbuf_loader_new_with_mime_type`, so no other loader sees the bytes.
    public static func loaderType(forContent head: [UInt8], name: String?) -> Result<String, DecodeFailure> {
        var uncertain: gboolean = 0
        let sniffed = head.withUnsafeBytes { bytes in
            takeString(g_content_type_guess(nil, bytes.bindMemory(to: UInt8.self).baseAddress, gsize(bytes.count), &uncertain))
        } ?? "application/octet-stream"
        if let type = loaderType(for: sniffed), uncertain == 0 || !uninformative.contains(sniffed) {
            return .success(type)
        }
        if uninformative.contains(sniffed) || uncertain != 0, let name,
           let byName = takeString(g_content_type_guess(name, nil, 0, nil)), let type = loaderType(for: byName) {
            return .success(type)
        }
        if let type = loaderType(for: sniffed) { return .success(type) }
        return .failure(DecodeFailure(.notAnImage, tr("Not a photo: the file is %s.", FailureWords.contents(ofType: sniffed))))
    }

    /// A supported loader MIME type for a content type, itself or one it is a kind of.
    private static func loaderType(for contentType: String) -> String? {
        if supported.contains(contentType) { return contentType }
        return supported.sorted().first { g_content_type_is_a(contentType, $0) != 0 }
    }

    private static func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }
}
