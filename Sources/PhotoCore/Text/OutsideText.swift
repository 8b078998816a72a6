/// Text that came from outside the app: a file or folder name, a web list's title, a server's
/// reason phrase, EXIF. Shown only once cleaned: it may hold control characters (drawn as
/// boxes, or a BEL and an ESC taken for terminal codes), and bidirectional formatting
/// characters that reorder what follows them, so that "\u{202E}gpj.exe" reads as "exe.jpg".
///
/// `cleaned` drops control characters (C0, DEL, C1; line and tab breaks become a space) and
/// the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). The
/// marks LRM, RLM and ALM stay: they reorder nothing but neutral characters next to them, and
/// right-to-left names use them. A name set into a sentence of ours goes in as `isolated`
/// (that is its `messageText`): between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, so
/// that a right-to-left name neither takes the sentence's punctuation with it nor is
/// reordered by it.
///
/// ```swift
/// let title = OutsideText(list.title)
/// ShownText(title)                                   // on its own: a window's title
/// fillPlaceholders("“%s” has no images in it.", [title])   // in a sentence: isolated
/// ```
public struct OutsideText: Sendable, Hashable, MessageValue {
    /// The text as it came.
    public let raw: String

    public init(_ raw: String) { self.raw = raw }

    /// FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE.
    public static let isolateStart: Unicode.Scalar = "\u{2068}"
    public static let isolateEnd: Unicode.Scalar = "\u{2069}"

    /// The text without control characters or bidirectional embeddings, overrides and
    /// isolates, each run of line breaks and tabs one space, trimmed.
    public var cleaned: String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            if Self.isBreak(scalar) {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if Self.isControl(scalar) || Self.isBidiFormatting(scalar) { continue }
            if pendingSpace { scalars.append(" ") }
            pendingSpace = false
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// `cleaned` between the isolate characters: the way a name goes into a sentence.
    public var isolated: String {
        let text = cleaned
        return text.isEmpty ? text : "\(Self.isolateStart)\(text)\(Self.isolateEnd)"
    }

    /// `cleaned`, isolated when it holds right-to-left letters: the way a name is shown on
    /// its own (a window's title, a tile's name).
    public var standalone: String {
        let text = cleaned
        return text.unicodeScalars.contains(where: Self.isStrongRightToLeft) ? isolated : text
    }

    public var messageText: String { isolated }

    /// C0 and C1 control characters and DEL (the breaks among them excepted).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Line and paragraph breaks and tabs: shown as a space.
    static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(scalar.value)
    }

    /// LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
    public static func isBidiFormatting(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan,
    /// Mandaic and their presentation forms; the historic ones of the supplementary planes).
    static func isStrongRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            // Arabic-Indic digits and combining marks are not letters, but a name of them alone
            // is as well isolated.
            return true
        default:
            return false
        }
    }
}
