import Foundation

/// Where the freedesktop thumbnail cache keeps what, as GNOME's file manager and every
/// other program following the Thumbnail Managing Standard expect:
///
///     <cache home>/thumbnails/<size>/<md5 of the URI>.png
///     <cache home>/thumbnails/fail/gphotobrowse-<version>/<md5 of the URI>.png
///
/// The cache home is `$XDG_CACHE_HOME`, or `~/.cache`; it is passed in explicitly so tests
/// (and anything else) can use a cache of their own.
public struct ThumbnailCacheLayout: Sendable, Hashable {
    /// The cache home, without a trailing slash.
    public let cacheHome: String

    public init(cacheHome: String) {
        var home = cacheHome
        while home.count > 1 && home.hasSuffix("/") { home.removeLast() }
        self.cacheHome = home
    }

    /// The layout under the user's cache home (`defaultCacheHome()`).
    public static func userDefault() -> ThumbnailCacheLayout {
        ThumbnailCacheLayout(cacheHome: defaultCacheHome())
    }

    /// The user's cache home as GLib's `g_get_user_cache_dir()` finds it, so that this
    /// program and GNOME's agree on where thumbnails are: `XDG_CACHE_HOME` when set and not
    /// empty, else `<home>/.cache` (`HOME`, then the password database).
    public static func defaultCacheHome(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        homeDirectory: () -> String = { NSHomeDirectory() }
    ) -> String {
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return cache }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? homeDirectory()
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.cache"
    }

    /// `<cache home>/thumbnails`.
    public var root: String { cacheHome + "/thumbnails" }

    /// The folder of thumbnails of one size.
    public func directory(for size: ThumbnailSize) -> String { root + "/" + size.directoryName }

    /// Where this program records files it failed to make a thumbnail of: its own folder,
    /// named after it and its version, so a newer version (which may read more) retries.
    public var failureDirectory: String { root + "/fail/" + AppInfo.name + "-" + AppInfo.version }

    /// The file name for a URI: the lowercase hex MD5 of the URI exactly as given, ".png".
    public static func fileName(forURI uri: String) -> String { MD5.hex(uri) + ".png" }

    /// The thumbnail of `uri` at `size`.
    public func path(forURI uri: String, size: ThumbnailSize) -> String {
        directory(for: size) + "/" + Self.fileName(forURI: uri)
    }

    /// The failure entry of `uri`.
    public func failurePath(forURI uri: String) -> String {
        failureDirectory + "/" + Self.fileName(forURI: uri)
    }

    /// Whether `uri` names a file inside the thumbnail cache (`<cache home>/thumbnails`
    /// or below). Thumbnails of thumbnails are never made: the specification forbids it,
    /// and it would feed on itself. Compares the URI's path after percent-decoding and
    /// removing `.`, `..` and repeated slashes; symbolic links are not followed here (the
    /// store checks the resolved path too).
    public func contains(uri: String) -> Bool {
        guard let path = Self.localPath(ofURI: uri) else { return false }
        return Self.isPath(Self.normalize(path), inside: Self.normalize(Array(root.utf8)))
    }

    /// Whether the local path `path` (any bytes) is inside the thumbnail cache.
    public func contains(path: [UInt8]) -> Bool {
        Self.isPath(Self.normalize(path), inside: Self.normalize(Array(root.utf8)))
    }

    /// The path of a `file:` URI (empty or `localhost` host), percent-decoded to bytes;
    /// nil for other schemes, remote hosts and malformed escapes.
    public static func localPath(ofURI uri: String) -> [UInt8]? {
        let bytes = Array(uri.utf8)
        let scheme = Array("file://".utf8)
        guard bytes.count > scheme.count,
              zip(bytes.prefix(scheme.count), scheme).allSatisfy({ $0.lowercased == $1 }) else { return nil }
        var rest = bytes[scheme.count...]
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let host = String(decoding: rest[rest.startIndex..<slash], as: UTF8.self).lowercased()
        guard host.isEmpty || host == "localhost" else { return nil }
        rest = rest[slash...]
        if let end = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            rest = rest[rest.startIndex..<end]
        }
        var out: [UInt8] = []
        out.reserveCapacity(rest.count)
        var i = rest.startIndex
        while i < rest.endIndex {
            if rest[i] == UInt8(ascii: "%") {
                guard i + 2 < rest.endIndex, let high = hexValue(rest[i + 1]), let low = hexValue(rest[i + 2]) else { return nil }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(rest[i])
                i += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Path components with `.`, `..` and empty components resolved lexically.
    private static func normalize(_ path: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        for part in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if part.elementsEqual([UInt8(ascii: ".")]) { continue }
            if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return parts
    }

    private static func isPath(_ path: [ArraySlice<UInt8>], inside root: [ArraySlice<UInt8>]) -> Bool {
        path.count >= root.count && zip(path, root).allSatisfy { $0.elementsEqual($1) }
    }
}

private extension UInt8 {
    var lowercased: UInt8 { (self >= 65 && self <= 90) ? self + 32 : self }
}
