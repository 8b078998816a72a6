/// The XMP this app writes: a new sidecar's whole text, and the names it writes within any
/// sidecar (`XMPMarksMerge` in PhotoIO merges them into one that exists).
///
/// - rating: `xmp:Rating` (0 to 5; 0 is "not rated"), as every XMP reader has it;
/// - tags: `dc:subject`, an `rdf:Bag` of `rdf:li`, as digiKam, darktable, Lightroom and
///   exiftool's `-XMP:Subject` have them;
/// - favourite: `digiKam:PickLabel` 3 ("Accepted", digiKam's green flag), independent of the
///   rating; read back also from `xmp:Label` "Favorite"/"Favourite".
public enum XMPSidecarText {
    public static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    public static let xmp = "http://ns.adobe.com/xap/1.0/"
    public static let dc = "http://purl.org/dc/elements/1.1/"
    public static let digiKam = "http://www.digikam.org/ns/1.0/"
    public static let meta = "adobe:ns:meta/"
    /// Where a photo was taken: `photoshop:City`, `photoshop:State`, `photoshop:Country`,
    /// and `Iptc4xmpCore:Location` (the place within the city).
    public static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    public static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    /// The pick label digiKam calls "Accepted", a favourite here.
    public static let favouritePickLabel = 3

    /// A new sidecar holding `marks` (and the places the photo's own XMP named, if any).
    public static func fresh(_ marks: PhotoMarks) -> String {
        let places = marks.places
        var placeLines: [String] = []
        if !places.isEmpty {
            placeLines.append("    xmlns:photoshop=\"\(photoshop)\"")
            if !places.location.isEmpty { placeLines.append("    xmlns:Iptc4xmpCore=\"\(iptcCore)\"") }
            for (name, value) in [("Iptc4xmpCore:Location", places.location), ("photoshop:City", places.city),
                                  ("photoshop:State", places.state), ("photoshop:Country", places.country)] where !value.isEmpty {
                placeLines.append("   \(name)=\"\(escaped(value))\"")
            }
        }
        var lines = [
            "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>",
            "<x:xmpmeta xmlns:x=\"\(meta)\" x:xmptk=\"gphotobrowse\">",
            " <rdf:RDF xmlns:rdf=\"\(rdf)\">",
            "  <rdf:Description rdf:about=\"\"",
            "    xmlns:xmp=\"\(xmp)\"",
            "    xmlns:dc=\"\(dc)\"",
            "    xmlns:digiKam=\"\(digiKam)\"",
        ] + placeLines + [
            "   xmp:Rating=\"\(marks.rating)\"" + (marks.favourite ? "\n   digiKam:PickLabel=\"\(favouritePickLabel)\">" : ">"),
        ]
        if !marks.tags.isEmpty {
            lines.append("   <dc:subject>")
            lines.append("    <rdf:Bag>")
            for tag in marks.tags { lines.append("     <rdf:li>\(escaped(tag))</rdf:li>") }
            lines.append("    </rdf:Bag>")
            lines.append("   </dc:subject>")
        }
        lines += ["  </rdf:Description>", " </rdf:RDF>", "</x:xmpmeta>", "<?xpacket end=\"w\"?>", ""]
        return lines.joined(separator: "\n")
    }

    /// Text as XML character data or an attribute's value.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
