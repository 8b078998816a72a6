/// What a folder entry is to the browser, decided from its file type and content type.
public enum ImageKind: Sendable, Equatable {
    /// An image type a decoder is installed for: show it.
    case image
    /// The name says nothing about the content (no extension, or an unknown one):
    /// sniff the content before deciding.
    case unknown
    /// Not an image, or an image type no decoder handles: leave it out.
    case other

    /// Content types GIO gives a name that says nothing about its content.
    public static let genericTypes: Set<String> = [
        "application/octet-stream",
        "application/x-zerosize",
        "",
    ]

    /// Classifies a content type against the image types the decoders support.
    ///
    /// - Parameters:
    ///   - contentType: GIO's content type (a MIME type on Linux).
    ///   - supported: MIME types the installed decoders read (gdk-pixbuf's formats).
    ///   - aliases: other names of those types (for example `image/jpg` for `image/jpeg`).
    public static func classify(
        contentType: String?, supported: Set<String>, aliases: [String: String] = [:]
    ) -> ImageKind {
        guard let type = contentType?.lowercased(), !genericTypes.contains(type) else { return .unknown }
        if supported.contains(type) { return .image }
        if let canonical = aliases[type], supported.contains(canonical) { return .image }
        return .other
    }
}
