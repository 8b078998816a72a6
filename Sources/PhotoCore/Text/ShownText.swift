/// Text as a widget shows it: ours (a translated message, with any outside text put in as
/// `OutsideText`), or outside text on its own. The app's text setters take only this
/// (`Texts` in the app), so that every text shown passes one cleaning and, where a widget
/// parses Pango markup, is escaped: nothing the app shows is ever read as markup.
///
/// The cleaning drops what no text of ours holds: control characters (but line breaks and
/// tabs) and the bidirectional embeddings and overrides (U+202A–U+202E). The isolates that
/// `OutsideText` puts around names stay; one left open by text that bypassed `OutsideText`
/// ends at the end of its paragraph, as Unicode says, and reorders nothing after it.
public struct ShownText: Sendable, Hashable {
    /// The text, cleaned, for widgets that show text as it is.
    public let plain: String

    /// Text of the app's own: a translated message, a number.
    public init(_ text: String) {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let kept = scalar == "\n" || scalar == "\t"
                || !(OutsideText.isControl(scalar) || (0x202A...0x202E).contains(scalar.value))
            if kept { scalars.append(scalar) }
        }
        plain = String(scalars)
    }

    /// Outside text shown on its own.
    public init(_ outside: OutsideText) {
        self.init(outside.standalone)
    }

    /// The text as Pango markup that shows it as it is.
    public var markup: String { Self.escapingMarkup(plain) }

    /// `text` with the characters markup gives a meaning to written as entities, as GLib's
    /// `g_markup_escape_text` writes them: `&amp;`, `&lt;`, `&gt;`, `&#39;`, `&quot;`, and
    /// the control characters a markup parser refuses as character references.
    public static func escapingMarkup(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            case "\"": out += "&quot;"
            default:
                let value = scalar.value
                if (0x1...0x8).contains(value) || value == 0xB || value == 0xC || (0xE...0x1F).contains(value)
                    || (0x7F...0x84).contains(value) || (0x86...0x9F).contains(value) {
                    out += "&#x\(String(value, radix: 16));"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
