import CGdkPixbuf
import Glibc

// Names of GIO files as the file system holds them (bytes) and as a person reads them.

/// A file's name as the bytes the file system holds.
func fileNameBytes(_ file: OpaquePointer?) -> [UInt8]? {
    guard let name = g_file_get_basename(file) else { return nil }
    defer { g_free(name) }
    let bytes = Array(UnsafeRawBufferPointer(start: name, count: strlen(name)))
    return bytes.isEmpty || bytes == [UInt8(ascii: "/")] ? nil : bytes
}

/// A NUL-terminated copy of `bytes` for C.
func cString(_ bytes: [UInt8]) -> [CChar] {
    bytes.map { CChar(bitPattern: $0) } + [0]
}

/// A name of bytes as a person reads it (valid UTF-8 whatever the bytes).
func displayName(_ bytes: [UInt8]) -> String {
    guard let shown = g_filename_display_name(cString(bytes)) else { return "?" }
    defer { g_free(shown) }
    return String(cString: shown)
}

/// How a person writes the file's place (a path, or a URI for remote files).
func parseName(_ file: OpaquePointer?) -> String {
    guard let file else { return "?" }
    return g_file_get_parse_name(file).map { p -> String in defer { g_free(p) }; return String(cString: p) } ?? "?"
}

/// The file's URI, as GIO spells it.
func uri(of file: OpaquePointer?) -> String {
    g_file_get_uri(file).map { p -> String in defer { g_free(p) }; return String(cString: p) } ?? ""
}

/// A local file's path as the NUL-terminated bytes the file system holds (never through
/// `String`, which would repair bytes that are not UTF-8); nil when the file is not local.
func localPath(_ file: OpaquePointer?) -> [CChar]? {
    guard let path = g_file_get_path(file) else { return nil }
    defer { g_free(path) }
    return Array(UnsafeBufferPointer(start: path, count: strlen(path) + 1))
}

/// How a person writes the location at `uri` (a path, or `sftp://host/path`); no I/O.
public func parseName(ofURI uri: String) -> String {
    let file = g_file_new_for_uri(uri)
    defer { unref(file) }
    return parseName(file)
}

/// The URI of the folder holding the file at `uri` (no I/O); nil for a root.
public func parentURI(of uri: String) -> String? {
    let file = g_file_new_for_uri(uri)
    defer { unref(file) }
    guard let parent = g_file_get_parent(file) else { return nil }
    defer { unref(parent) }
    return PhotoIO.uri(of: parent)
}
