/// What the tag editor (Ctrl+T) works with: the tags the photos acted on share, the tags a
/// person typed ("beach, Kyoto 2024"), the change that turns one into the other, and the
/// tags already used that complete the word being typed.
///
/// ```swift
/// let editing = TagEditing(photosTags: [["beach", "sea"], ["beach"]])
/// editing.shared                      // ["beach"]: the field starts with it
/// editing.change(typed: "beach, dunes") // .editTags(added: ["beach", "dunes"], removed: [])
/// ```
public struct TagEditing: Sendable, Equatable {
    /// The tags every photo acted on has, in the first photo's order.
    public let shared: [String]

    public init(photosTags: [[String]]) {
        guard let first = photosTags.first else { shared = []; return }
        let others = photosTags.dropFirst().map { Set($0.map { $0.lowercased() }) }
        shared = first.filter { tag in others.allSatisfy { $0.contains(tag.lowercased()) } }
    }

    /// The text the field starts with: the shared tags, separated by commas.
    public var text: String { Self.text(of: shared) }

    public static func text(of tags: [String]) -> String { tags.joined(separator: ", ") }

    /// The tags in a typed text: separated by commas (or semicolons, or new lines), cleaned
    /// as every tag is (`PhotoMarks.cleanTags`).
    public static func tags(in typed: String) -> [String] {
        PhotoMarks.cleanTags(typed.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\n" || $0 == "，" || $0 == "、" }).map(String.init))
    }

    /// The change that writes the typed tags: the shared tags no longer typed are removed
    /// from every photo, the typed ones added to every photo; nil when nothing changes.
    public func change(typed: String) -> MarksChange? {
        let typedTags = Self.tags(in: typed)
        let kept = Set(typedTags.map { $0.lowercased() })
        let removed = shared.filter { !kept.contains($0.lowercased()) }
        let sharedSet = Set(shared.map { $0.lowercased() })
        if removed.isEmpty, typedTags.allSatisfy({ sharedSet.contains($0.lowercased()) }) { return nil }
        return .editTags(added: typedTags, removed: removed)
    }

    /// How many photos have each tag, among the marks known: what suggestions are ranked by.
    public static func uses(in marks: some Sequence<PhotoMarks>) -> [String: Int] {
        var used: [String: Int] = [:]
        for photo in marks {
            for tag in photo.tags { used[tag, default: 0] += 1 }
        }
        return used
    }

    /// Where the tag editor points: at the photo's tile, or under the window's title.
    public enum Place: Sendable, Equatable {
        case title
        case tile(String)
    }

    /// Where the tag editor for `uris` points: under the title in the viewer; else the
    /// focused tile when it is one of them, else the first of them with a tile in view
    /// (`hasTile`), else under the title.
    public static func place(for uris: [String], inViewer: Bool, focused: String?, hasTile: (String) -> Bool) -> Place {
        if inViewer { return .title }
        if let focused, uris.contains(focused), hasTile(focused) { return .tile(focused) }
        return uris.first(where: hasTile).map(Place.tile) ?? .title
    }

    /// The word being typed: what follows the last separator, trimmed.
    public static func lastWord(of typed: String) -> String {
        let tail = typed.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == ";" || $0 == "，" || $0 == "、" }).last ?? ""
        return tail.trimmingCharacters(in: .whitespaces)
    }

    /// Tags already used that complete the word being typed (beginning with it, or with a
    /// word of theirs beginning with it, without case or accents), not typed yet, most used
    /// first, at most `limit`. No word typed: the most used ones.
    public static func suggestions(for typed: String, from used: [String: Int], limit: Int = 6) -> [String] {
        let word = PhotoSearch.folded(lastWord(of: typed))
        let already = Set(tags(in: typed).map { $0.lowercased() })
        let candidates = used.filter { tag, _ in
            guard !already.contains(tag.lowercased()) else { return false }
            guard !word.isEmpty else { return true }
            let folded = PhotoSearch.folded(tag)
            return folded != word && (folded.hasPrefix(word) || folded.split(separator: " ").contains { $0.hasPrefix(word) })
        }
        return candidates.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.lowercased() < $1.key.lowercased() }
            .prefix(limit).map(\.key)
    }

    /// The typed text with its last word replaced by `tag`, ready for the next one.
    public static func completing(_ typed: String, with tag: String) -> String {
        let separators: Set<Character> = [",", ";", "，", "、"]
        let head = typed.lastIndex(where: { separators.contains($0) }).map { String(typed[...$0]) + " " } ?? ""
        return head + tag + ", "
    }
}
