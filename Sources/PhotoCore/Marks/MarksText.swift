/// How marks read on a tile and in the properties: a heart and stars.
public enum MarksText {
    /// "♥ ★★★★" for a favourite of four stars; empty for none.
    public static func badge(_ marks: PhotoMarks) -> String {
        var parts: [String] = []
        if marks.favourite { parts.append("♥") }
        if marks.rating > 0 { parts.append(String(repeating: "★", count: marks.rating)) }
        return parts.joined(separator: " ")
    }

    /// "★★★★☆" (the stars of five set), for the properties.
    public static func stars(_ rating: Int) -> String {
        String(repeating: "★", count: rating) + String(repeating: "☆", count: PhotoMarks.maxRating - rating)
    }
}

extension MarksText {
    /// The properties panel's rows for a photo's marks: its stars, whether it is a favourite,
    /// its tags (rows only for what it has).
    public static func rows(_ marks: PhotoMarks?) -> [(label: String, value: String)] {
        guard let marks, !marks.isEmpty else { return [] }
        var rows: [(label: String, value: String)] = []
        if marks.rating > 0 { rows.append((tr("Rating"), stars(marks.rating))) }
        if marks.favourite { rows.append((tr("Favourite"), "♥")) }
        if !marks.tags.isEmpty { rows.append((tr("Tags"), marks.tags.joined(separator: ", "))) }
        return rows
    }
}
