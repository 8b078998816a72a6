import CGdkPixbuf
import PhotoCore

/// A format a board is saved in, with gdk-pixbuf's savers.
public enum SaveFormat: Sendable, Hashable {
    /// Lossless; the EXIF goes in an eXIf chunk. Compressed at zlib's level 3: a 24 MP
    /// photo's pixels compress barely less than at the default 6, in half the time.
    case png
    /// `quality` 1...100 (90 is the usual choice); the EXIF goes in its APP1 segment.
    case jpeg(quality: Int)
    /// `quality` 1...100, through webp-pixbuf-loader where it is installed
    /// (`isAvailable`); no EXIF is written.
    case webp(quality: Int)

    /// The JPEG quality a Save uses, and Save As offers first.
    public static let defaultQuality = 90

    /// gdk-pixbuf's name for the saver.
    var pixbufType: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpeg"
        case .webp: "webp"
        }
    }

    /// The saver's options, as gdk-pixbuf's keys and values.
    var options: [(key: String, value: String)] {
        switch self {
        case .png: [("compression", "3")]
        case .jpeg(let quality), .webp(let quality): [("quality", String(min(max(quality, 1), 100)))]
        }
    }

    /// The extension a new file of this format gets (without the dot).
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    /// Whether a file with extension `ext` (any case, no dot) is named for this format.
    public func matches(extension ext: String) -> Bool {
        switch self {
        case .png: ext.lowercased() == "png"
        case .jpeg: ["jpg", "jpeg", "jpe", "jfif"].contains(ext.lowercased())
        case .webp: ext.lowercased() == "webp"
        }
    }

    /// Whether the saved file carries the original's EXIF.
    public var keepsExif: Bool {
        switch self {
        case .png, .jpeg: true
        case .webp: false
        }
    }

    /// Whether gdk-pixbuf can write this format here (WebP needs webp-pixbuf-loader).
    public var isAvailable: Bool { Self.writableTypes.contains(pixbufType) }

    /// What Save (Ctrl+S) writes for an original decoded as `format` (the decoder's name,
    /// `DecodedImage.format`): the same format where it can be written, JPEG for what cannot
    /// (HEIF, AVIF, TIFF, raw), PNG for images that are drawings rather than photos (GIF,
    /// BMP, ICO, SVG, and blank boards).
    public static func forOriginal(format: String?) -> SaveFormat {
        switch format?.lowercased() {
        case "jpeg": .jpeg(quality: defaultQuality)
        case "webp" where SaveFormat.webp(quality: defaultQuality).isAvailable: .webp(quality: defaultQuality)
        case "heif", "heic", "avif", "tiff", "raw", "webp": .jpeg(quality: defaultQuality)
        default: .png
        }
    }

    /// The format a name chosen in Save As asks for by its extension; nil for none known.
    public static func forFileName(_ name: String) -> SaveFormat? {
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return nil }
        let ext = String(name[name.index(after: dot)...])
        return [SaveFormat.png, .jpeg(quality: defaultQuality), .webp(quality: defaultQuality)].first { $0.matches(extension: ext) }
    }

    /// The gdk-pixbuf formats with a saver, by name.
    private static let writableTypes: Set<String> = {
        var names: Set<String> = []
        let list = gdk_pixbuf_get_formats()
        var node = list
        while let current = node {
            if let format = OpaquePointer(current.pointee.data), gdk_pixbuf_format_is_writable(format) != 0,
               let name = gdk_pixbuf_format_get_name(format) {
                names.insert(String(cString: name))
                g_free(name)
            }
            node = current.pointee.next
        }
        g_slist_free(list)
        return names
    }()
}
