/// A label's access key (the mnemonic's underlined letter) taken out, for buttons where it
/// serves nobody: a header bar's buttons are reached by their shortcuts (Enter, Escape,
/// Ctrl+S), and a translation that cannot underline one of its own letters adds the key in
/// parentheses, which a label without mnemonics shows as it is ("保存(S)").
///
/// ```swift
/// AccessKey.removed(from: "_Save")          // "Save"
/// AccessKey.removed(from: "保存(_S)")        // "保存"
/// AccessKey.removed(from: "选择 %d 张照片(_H)") // "选择 %d 张照片"
/// ```
public enum AccessKey {
    public static func removed(from label: String) -> String {
        var text = Substring(label)
        // "(_S)" or "（_S）", with any space before it, at the end or before an ellipsis.
        for (open, close) in [("(_", ")"), ("（_", "）")] {
            if let start = text.range(of: open, options: .backwards),
               text[start.upperBound...].count >= 1 + close.count,
               text[text.index(after: start.upperBound)...].hasPrefix(close) {
                let end = text.index(text.index(after: start.upperBound), offsetBy: close.count)
                var head = text[..<start.lowerBound]
                while head.last == " " { head = head.dropLast() }
                text = head + text[end...]
            }
        }
        // The remaining underscore marks the key; a doubled one is an underscore shown.
        var out = ""
        var characters = text.makeIterator()
        while let character = characters.next() {
            guard character == "_" else { out.append(character); continue }
            if let next = characters.next() {
                out.append(next)
            }
        }
        return out
    }
}
