import Foundation
import FoundationXML
import Glibc
import PhotoCore

/// A photo's marks in XMP (see `XMPSidecarText` for the names): read from a sidecar's or an
/// embedded packet's bytes, and merged into a sidecar that exists without losing anything else
/// it holds. XMP is bytes from outside: this runs in a decoder process only.
public enum XMPMarks {
    /// The largest sidecar read or merged.
    public static let maxBytes = 4 << 20

    /// The marks `xmp` holds (`PhotoMarks.none` when it holds none), with the place names it
    /// gives, or nil when it is not XML.
    public static func read(_ xmp: [UInt8]) -> PhotoMarks? {
        guard let document = parse(xmp), let root = document.rootElement() else { return nil }
        var favourite = false
        var rating = 0
        var tags: [String] = []
        var place: [String: String] = [:]
        for description in descriptions(in: root) {
            for (name, uri) in placeProperties where place[name] == nil {
                if let value = value(of: name, uri, in: description), !value.isEmpty { place[name] = value }
            }
            if let value = value(of: "Rating", XMPSidecarText.xmp, in: description), let stars = Int(value.trimmingCharacters(in: .whitespaces)) {
                rating = PhotoMarks.clampedRating(stars)
            }
            if let pick = value(of: "PickLabel", XMPSidecarText.digiKam, in: description),
               Int(pick.trimmingCharacters(in: .whitespaces)) == XMPSidecarText.favouritePickLabel {
                favourite = true
            }
            if let label = value(of: "Label", XMPSidecarText.xmp, in: description), isFavouriteLabel(label) { favourite = true }
            for subject in children(of: description, named: "subject", XMPSidecarText.dc) {
                tags += listItems(subject)
            }
        }
        return PhotoMarks(favourite: favourite, rating: rating, tags: tags,
                          places: PlaceNames(location: place["Location"] ?? "", city: place["City"] ?? "",
                                             state: place["State"] ?? "", country: place["Country"] ?? ""))
    }

    /// Where the photo was taken, as `PlaceNames` has it.
    static let placeProperties = [("Location", XMPSidecarText.iptcCore), ("City", XMPSidecarText.photoshop),
                                  ("State", XMPSidecarText.photoshop), ("Country", XMPSidecarText.photoshop)]

    /// The sidecar `existing` with `marks` in it: its rating, tags and favourite replaced,
    /// every other element and attribute kept. Nil when `existing` is not XMP this can merge
    /// into (the caller leaves it alone rather than lose what it holds).
    public static func merged(_ marks: PhotoMarks, into existing: [UInt8]) -> [UInt8]? {
        guard let document = parse(existing), let root = document.rootElement() else { return nil }
        let rdfRoots = root.localName == "RDF" && root.uri == XMPSidecarText.rdf
            ? [root] : descendants(of: root, named: "RDF", XMPSidecarText.rdf)
        guard let rdf = rdfRoots.first else { return nil }
        let all = descriptions(in: root)
        for description in all {
            removeProperty("Rating", XMPSidecarText.xmp, from: description)
            for subject in children(of: description, named: "subject", XMPSidecarText.dc) { subject.detach() }
            if !marks.favourite {
                if let pick = value(of: "PickLabel", XMPSidecarText.digiKam, in: description),
                   Int(pick.trimmingCharacters(in: .whitespaces)) == XMPSidecarText.favouritePickLabel {
                    removeProperty("PickLabel", XMPSidecarText.digiKam, from: description)
                }
                if let label = value(of: "Label", XMPSidecarText.xmp, in: description), isFavouriteLabel(label) {
                    removeProperty("Label", XMPSidecarText.xmp, from: description)
                }
            } else {
                removeProperty("PickLabel", XMPSidecarText.digiKam, from: description)
            }
        }
        let description: XMLElement
        if let first = all.first {
            description = first
        } else {
            description = XMLElement(name: "rdf:Description", uri: XMPSidecarText.rdf)
            description.addAttribute(attribute("rdf", "about", XMPSidecarText.rdf, ""))
            rdf.addChild(description)
        }
        let xmpPrefix = prefix(for: XMPSidecarText.xmp, preferring: "xmp", on: description)
        let rating = XMLElement(name: "\(xmpPrefix):Rating", uri: XMPSidecarText.xmp)
        rating.stringValue = String(marks.rating)
        description.addChild(rating)
        if marks.favourite {
            let kamPrefix = prefix(for: XMPSidecarText.digiKam, preferring: "digiKam", on: description)
            let pick = XMLElement(name: "\(kamPrefix):PickLabel", uri: XMPSidecarText.digiKam)
            pick.stringValue = String(XMPSidecarText.favouritePickLabel)
            description.addChild(pick)
        }
        if !marks.tags.isEmpty {
            let dcPrefix = prefix(for: XMPSidecarText.dc, preferring: "dc", on: description)
            let rdfPrefix = prefix(for: XMPSidecarText.rdf, preferring: "rdf", on: description)
            let subject = XMLElement(name: "\(dcPrefix):subject", uri: XMPSidecarText.dc)
            let bag = XMLElement(name: "\(rdfPrefix):Bag", uri: XMPSidecarText.rdf)
            for tag in marks.tags {
                let item = XMLElement(name: "\(rdfPrefix):li", uri: XMPSidecarText.rdf)
                item.stringValue = tag
                bag.addChild(item)
            }
            subject.addChild(bag)
            description.addChild(subject)
        }
        return Array(document.xmlData(options: [.nodePrettyPrint]))
    }

    // MARK: -

    static func parse(_ bytes: [UInt8]) -> XMLDocument? {
        // Only what starts as XML goes to the parser: a photo that is not a JPEG (a PNG, a
        // HEIC) is no sidecar, and libxml2 would write its complaints about it on stderr.
        guard !bytes.isEmpty, bytes.count <= maxBytes, startsAsXML(bytes) else { return nil }
        var data = bytes
        // An embedded packet may end in padding spaces and NULs.
        while let last = data.last, last == 0 { data.removeLast() }
        return try? XMLDocument(data: Data(data), options: [.nodeLoadExternalEntitiesNever])
    }

    /// Whether `bytes` begin, after a UTF-8 byte order mark and white space, with "<".
    static func startsAsXML(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<")
    }

    /// The child elements of `element` named `name` in `uri` (Foundation's
    /// `elements(forLocalName:uri:)` finds none on Linux).
    static func children(of element: XMLElement, named name: String, _ uri: String) -> [XMLElement] {
        (element.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == name && $0.uri == uri }
    }

    static func descendants(of root: XMLElement, named name: String, _ uri: String) -> [XMLElement] {
        var found: [XMLElement] = []
        var stack = [root]
        while let element = stack.popLast() {
            if element !== root, element.localName == name, element.uri == uri { found.append(element) }
            for child in (element.children ?? []).reversed() {
                if let child = child as? XMLElement { stack.append(child) }
            }
        }
        return found
    }

    static func descriptions(in root: XMLElement) -> [XMLElement] {
        var found: [XMLElement] = []
        var stack = [root]
        while let element = stack.popLast() {
            if element.localName == "Description", element.uri == XMPSidecarText.rdf { found.append(element) }
            for child in (element.children ?? []).reversed() {
                if let child = child as? XMLElement { stack.append(child) }
            }
        }
        return found
    }

    /// A simple property's value: an attribute of the description or a child element's text.
    static func value(of name: String, _ uri: String, in description: XMLElement) -> String? {
        if let attribute = (description.attributes ?? []).first(where: { $0.localName == name && $0.uri == uri }) {
            return attribute.stringValue
        }
        return children(of: description, named: name, uri).first?.stringValue
    }

    static func removeProperty(_ name: String, _ uri: String, from description: XMLElement) {
        for attribute in description.attributes ?? [] where attribute.localName == name && attribute.uri == uri {
            if let qualified = attribute.name { description.removeAttribute(forName: qualified) }
        }
        for element in children(of: description, named: name, uri) { element.detach() }
    }

    /// The texts of an `rdf:Bag`'s or `rdf:Seq`'s items (or of the property itself, written
    /// as a plain value).
    static func listItems(_ property: XMLElement) -> [String] {
        let containers = (property.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.uri == XMPSidecarText.rdf }
        guard !containers.isEmpty else { return [property.stringValue ?? ""] }
        return containers.flatMap { children(of: $0, named: "li", XMPSidecarText.rdf).compactMap(\.stringValue) }
    }

    static func isFavouriteLabel(_ label: String) -> Bool {
        let folded = label.trimmingCharacters(in: .whitespaces).lowercased()
        return folded == "favorite" || folded == "favourite"
    }

    static func attribute(_ prefix: String, _ name: String, _ uri: String, _ value: String) -> XMLNode {
        let node = XMLNode.attribute(withName: "\(prefix):\(name)", uri: uri, stringValue: value) as! XMLNode
        return node
    }

    /// The prefix bound to `uri` where `element` is, binding `preferred` (or a free variant of
    /// it) on the element when none is.
    static func prefix(for uri: String, preferring preferred: String, on element: XMLElement) -> String {
        if let bound = element.resolvePrefix(forNamespaceURI: uri), !bound.isEmpty { return bound }
        var candidate = preferred
        var n = 1
        while element.resolveNamespace(forName: "\(candidate):x") != nil { n += 1; candidate = "\(preferred)\(n)" }
        element.addNamespace(XMLNode.namespace(withName: candidate, stringValue: uri) as! XMLNode)
        return candidate
    }
}

extension XMPMarks {
    /// The marks in the file open on `descriptor`: a JPEG's embedded XMP (else its IPTC
    /// keywords and place names), or the file as an XMP sidecar. Nil when it is neither.
    public static func read(descriptor: Int32) -> PhotoMarks? {
        guard let bytes = readWhole(descriptor: descriptor) else { return nil }
        if bytes.starts(with: [0xFF, 0xD8]) {
            let found = EmbeddedMarkSegments.read(bytes)
            var marks = found.xmp.flatMap(read) ?? PhotoMarks.none
            if marks.tags.isEmpty, !found.keywords.isEmpty { marks.setTags(found.keywords) }
            if marks.places.isEmpty { marks.places = found.places }
            return marks
        }
        return read(bytes)
    }

    /// The first `maxBytes` of the file on `descriptor` (a photo's headers come first).
    static func readWhole(descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < maxBytes {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min($0.count, maxBytes - bytes.count)) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
