/// What a person reads when a file cannot be shown, in place of what the libraries say: a
/// loader's message ("Improper call to JPEG library in state 201") means nothing to them, nor
/// a MIME type.
public enum FailureWords {
    /// What a file holds that no loader here reads, as a person says it: "a text file", not
    /// "plain text document (text/plain)".
    public static func contents(ofType contentType: String) -> String {
        let type = contentType.lowercased()
        let (major, minor) = type.split(separator: "/", maxSplits: 1).map(String.init).pairs
        switch (major, minor) {
        case ("text", "html"), ("application", "xhtml+xml"):
            return tr("a web page")
        case ("application", "pdf"):
            return tr("a PDF document")
        case ("application", "x-zerosize"), ("inode", "x-empty"):
            return tr("empty")
        case ("application", let kind) where ["zip", "x-tar", "gzip", "x-gzip", "x-7z-compressed", "vnd.rar", "x-rar",
                                               "x-xz", "x-bzip2", "zstd", "x-compressed-tar"].contains(kind):
            return tr("an archive")
        case ("application", let kind) where ["json", "xml", "x-yaml", "javascript", "x-shellscript"].contains(kind):
            return tr("a text file")
        case ("text", _):
            return tr("a text file")
        case ("video", _):
            return tr("a video")
        case ("audio", _):
            return tr("a sound file")
        case ("image", _):
            return tr("an image in a format this computer cannot show")
        case ("font", _), ("application", "x-font-ttf"), ("application", "vnd.ms-opentype"):
            return tr("a font")
        default:
            return tr("data of another kind")
        }
    }

    /// Why a file the loader gave up on cannot be shown. `message` is the loader's; `header`
    /// whether the loader understood the file's header (so it is a photo, damaged).
    public static func loaderFailure(_ message: String?, header: Bool) -> String {
        if let message, isCutShort(message) { return endMissing }
        return header ? tr("The photo is damaged and cannot be shown.")
            : tr("The file is damaged, or is no photo this computer can read.")
    }

    /// A photo whose file ends before its image does, shown as far as it goes.
    public static var endMissing: String { tr("The end of this photo is missing: the file was cut short.") }

    /// A loader's words for data that ends too soon.
    public static func isCutShort(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return ["premature end", "truncated", "not enough data", "unexpected end", "end of file", "eof"]
            .contains { lowered.contains($0) }
    }
}

extension Array where Element == String {
    fileprivate var pairs: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
