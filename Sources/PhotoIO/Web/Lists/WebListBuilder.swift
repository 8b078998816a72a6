import CGdkPixbuf
import Foundation
import PhotoCore

/// The list a reader makes, entry by entry: each address resolved against the list's own
/// (RFC 3986, GLib's `GUri`) and kept only when it is on the web, titles tidied, at most
/// `WebPhotoList.maxPhotos` photos (the list is then marked truncated), entries naming no
/// photo counted as skipped.
final class WebListBuilder {
    private(set) var list = WebPhotoList()
    private var base: OpaquePointer
    private let cancellation: CancellationFlag
    private var count = 0

    init?(baseURL: String, cancellation: CancellationFlag) {
        guard WebAddress.isWebAddress(baseURL),
              let base = g_uri_parse(WebAddress.escapingUnsafeCharacters(baseURL), G_URI_FLAGS_ENCODED, nil) else { return nil }
        self.base = base
        self.cancellation = cancellation
    }

    deinit { g_uri_unref(base) }

    /// Resolves later addresses against `address` (absolute: a page's `<base href>`).
    func rebase(_ address: String) {
        guard let uri = g_uri_parse(address, G_URI_FLAGS_ENCODED, nil) else { return }
        g_uri_unref(base)
        base = uri
    }

    var isCancelled: Bool { cancellation.isCancelled }
    /// Whether no more photos are taken.
    var isFull: Bool { count >= WebPhotoList.maxPhotos }

    func setTitle(_ title: String?) {
        list.title = Self.tidied(title)
    }

    /// Starts an album; later photos go to it. Nil once there are as many albums as kept.
    func addAlbum(title: String?) -> Int? {
        guard list.albums.count < WebPhotoList.maxAlbums else {
            list.isTruncated = true
            return nil
        }
        let name = Self.tidied(title) ?? tr("Album %d", list.albums.count + 1)
        list.albums.append(WebPhotoAlbum(title: name, photos: []))
        return list.albums.count - 1
    }

    /// Adds a photo (to `album`, else to the list's own); whether it was one: an address on
    /// the web, once resolved. A thumbnail that is not one is left out.
    @discardableResult
    func addPhoto(_ address: String, thumbnail: String? = nil, title: String? = nil, taken: Int64? = nil, to album: Int? = nil) -> Bool {
        guard let url = resolve(address) else {
            skip()
            return false
        }
        guard !isFull else {
            list.isTruncated = true
            return true
        }
        count += 1
        let entry = WebPhotoEntry(url: url, thumbnail: thumbnail.flatMap(resolve), title: Self.tidied(title), taken: taken)
        if let album {
            list.albums[album].photos.append(entry)
        } else {
            list.photos.append(entry)
        }
        return true
    }

    /// An entry that names no photo.
    func skip() { list.skipped += 1 }

    /// `reference` made absolute against the list's address, without its fragment; nil
    /// unless it is an address on the web.
    func resolve(_ reference: String) -> String? {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= WebPhotoList.maxAddressBytes else { return nil }
        guard let uri = g_uri_parse_relative(base, WebAddress.escapingUnsafeCharacters(trimmed), G_URI_FLAGS_ENCODED, nil) else { return nil }
        defer { g_uri_unref(uri) }
        guard let host = g_uri_get_host(uri), host.pointee != 0, let text = g_uri_to_string_partial(uri, G_URI_HIDE_FRAGMENT) else { return nil }
        defer { g_free(text) }
        let url = String(cString: text)
        return WebAddress.isWebAddress(url) && url.utf8.count <= WebPhotoList.maxAddressBytes ? url : nil
    }

    /// A title with its white space tidied (runs of it one space, none at the ends); nil
    /// when nothing is left.
    static func tidied(_ title: String?) -> String? {
        guard let title else { return nil }
        let words = title.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
