/// The rules for the title of an album of the person's own.
///
/// A title is what was typed with line breaks, tabs and other control characters turned
/// into spaces and the spaces at both ends trimmed; it is not empty and at most
/// `maximumLength` characters long.
///
/// Titles are unique, as Shotwell's tags and saved searches are (it refuses "Unable to
/// rename tag to … because the tag already exists") and as gThumb's catalogs are (files
/// in one folder): making or renaming an album to a title another album has is refused.
/// The comparison is exact after trimming (Unicode canonical equivalence, case-sensitive,
/// as Shotwell's). Two albums with one title can still appear (an album brought back by
/// Undo after another took its title, a document copied by hand): both are kept and listed.
public enum CollectionTitle {
    /// The longest title, in characters (grapheme clusters).
    public static let maximumLength = 200

    /// `proposed` with control characters (line breaks, tabs) as spaces, trimmed.
    public static func normalized(_ proposed: String) -> String {
        let spaced = String(String.UnicodeScalarView(proposed.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? " " : scalar
        }))
        return spaced.trimmingWhitespace()
    }

    /// The title `proposed` makes: normalized, or why it cannot be one. `taken`: the other
    /// albums' titles (not the one being renamed).
    public static func validated(_ proposed: String, among taken: some Sequence<String>) throws(CollectionProblem) -> String {
        let title = try validated(proposed)
        if taken.contains(where: { normalized($0) == title }) { throw .titleTaken(title) }
        return title
    }

    /// `proposed` normalized, or why it is no title (empty, too long), whatever the others.
    static func validated(_ proposed: String) throws(CollectionProblem) -> String {
        let title = normalized(proposed)
        if title.isEmpty { throw .emptyTitle }
        if title.count > maximumLength { throw .titleTooLong }
        return title
    }

    /// A title for a new album that no other has: "New Album", else "New Album 2", "New
    /// Album 3", …, in the person's language.
    public static func unused(among taken: some Sequence<String>) -> String {
        let titles = Set(taken.map(normalized))
        let first = tr("New Album")
        if !titles.contains(first) { return first }
        var number = 2
        while titles.contains(tr("New Album %d", number)) { number += 1 }
        return tr("New Album %d", number)
    }
}

extension String {
    /// The string without white space (spaces, line breaks, and other Unicode spaces) at
    /// either end.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
