import Foundation

/// What a search bar asks of an album's photos: words over the name, tags, place names,
/// camera and folder; favourites only; at least N stars; taken within a range; photos or videos.
public struct PhotoSearch: Sendable, Equatable {
    public enum Kind: Int, Sendable, CaseIterable { case all, photos, videos }

    public var text: String
    public var favouritesOnly: Bool
    /// 0: any rating.
    public var minimumRating: Int
    /// Taken on or after, and before (seconds since 1970, the photo's own clock).
    public var takenFrom: Int64?
    public var takenBefore: Int64?
    public var kind: Kind

    public init(text: String = "", favouritesOnly: Bool = false, minimumRating: Int = 0,
                takenFrom: Int64? = nil, takenBefore: Int64? = nil, kind: Kind = .all) {
        self.text = text
        self.favouritesOnly = favouritesOnly
        self.minimumRating = PhotoMarks.clampedRating(minimumRating)
        self.takenFrom = takenFrom
        self.takenBefore = takenBefore
        self.kind = kind
    }

    /// Whether the search keeps every photo (the search bar shows the album as it is).
    public var isEmpty: Bool {
        words.isEmpty && !favouritesOnly && minimumRating == 0 && takenFrom == nil && takenBefore == nil && kind == .all
    }

    /// The text's words, folded (no case, no accents): every one must be found.
    public var words: [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map { Self.folded(String($0)) }
    }

    public static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// A matcher for many photos: the words folded once.
    public func matcher() -> Matcher { Matcher(search: self, words: words) }

    public struct Matcher: Sendable {
        let search: PhotoSearch
        let words: [String]

        public func matches(_ photo: SearchablePhoto) -> Bool {
            if search.favouritesOnly, !photo.marks.favourite { return false }
            if photo.marks.rating < search.minimumRating { return false }
            switch search.kind {
            case .all: break
            case .photos: if photo.isVideo { return false }
            case .videos: if !photo.isVideo { return false }
            }
            if search.takenFrom != nil || search.takenBefore != nil {
                guard let taken = photo.taken else { return false }
                if let from = search.takenFrom, taken < from { return false }
                if let before = search.takenBefore, taken >= before { return false }
            }
            guard !words.isEmpty else { return true }
            let haystack = photo.foldedText
            return words.allSatisfy { haystack.contains($0) }
        }
    }
}

/// What a search looks at of one photo.
public struct SearchablePhoto: Sendable, Equatable {
    public var name: String
    /// The folder's path below the opened one (or its name).
    public var folder: String
    public var camera: String
    public var marks: PhotoMarks
    public var taken: Int64?
    public var isVideo: Bool
    /// Name, tags (and place names), camera and folder, folded, one line each.
    public let foldedText: String

    public init(name: String, folder: String = "", camera: String = "", marks: PhotoMarks = .none,
                taken: Int64? = nil, isVideo: Bool = false) {
        self.init(name: name, folder: folder, camera: camera, marks: marks, taken: taken, isVideo: isVideo,
                  foldedText: Self.foldedText(name: name, folder: folder, camera: camera, tags: marks.tags + marks.places.names))
    }

    /// A photo whose folded text was worked out before (`foldedText(name:folder:camera:tags:)`):
    /// folding is most of a search's time, and a photo's text changes seldom.
    public init(name: String, folder: String, camera: String, marks: PhotoMarks, taken: Int64?, isVideo: Bool, foldedText: String) {
        self.name = name
        self.folder = folder
        self.camera = camera
        self.marks = marks
        self.taken = taken
        self.isVideo = isVideo
        self.foldedText = foldedText
    }

    public static func foldedText(name: String, folder: String, camera: String, tags: [String]) -> String {
        PhotoSearch.folded(([name, folder, camera] + tags).joined(separator: "\n"))
    }
}
