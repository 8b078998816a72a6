import Foundation

/// The person's Pictures folder: what a launch without a folder opens (and `--pick` chooses
/// from when given none), and where a blank board's drawing, or a web photo marked up, is
/// saved.
///
/// The folder is XDG's pictures directory as the person's `user-dirs.dirs` sets it, else
/// `~/Pictures`. An XDG entry that is the home folder itself is xdg-user-dirs's way of
/// turning the directory off: it is left out, so that a launch never walks the whole home
/// folder as if it were the photos'.
///
/// ```swift
/// PicturesFolder.candidates(configured: "/home/me/Bilder", home: "/home/me")
/// // ["/home/me/Bilder", "/home/me/Pictures"]
/// ```
public enum PicturesFolder {
    /// The folders (absolute paths) that may be the Pictures folder, in order: XDG's (when
    /// set, absolute and not the home folder), then `~/Pictures`, each once.
    public static func candidates(configured: String?, home: String) -> [String] {
        let home = trimmed(home)
        var result: [String] = []
        if let configured, configured.hasPrefix("/") {
            let folder = trimmed(configured)
            if folder != home { result.append(folder) }
        }
        let fallback = (home == "/" ? "" : home) + "/Pictures"
        if !result.contains(fallback) { result.append(fallback) }
        return result
    }

    /// `candidates` as file URIs, for opening.
    public static func candidateURIs(configured: String?, home: String) -> [String] {
        candidates(configured: configured, home: home).map { URL(fileURLWithPath: $0, isDirectory: false).absoluteString }
    }

    /// The folder to save in: the first candidate that is a folder, else the first one (to be
    /// made: a new account's Pictures).
    public static func forSaving(configured: String?, home: String, isFolder: (String) -> Bool) -> String {
        let all = candidates(configured: configured, home: home)
        return all.first(where: isFolder) ?? all[0]
    }

    /// `path` without the slashes that end it ("/" stays).
    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
