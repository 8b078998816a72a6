import CGdkPixbuf
import CJson
import Foundation
import PhotoCore

/// A photo list in JSON (json-glib), the browser's original documents' data source:
///
///     {"title": "Kyoto",
///      "photos": [{"url": "a.jpg", "thumbnail": "t/a.jpg", "title": "Gate",
///                  "taken": "2024-05-01T10:00:00+09:00"}, "b.jpg"],
///      "albums": [{"title": "Day 1", "photos": [...]}]}
///
/// or a bare array of photos. A photo is an address or an object with `url`; members not
/// named here are ignored, entries of another kind are skipped.
enum JSONPhotoList {
    /// The deepest nesting read: lists nest three levels, and json-glib's parser recurses.
    static let maxDepth = 64

    static func read(_ bytes: [UInt8], into builder: WebListBuilder) -> Result<Void, DecodeFailure> {
        guard depth(of: bytes) <= maxDepth else {
            return .failure(DecodeFailure(.corrupt, tr("The photo list is nested too deeply to read.")))
        }
        let parser = json_parser_new_immutable()!
        defer { g_object_unref(parser) }
        var error: UnsafeMutablePointer<GError>?
        let loaded = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_parser_load_from_data(parser, $0.baseAddress, gssize(buffer.count), &error) }
        }
        guard loaded != 0, let root = json_parser_get_root(parser) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? tr("it is empty")
            g_clear_error(&error)
            return .failure(DecodeFailure(.corrupt, tr("The photo list is not valid JSON: %s", reason)))
        }
        switch json_node_get_node_type(root) {
        case JSON_NODE_ARRAY:
            photos(in: root, into: builder, album: nil)
        case JSON_NODE_OBJECT:
            let object = json_node_get_object(root)
            builder.setTitle(string(object, "title"))
            if let photos = json_object_get_member(object, "photos") { self.photos(in: photos, into: builder, album: nil) }
            if let albums = json_object_get_member(object, "albums"), json_node_get_node_type(albums) == JSON_NODE_ARRAY {
                let array = json_node_get_array(albums)
                for i in 0..<json_array_get_length(array) {
                    guard !builder.isCancelled else { break }
                    let album = json_array_get_element(array, i)
                    guard json_node_get_node_type(album) == JSON_NODE_OBJECT else {
                        builder.skip()
                        continue
                    }
                    let members = json_node_get_object(album)
                    guard let index = builder.addAlbum(title: string(members, "title")) else { break }
                    if let photos = json_object_get_member(members, "photos") { self.photos(in: photos, into: builder, album: index) }
                }
            }
        default:
            return .failure(DecodeFailure(.corrupt, tr("The photo list is neither a list nor an object.")))
        }
        return .success(())
    }

    /// The photos of an array node.
    private static func photos(in node: OpaquePointer, into builder: WebListBuilder, album: Int?) {
        guard json_node_get_node_type(node) == JSON_NODE_ARRAY else {
            builder.skip()
            return
        }
        let array = json_node_get_array(node)
        for i in 0..<json_array_get_length(array) {
            if i % 1024 == 0, builder.isCancelled { return }
            let element = json_array_get_element(array, i)!
            switch json_node_get_node_type(element) {
            case JSON_NODE_VALUE:
                if let address = json_node_get_string(element) {
                    builder.addPhoto(String(cString: address), to: album)
                } else {
                    builder.skip()
                }
            case JSON_NODE_OBJECT:
                let object = json_node_get_object(element)
                guard let address = string(object, "url") else {
                    builder.skip()
                    continue
                }
                builder.addPhoto(address, thumbnail: string(object, "thumbnail"), title: string(object, "title"),
                                 taken: string(object, "taken").flatMap(microseconds), to: album)
            default:
                builder.skip()
            }
        }
    }

    /// A member's string value; nil when it is missing or not a string.
    private static func string(_ object: OpaquePointer?, _ name: String) -> String? {
        guard let object, let node = json_object_get_member(object, name), json_node_get_node_type(node) == JSON_NODE_VALUE,
              let value = json_node_get_string(node) else { return nil }
        return String(cString: value)
    }

    /// An ISO 8601 date ("2024-05-01T10:00:00+09:00") in µs since 1970; one without an
    /// offset is read as UTC ("floating", as an EXIF date without one: see `ExifDate`).
    static func microseconds(_ text: String) -> Int64? {
        let utc = g_time_zone_new_utc()
        defer { g_time_zone_unref(utc) }
        if let date = g_date_time_new_from_iso8601(text, utc) {
            defer { g_date_time_unref(date) }
            return Int64(g_date_time_to_unix(date)) * 1_000_000 + Int64(g_date_time_get_microsecond(date))
        }
        return ExifDate.microseconds(dateTime: text)
    }

    /// How deeply arrays and objects nest in `bytes` (strings skipped), read without
    /// recursion.
    static func depth(of bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > maxDepth { return deepest }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
