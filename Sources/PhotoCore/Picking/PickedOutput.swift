/// What `--pick` writes to standard output for the photos chosen: one entry each, in the
/// order shown, each followed by a newline (or a NUL with `--null`). An entry is a file's
/// path as its bytes (a name need not be UTF-8) or a URI.
public enum PickedOutput {
    public static func bytes(_ entries: [[UInt8]], nullSeparated: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for entry in entries {
            out += entry
            out.append(nullSeparated ? 0 : UInt8(ascii: "\n"))
        }
        return out
    }

    // MARK: Through a running instance

    /// The output for a caller whose command line a running instance took over: GLib's
    /// `g_application_command_line_print` sends text (over D-Bus, where no NUL fits) that the
    /// caller prints with `g_print`. So the bytes go as text, marked and percent-escaped, and
    /// the caller's print handler turns them back into bytes (`decodedPrint`).
    public static func printable(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array(marker.utf8)
        for byte in bytes {
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "%") {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `printable` made, or nil for text it did not make (printed as it is).
    public static func decodedPrint(_ text: String) -> [UInt8]? {
        guard text.hasPrefix(marker) else { return nil }
        var out: [UInt8] = []
        var bytes = Array(text.utf8.dropFirst(marker.utf8.count))[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard bytes.count >= 2, let high = hexValue(bytes.popFirst()!), let low = hexValue(bytes.popFirst()!) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    static let marker = "\u{1}gphotobrowse-picked:"

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
