/// The XMP packet, and the IPTC keywords and place names, a JPEG carries in its header
/// segments (what Shotwell, gThumb, phones and cameras write into the photo itself). Read in a
/// decoder process only: these are bytes from outside.
public enum EmbeddedMarkSegments {
    /// What an XMP APP1 payload starts with.
    public static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// What a Photoshop APP13 payload (holding IPTC-IIM) starts with.
    public static let photoshopHeader: [UInt8] = Array("Photoshop 3.0".utf8) + [0]

    /// The first XMP packet's bytes, the IPTC keywords (record 2, dataset 25) and the IPTC
    /// place names (Sub-location 2:92, City 2:90, Province-State 2:95, Country 2:101) of `jpeg`.
    public static func read(_ jpeg: [UInt8]) -> (xmp: [UInt8]?, keywords: [String], places: PlaceNames) {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return (nil, [], .none) }
        var xmp: [UInt8]?
        var keywords: [String] = []
        var iptc: [UInt8: String] = [:]
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { break }
            let marker = jpeg[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            guard length >= 2, i + 2 + length <= jpeg.count else { break }
            let payload = Array(jpeg[(i + 4)..<(i + 2 + length)])
            if marker == 0xE1, xmp == nil, payload.starts(with: xmpHeader) {
                xmp = Array(payload[xmpHeader.count...])
            } else if marker == 0xED, payload.starts(with: photoshopHeader) {
                for (dataset, value) in iptcRecords(photoshop: Array(payload[photoshopHeader.count...])) {
                    if dataset == 25 { keywords.append(value) } else if iptc[dataset] == nil { iptc[dataset] = value }
                }
            }
            i += 2 + length
        }
        return (xmp, keywords, PlaceNames(location: iptc[92] ?? "", city: iptc[90] ?? "", state: iptc[95] ?? "", country: iptc[101] ?? ""))
    }

    /// The IPTC datasets of record 2 read: keywords and place names.
    static let datasetsRead: Set<UInt8> = [25, 90, 92, 95, 101]

    /// The keywords of the IPTC-NAA resource (0x0404) among Photoshop's image resources.
    static func iptcKeywords(photoshop bytes: [UInt8]) -> [String] {
        iptcRecords(photoshop: bytes).filter { $0.dataset == 25 }.map(\.value)
    }

    /// The datasets read (`datasetsRead`) of the IPTC-NAA resource (0x0404) among
    /// Photoshop's image resources, in their order.
    static func iptcRecords(photoshop bytes: [UInt8]) -> [(dataset: UInt8, value: String)] {
        var keywords: [(dataset: UInt8, value: String)] = []
        var i = 0
        while i + 12 <= bytes.count, bytes[i..<(i + 4)].elementsEqual("8BIM".utf8) {
            let id = Int(bytes[i + 4]) << 8 | Int(bytes[i + 5])
            let nameLength = Int(bytes[i + 6])
            var j = i + 6 + 1 + nameLength
            if (1 + nameLength) % 2 == 1 { j += 1 }  // the Pascal name is padded to even
            guard j + 4 <= bytes.count else { break }
            let size = Int(bytes[j]) << 24 | Int(bytes[j + 1]) << 16 | Int(bytes[j + 2]) << 8 | Int(bytes[j + 3])
            let start = j + 4
            guard size >= 0, start + size <= bytes.count else { break }
            if id == 0x0404 { keywords += iptcRecords(Array(bytes[start..<(start + size)])) }
            i = start + size + (size % 2)
        }
        return keywords
    }

    /// Dataset 2:25 (Keywords) of IPTC-IIM records, as UTF-8 (Latin-1 when not valid UTF-8).
    static func iptcDatasets(_ bytes: [UInt8]) -> [String] {
        iptcRecords(bytes).filter { $0.dataset == 25 }.map(\.value)
    }

    /// The datasets of record 2 read (`datasetsRead`) of IPTC-IIM records, as UTF-8 (Latin-1
    /// when not valid UTF-8), in their order.
    static func iptcRecords(_ bytes: [UInt8]) -> [(dataset: UInt8, value: String)] {
        var keywords: [(dataset: UInt8, value: String)] = []
        var i = 0
        while i + 5 <= bytes.count, bytes[i] == 0x1C {
            let record = bytes[i + 1], dataset = bytes[i + 2]
            let size = Int(bytes[i + 3]) << 8 | Int(bytes[i + 4])
            guard size < 0x8000, i + 5 + size <= bytes.count else { break }  // extended sizes: not keywords
            if record == 2, datasetsRead.contains(dataset) {
                let data = Array(bytes[(i + 5)..<(i + 5 + size)])
                keywords.append((dataset, String(validating: data, as: UTF8.self)
                    ?? String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) }))))
            }
            i += 5 + size
        }
        return keywords
    }
}
