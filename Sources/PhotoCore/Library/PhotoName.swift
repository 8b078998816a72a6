/// A photo's new file name as a person types it in the rename popover (F2), as Files and
/// Eye of GNOME take it: the part before the extension is selected to be typed over, and a
/// name that cannot be a file's is refused with a reason, before anything is asked of the
/// disk. A name already taken is refused by the rename itself, never by a look beforehand.
public enum PhotoName {
    public enum Problem: Sendable, Equatable {
        case empty
        case containsSlash
        /// "." and "..": the folder itself and its parent.
        case reserved
        /// More than 255 bytes, the most a name on Linux file systems holds.
        case tooLong
    }

    /// The most bytes of UTF-8 a file name may have.
    public static let maximumBytes = 255

    /// Why `name` cannot be a file's name, or nil when it can.
    public static func problem(with name: String) -> Problem? {
        if name.isEmpty || name.allSatisfy(\.isWhitespace) { return .empty }
        if name.contains("/") { return .containsSlash }
        if name == "." || name == ".." { return .reserved }
        if name.utf8.count > maximumBytes { return .tooLong }
        return nil
    }

    /// How many characters (Unicode scalars, GTK's character offsets) of `name` come before
    /// its extension's dot: what the rename field selects. The whole name when there is no
    /// extension, or when the name starts with its only dot (".hidden").
    public static func stemLength(of name: String) -> Int {
        let scalars = Array(name.unicodeScalars)
        guard let dot = scalars.lastIndex(of: "."), dot > 0 else { return scalars.count }
        return dot
    }
}
