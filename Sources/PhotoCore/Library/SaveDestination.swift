import Foundation

/// Where the app's saves write, decided before any file is touched: the drawing board's Save,
/// the viewer's Save a Copy, and the numbered names that keep any of them (and an export)
/// from ever replacing a file.
///
/// Writing is PhotoIO's (`BoardSaving`, `PhotoExport`): a temporary file renamed into place
/// by a rename that refuses to replace, trying the names given here in order.
public enum SaveDestination {
    /// Where the drawing board's Save (Ctrl+S) writes.
    public enum Board: Sendable, Equatable {
        /// A new file beside this one (a URI), named after it ("IMG_1 (marked up).jpg").
        case beside(String)
        /// A blank board's "Drawing.png" in this folder (a URI), made when missing.
        case drawing(inFolder: String)
    }

    /// The board's Save for a board on `original` (a URI; nil for a blank board), with
    /// `pictures` the Pictures folder's URI: beside the original when it is a file, in
    /// Pictures under the name its address ends with when it is a photo on the web (which
    /// has no folder here), and a blank board's drawing in Pictures.
    public static func board(original: String?, pictures: String) -> Board {
        guard let original else { return .drawing(inFolder: pictures) }
        guard WebAddress.isWebAddress(original) else { return .beside(original) }
        let name = fileName(ofAddress: original)
        let escaped = name.addingPercentEncoding(withAllowedCharacters: fileNameAllowed) ?? "photo"
        let folder = pictures.hasSuffix("/") ? String(pictures.dropLast()) : pictures
        return .beside(folder + "/" + escaped)
    }

    /// The name Save a Copy suggests for the photo `id` (its URI) shown as `displayName`: a
    /// web photo's is its address's last part (its title may be any words), a file's its own.
    public static func copyName(id: String, displayName: String) -> String {
        WebAddress.isWebAddress(id) ? fileName(ofAddress: id) : displayName
    }

    /// The file name a web address gives: the last part of its path, decoded ("IMG%201.jpg"
    /// → "IMG 1.jpg"). Never one that leaves its folder or that a file system refuses: a
    /// slash or a control character decoded becomes "_", and nothing, "." or ".." is "photo".
    public static func fileName(ofAddress url: String) -> String {
        let path = URL(string: url)?.path ?? ""
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        let decoded = last.removingPercentEncoding ?? last
        let name = String(String.UnicodeScalarView(decoded.unicodeScalars.map { scalar in
            scalar == "/" || scalar.properties.generalCategory == .control ? "_" : scalar
        }))
        return ["", ".", ".."].contains(name) ? "photo" : name
    }

    /// What may stand unescaped in a file name inside a URI: a path's characters but the slash.
    private static let fileNameAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return allowed
    }()

    // MARK: - Names never replacing a file

    /// How many numbered names are tried before giving up.
    public static let nameLimit = 10_000

    /// The names to try, in order, for a file called `name` in a folder where it may be
    /// taken: "IMG_1.jpg", "IMG_1 (2).jpg", "IMG_1 (3).jpg", … (`nameLimit` of them).
    public static func numberedNames(_ name: [UInt8]) -> LazyMapSequence<ClosedRange<Int>, [UInt8]> {
        (1...nameLimit).lazy.map { numbered(name, $0) }
    }

    /// `name` with " (N)" before its extension for N ≥ 2: "IMG_1.jpg" → "IMG_1 (2).jpg". The
    /// extension starts at the last dot that is not the first byte (".hidden" has none).
    /// Works on bytes, so names that are not UTF-8 keep their bytes.
    public static func numbered(_ name: [UInt8], _ number: Int) -> [UInt8] {
        guard number > 1 else { return name }
        let dot = name.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 > 0 ? $0 : nil } ?? name.endIndex
        return Array(name[..<dot]) + Array(" (\(number))".utf8) + Array(name[dot...])
    }
}
