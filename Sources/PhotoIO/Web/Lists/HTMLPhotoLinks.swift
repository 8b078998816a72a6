import CXml
import Foundation
import PhotoCore

/// A web page's photos (libxml2's HTML parser, which mends what browsers mend): the links
/// to photos of a folder's listing page, as Apache, nginx, lighttpd or Python's `http.server`
/// write them, or of any gallery page, where a link holding an image gives that image as
/// the photo's thumbnail. Links to anything else (sorting, the parent folder, other pages)
/// are no photos. A page with no such link gives its images. Titled by its `<title>`.
///
/// An image in a link is no thumbnail when it is the server's icon: Apache's listings with
/// `IconsAreLinks` put `/icons/image2.gif` in every photo's link. An icon is an image under a
/// folder named `icons`, on the page's server outside the page's folder, declared at most
/// `iconEdge` pixels wide or high, or shared by several photos' links.
enum HTMLPhotoLinks {
    static func read(_ bytes: [UInt8], baseURL: String, into builder: WebListBuilder) -> Result<Void, DecodeFailure> {
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { htmlReadMemory($0.baseAddress, Int32(buffer.count), baseURL, nil, options) }
        }
        guard let document else { return .failure(DecodeFailure(.corrupt, tr("The web page could not be read."))) }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { return .success(()) }

        var links: [(href: String, thumbnail: LinkedImage?)] = []
        var images: [String] = []
        var title: String?
        var base: String?
        // Depth first, without recursion (libxml2 bounds the depth, not the breadth).
        var stack: [UnsafeMutablePointer<xmlNode>] = [root]
        var visited = 0
        while let node = stack.popLast() {
            visited += 1
            if visited % 4096 == 0, builder.isCancelled { return .success(()) }
            var child = node.pointee.children
            var children: [UnsafeMutablePointer<xmlNode>] = []
            while let next = child {
                if next.pointee.type == XML_ELEMENT_NODE { children.append(next) }
                child = next.pointee.next
            }
            stack += children.reversed()
            switch name(of: node) {
            case "a":
                if let href = attribute(node, "href") { links.append((href, firstImage(in: node))) }
            case "img":
                if let source = attribute(node, "src") { images.append(source) }
            case "title" where title == nil:
                title = text(of: node)
            case "base" where base == nil:
                base = attribute(node, "href")
            default:
                break
            }
        }
        builder.setTitle(title)
        if let base, let resolved = builder.resolve(base) { builder.rebase(resolved) }

        // A photo linked twice (its thumbnail and its name) is one photo, its thumbnail the
        // first of its links' images that is no icon.
        var photos: [String] = []
        var seen = Set<String>()
        var thumbnails: [String: String] = [:]
        var photosShowing: [String: Set<String>] = [:]
        for link in links {
            guard let url = builder.resolve(link.href), WebAlbumWalk.looksLikePhoto(url) else { continue }
            if seen.insert(url).inserted { photos.append(url) }
            guard let image = link.thumbnail, !image.isDeclaredSmall, let source = builder.resolve(image.source),
                  !isUnderIconsFolder(source), !isElsewhereOnItsServer(source, page: baseURL) else { continue }
            photosShowing[source, default: []].insert(url)
            if thumbnails[url] == nil { thumbnails[url] = source }
        }
        var found = 0
        for url in photos {
            let thumbnail = thumbnails[url].flatMap { photosShowing[$0, default: []].count == 1 ? $0 : nil }
            builder.addPhoto(url, thumbnail: thumbnail)
            found += 1
        }
        if found == 0 {
            for image in images {
                guard let url = builder.resolve(image), seen.insert(url).inserted else { continue }
                builder.addPhoto(url)
            }
        }
        return .success(())
    }

    /// An element's name, lowercased (the HTML parser already lowercases it).
    private static func name(of node: UnsafeMutablePointer<xmlNode>) -> String? {
        node.pointee.name.map { String(cString: $0) }
    }

    private static func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> String? {
        let value = name.withCString { name in
            name.withMemoryRebound(to: xmlChar.self, capacity: name.withMemoryRebound(to: CChar.self, capacity: 1) { strlen($0) } + 1) {
                xmlGetProp(node, $0)
            }
        }
        guard let value else { return nil }
        defer { cxml_free(value) }
        return String(cString: value)
    }

    private static func text(of node: UnsafeMutablePointer<xmlNode>) -> String? {
        guard let content = xmlNodeGetContent(node) else { return nil }
        defer { cxml_free(content) }
        return String(cString: content)
    }

    /// Images declared this small or smaller (`width`, `height`) are icons, not thumbnails.
    static let iconEdge = 48

    /// An image inside a link.
    struct LinkedImage {
        let source: String
        /// Declared at most `iconEdge` pixels wide or high.
        let isDeclaredSmall: Bool
    }

    /// Whether an image's address lies in a folder named `icons` (Apache's `/icons/`, and
    /// the folders other servers keep their listings' icons in).
    static func isUnderIconsFolder(_ url: String) -> Bool {
        guard let path = URL(string: url)?.path else { return false }
        return path.split(separator: "/").dropLast().contains { $0.lowercased() == "icons" }
    }

    /// Whether an image lies on the page's own server but outside the page's folder (the
    /// server's own pictures: `/icons/`, `/static/`), where a photo's thumbnail would not.
    /// An image on another server (a gallery's CDN) may be one.
    static func isElsewhereOnItsServer(_ url: String, page: String) -> Bool {
        // URLComponents keeps a path's trailing slash (URL's `path` drops it).
        guard let image = URLComponents(string: url), let page = URLComponents(string: page),
              image.host == page.host, image.port == page.port else { return false }
        let folder = page.path.hasSuffix("/") ? page.path : String(page.path[...(page.path.lastIndex(of: "/") ?? page.path.startIndex)])
        return !image.path.hasPrefix(folder.isEmpty ? "/" : folder)
    }

    /// The first image inside a link, looked for among its first elements.
    private static func firstImage(in link: UnsafeMutablePointer<xmlNode>) -> LinkedImage? {
        var stack: [UnsafeMutablePointer<xmlNode>] = []
        var child = link.pointee.children
        while let next = child {
            stack.append(next)
            child = next.pointee.next
        }
        var looked = 0
        while !stack.isEmpty, looked < 32 {
            let node = stack.removeFirst()
            looked += 1
            guard node.pointee.type == XML_ELEMENT_NODE else { continue }
            if name(of: node) == "img" {
                guard let source = attribute(node, "src") else { return nil }
                let small = ["width", "height"].contains { attribute(node, $0).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { $0 <= iconEdge } ?? false }
                return LinkedImage(source: source, isDeclaredSmall: small)
            }
            var inner = node.pointee.children
            while let next = inner {
                stack.append(next)
                inner = next.pointee.next
            }
        }
        return nil
    }
}
