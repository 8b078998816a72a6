/// The name a marked-up photo is saved under, beside its original: "IMG_0042 (marked up).jpg",
/// then "IMG_0042 (marked up 2).jpg", "IMG_0042 (marked up 3).jpg", … the first one not
/// taken. A blank board's drawing is "Drawing.png", "Drawing 2.png", …
///
/// The words are translated (`tr`), as GNOME Screenshot's file names are. Names are bytes, as
/// the file system holds them, so an original whose name is not UTF-8 keeps its bytes; the
/// `String` forms are for names that are.
///
/// ```swift
/// MarkedUpName.name(for: "IMG_0042.jpg") { FileManager.default.fileExists(atPath: folder + "/" + $0) }
/// // "IMG_0042 (marked up).jpg", or "IMG_0042 (marked up 2).jpg" when that is taken, …
/// ```
public enum MarkedUpName {
    /// How many numbers are tried before giving up.
    public static let limit = 10_000

    /// The first name for a marked-up copy of `original` (a file name, not a path) that
    /// `isTaken` says is free; nil when the first `limit` are all taken.
    ///
    /// `extension` (without the dot: "png") replaces the original's, for a copy saved in
    /// another format; nil keeps the original's.
    public static func name(for original: String, extension newExtension: String? = nil,
                            isTaken: (String) -> Bool) -> String? {
        candidates(for: original, extension: newExtension).first { !isTaken($0) }
    }

    /// Every name `name(for:extension:isTaken:)` tries, in order, made as they are asked for.
    public static func candidates(for original: String, extension newExtension: String? = nil)
        -> LazyMapSequence<ClosedRange<Int>, String> {
        let bytes = candidates(for: Array(original.utf8), extension: newExtension.map { Array($0.utf8) })
        return (1...limit).lazy.map { String(decoding: bytes.name($0), as: UTF8.self) }
    }

    /// The names to try for a marked-up copy of the file called `original` (its bytes).
    public static func candidates(for original: [UInt8], extension newExtension: [UInt8]? = nil) -> Candidates {
        let (stem, oldExtension) = split(original)
        let ext = newExtension.map { $0.isEmpty ? [] : [UInt8(ascii: ".")] + $0 } ?? oldExtension
        // TRANSLATORS: the file name of a marked-up copy of a photo, without its extension;
        // %s is the original's name without its extension: "IMG_0042 (marked up)".
        let first = filled(tr("%s (marked up)"), stem: stem).before + ext
        // TRANSLATORS: the same when that name is taken; %2$s is a number from 2 up:
        // "IMG_0042 (marked up 2)".
        let numbered = filled(tr("%1$s (marked up %2$s)"), stem: stem)
        return Candidates(first: first, numbered: numbered, extension: ext)
    }

    /// The names for one original, the first and the numbered ones, as bytes.
    public struct Candidates: Sequence, Sendable {
        let first: [UInt8]
        /// The numbered name's bytes before and after the number.
        let numbered: (before: [UInt8], after: [UInt8])
        let `extension`: [UInt8]

        /// The `n`th name (1 is the one without a number).
        public func name(_ n: Int) -> [UInt8] {
            n <= 1 ? first : numbered.before + Array(String(n).utf8) + numbered.after + `extension`
        }

        public func makeIterator() -> LazyMapSequence<ClosedRange<Int>, [UInt8]>.Iterator {
            (1...MarkedUpName.limit).lazy.map { name($0) }.makeIterator()
        }
    }

    /// The names to try for a blank board's drawing saved as `extension` ("png"):
    /// "Drawing.png", "Drawing 2.png", …
    public static func drawingCandidates(extension ext: String) -> LazyMapSequence<ClosedRange<Int>, String> {
        let suffix = ext.isEmpty ? "" : "." + ext
        // TRANSLATORS: the file name of a drawing made on a blank board, without its extension.
        let first = tr("Drawing")
        // TRANSLATORS: the same when that name is taken; %s is a number from 2 up.
        let numbered = tr("Drawing %s")
        return (1...limit).lazy.map { $0 == 1 ? first + suffix : fillPlaceholders(numbered, [String($0)]) + suffix }
    }

    // MARK: - Bytes

    /// The name's stem and its extension with its dot ("IMG_1", ".jpg"). The extension
    /// starts at the last dot that is not the first byte (".hidden" has none).
    public static func split(_ name: [UInt8]) -> (stem: [UInt8], extension: [UInt8]) {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return (name, []) }
        return (Array(name[..<dot]), Array(name[dot...]))
    }

    /// Markers put where the stem and the number go while the template is filled.
    private static let stemMarker: UInt8 = 1, numberMarker: UInt8 = 2

    /// The translated template with the stem's bytes in, split where the number goes (all
    /// in `before` when it has no number).
    private static func filled(_ template: String, stem: [UInt8]) -> (before: [UInt8], after: [UInt8]) {
        let markers = [String(UnicodeScalar(stemMarker)), String(UnicodeScalar(numberMarker))]
        let text = Array(fillPlaceholders(template, markers).utf8)
        func withStem(_ part: ArraySlice<UInt8>) -> [UInt8] { part.flatMap { $0 == stemMarker ? stem : [$0] } }
        guard let number = text.firstIndex(of: numberMarker) else { return (withStem(text[...]), []) }
        return (withStem(text[..<number]), withStem(text[(number + 1)...]))
    }
}
