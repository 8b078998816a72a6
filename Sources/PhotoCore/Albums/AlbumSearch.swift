import Foundation

/// What a field that searches the person's albums and names a new one ("Add to Album…")
/// means as the person types: the albums whose titles hold every word typed (in any case,
/// with or without accents), the album titled exactly as typed (after `CollectionTitle`'s
/// normalization), and the title a new album would get, or why no new album can have it.
public struct AlbumSearch: Sendable, Equatable {
    /// The indices of the titles that match, in their order.
    public let matches: [Int]
    /// The index of the title that is the one typed, if any.
    public let exact: Int?
    /// The title of a new album, when one can be made of what was typed.
    public let newTitle: String?
    /// Why what was typed is no new album's title (too long, or another album's); nil when
    /// nothing was typed or it is a good title.
    public let problem: CollectionProblem?

    /// Searches `titles` (the person's albums) for `query`.
    public init(query: String, titles: [String]) {
        matches = titles.indices.filter { Self.matches(titles[$0], query: query) }
        let title = CollectionTitle.normalized(query)
        exact = title.isEmpty ? nil : titles.firstIndex { CollectionTitle.normalized($0) == title }
        if title.isEmpty {
            newTitle = nil
            problem = nil
            return
        }
        do throws(CollectionProblem) {
            newTitle = try CollectionTitle.validated(title, among: titles)
            problem = nil
        } catch {
            newTitle = nil
            problem = error
        }
    }

    /// Whether `title` holds every word of `query` (all titles match an empty query).
    public static func matches(_ title: String, query: String) -> Bool {
        query.split(whereSeparator: { $0.isWhitespace }).allSatisfy {
            title.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
    }

    /// What Enter chooses: the album titled as typed, else a new album of that title, else
    /// the first album that matches; nil when there is nothing to choose.
    public var firstChoice: Choice? {
        if let exact { return .existing(exact) }
        if let newTitle { return .new(newTitle) }
        return matches.first.map { .existing($0) }
    }

    public enum Choice: Sendable, Equatable {
        /// The album at this index of the titles searched.
        case existing(Int)
        /// A new album with this title.
        case new(String)
    }
}
