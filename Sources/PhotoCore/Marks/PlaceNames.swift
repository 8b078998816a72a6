/// Where a photo's XMP or IPTC says it was taken, as names: a location within a city (XMP's
/// `Iptc4xmpCore:Location`, IPTC's Sub-location), the city, the state or province and the
/// country (`photoshop:City`, `photoshop:State`, `photoshop:Country`, IPTC's City,
/// Province-State and Country). Read, never set by a person here; a search finds a photo by
/// them, and a sidecar this app writes anew carries them on.
public struct PlaceNames: Sendable, Equatable, Hashable {
    public private(set) var location: String
    public private(set) var city: String
    public private(set) var state: String
    public private(set) var country: String

    public init(location: String = "", city: String = "", state: String = "", country: String = "") {
        self.location = Self.cleaned(location)
        self.city = Self.cleaned(city)
        self.state = Self.cleaned(state)
        self.country = Self.cleaned(country)
    }

    public static let none = PlaceNames()

    public var isEmpty: Bool { location.isEmpty && city.isEmpty && state.isEmpty && country.isEmpty }

    /// The names given, most precise first.
    public var names: [String] { [location, city, state, country].filter { !$0.isEmpty } }

    /// The four names on four lines (what the decoder's reply and the photo index hold).
    public var lines: String { isEmpty ? "" : [location, city, state, country].joined(separator: "\n") }

    /// The names `lines` wrote.
    public init(lines: String) {
        let parts = lines.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func part(_ n: Int) -> String { n < parts.count ? parts[n] : "" }
        self.init(location: part(0), city: part(1), state: part(2), country: part(3))
    }

    /// Without control or format characters (a line break among them), trimmed, 200
    /// characters at most, as tags are.
    static func cleaned(_ name: String) -> String { PhotoMarks.cleanTag(name) }
}
