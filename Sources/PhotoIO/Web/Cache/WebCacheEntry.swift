import CGdkPixbuf
import Foundation

/// A complete download in the disk cache: its body's file and what the server said of it.
///
/// The body is bytes from outside, never parsed here: hand `path` to the decoder processes.
public struct WebCacheEntry: Sendable, Equatable {
    /// The address it was downloaded from (before any redirection).
    public let url: String
    /// The address the body came from after the server's redirections: what its relative
    /// links are relative to. `url` when there were none.
    public let finalURL: String
    /// The body's file, complete.
    public let path: String
    /// The body's size in bytes (after content decoding).
    public let size: Int64
    /// The server's `Content-Type`, when it sent one.
    public let contentType: String?
    /// The validators sent back in a conditional request.
    public let etag: String?
    public let lastModified: String?
    /// When the body was downloaded.
    public let stored: Date
    /// When the server last confirmed it (the download, or a 304 since).
    public let checked: Date
}

/// An entry's record beside its body, `KEY.entry`: a GKeyFile of our own.
struct EntryRecord: Equatable {
    var url: String
    /// After redirections; nil when it is `url`.
    var finalURL: String? = nil
    var size: Int64
    var contentType: String?
    var etag: String?
    var lastModified: String?
    var stored: Int64
    var checked: Int64

    private static let group = "entry"

    /// Reads the record at `path`; nil when it is missing or not a record of ours.
    static func load(_ path: String) -> EntryRecord? {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil) != 0 else { return nil }
        func text(_ key: String) -> String? {
            guard let value = g_key_file_get_string(file, group, key, nil) else { return nil }
            defer { g_free(value) }
            return String(cString: value)
        }
        func number(_ key: String) -> Int64? {
            var error: UnsafeMutablePointer<GError>?
            let value = g_key_file_get_int64(file, group, key, &error)
            if let error { g_error_free(error); return nil }
            return Int64(value)
        }
        guard let url = text("url"), let size = number("size"), size >= 0,
              let stored = number("stored"), let checked = number("checked") else { return nil }
        return EntryRecord(
            url: url, finalURL: text("final-url"), size: size, contentType: text("content-type"), etag: text("etag"),
            lastModified: text("last-modified"), stored: stored, checked: checked
        )
    }

    /// Writes the record at `path` (GLib writes a temporary file and renames it). Returns
    /// GLib's message on failure.
    func save(_ path: String) -> String? {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        g_key_file_set_string(file, Self.group, "url", url)
        if let finalURL, finalURL != url { g_key_file_set_string(file, Self.group, "final-url", finalURL) }
        g_key_file_set_int64(file, Self.group, "size", Int(size))
        if let contentType { g_key_file_set_string(file, Self.group, "content-type", contentType) }
        if let etag { g_key_file_set_string(file, Self.group, "etag", etag) }
        if let lastModified { g_key_file_set_string(file, Self.group, "last-modified", lastModified) }
        g_key_file_set_int64(file, Self.group, "stored", Int(stored))
        g_key_file_set_int64(file, Self.group, "checked", Int(checked))
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_save_to_file(file, path, &error) == 0 else { return nil }
        defer { g_error_free(error) }
        return error.map { String(cString: $0.pointee.message) } ?? "?"
    }

    func entry(path: String) -> WebCacheEntry {
        WebCacheEntry(
            url: url, finalURL: finalURL ?? url, path: path, size: size, contentType: contentType, etag: etag,
            lastModified: lastModified,
            stored: Date(timeIntervalSince1970: TimeInterval(stored)),
            checked: Date(timeIntervalSince1970: TimeInterval(checked))
        )
    }
}
