import Foundation

/// What a person set on a photo to find it again: a favourite (a heart), a rating of 0 to 5
/// stars, and tags. Kept in XMP, where other photo apps read them (`XMPSidecarText`).
public struct PhotoMarks: Sendable, Equatable, Hashable {
    public static let maxRating = 5
    /// The most tags a photo keeps, and the longest tag, in characters.
    public static let maxTags = 200
    public static let maxTagLength = 200

    public var favourite: Bool
    /// 0 (not rated) to 5.
    public private(set) var rating: Int
    /// Each tag once (compared without case), trimmed, in the order given.
    public private(set) var tags: [String]
    /// Where the XMP (or IPTC) they were read from says the photo was taken: no mark a person
    /// sets, but read with them, searched with them, and carried on into a new sidecar.
    public var places: PlaceNames

    public init(favourite: Bool = false, rating: Int = 0, tags: [String] = [], places: PlaceNames = .none) {
        self.favourite = favourite
        self.rating = Self.clampedRating(rating)
        self.tags = Self.cleanTags(tags)
        self.places = places
    }

    public static let none = PhotoMarks()

    /// No favourite, no stars, no tags (whatever places are named).
    public var isEmpty: Bool { !favourite && rating == 0 && tags.isEmpty }

    public mutating func setRating(_ stars: Int) { rating = Self.clampedRating(stars) }
    public mutating func setTags(_ newTags: [String]) { tags = Self.cleanTags(newTags) }

    /// XMP's rating -1 ("rejected") and anything out of range count as no stars; above 5, five.
    public static func clampedRating(_ stars: Int) -> Int { min(max(stars, 0), maxRating) }

    /// Tags as a person or another app wrote them: control and bidi-override characters
    /// removed, spaces trimmed, empty ones and repeats (without case) left out.
    public static func cleanTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for tag in tags {
            let cleaned = cleanTag(tag)
            guard !cleaned.isEmpty, out.count < maxTags, seen.insert(cleaned.lowercased()).inserted else { continue }
            out.append(cleaned)
        }
        return out
    }

    static func cleanTag(_ tag: String) -> String {
        let kept = tag.unicodeScalars.filter { scalar in
            !(scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format)
        }
        var text = String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > maxTagLength { text = String(text.prefix(maxTagLength)) }
        return text
    }
}

/// One change a person makes to a photo's marks; applied to what the photo has, undone with
/// the marks it had before.
public enum MarksChange: Sendable, Equatable {
    case rating(Int)
    case favourite(Bool)
    case tags([String])
    /// Tags edited for one photo or many at once: `removed` taken off (without case) and
    /// `added` put after the tags each photo keeps, so that a photo's other tags stay.
    case editTags(added: [String], removed: [String])

    public func applied(to marks: PhotoMarks) -> PhotoMarks {
        var result = marks
        switch self {
        case .rating(let stars): result.setRating(stars)
        case .favourite(let on): result.favourite = on
        case .tags(let tags): result.setTags(tags)
        case .editTags(let added, let removed):
            let gone = Set(removed.map { $0.lowercased() })
            result.setTags(marks.tags.filter { !gone.contains($0.lowercased()) } + added)
        }
        return result
    }
}

/// Where a photo's marks are read from, in order: `NAME.EXT.xmp` (darktable, digiKam, and
/// what this app writes), `NAME.xmp` (Lightroom, RawTherapee), then the XMP and IPTC embedded
/// in the photo.
public enum SidecarNames {
    /// The sidecar this app writes for a photo named `photoName`.
    public static func written(for photoName: String) -> String { photoName + ".xmp" }

    /// The sidecars read for a photo, first found first used.
    public static func read(for photoName: String) -> [String] {
        var names = [written(for: photoName)]
        if let dot = photoName.lastIndex(of: "."), dot != photoName.startIndex {
            names.append(String(photoName[..<dot]) + ".xmp")
        }
        return names
    }

    /// Whether a file name is a sidecar (left out of listings' photos anyway, as not an image).
    public static func isSidecar(_ name: String) -> Bool { name.lowercased().hasSuffix(".xmp") }

    /// Those of `photos` (URIs of photos in one folder) whose marks may be read from one of
    /// `sidecars` (URIs of files in that folder): `NAME.EXT` for `NAME.EXT.xmp`, every
    /// `NAME.EXT` for `NAME.xmp`. A URI's escaping leaves its dots and slashes as they are, so
    /// names are compared as the URIs spell them.
    public static func photos(reading sidecars: Set<String>, among photos: [String]) -> [String] {
        guard !sidecars.isEmpty else { return [] }
        return photos.filter { photo in
            guard let slash = photo.lastIndex(of: "/") else { return false }
            let folder = photo[...slash]
            return read(for: String(photo[photo.index(after: slash)...])).contains { sidecars.contains(folder + $0) }
        }
    }
}
