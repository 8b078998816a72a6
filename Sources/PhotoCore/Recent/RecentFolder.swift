/// A folder opened before, as the desktop's recent files (GtkRecentManager) remember it.
public struct RecentFolder: Sendable, Equatable {
    /// Its URI: a local folder (`file:`) or one on another machine (`sftp:`, `smb:`, …).
    public let uri: String
    /// The name it was shown under.
    public let name: String
    /// When this app last opened it, in seconds since 1970.
    public let visited: Int64

    public init(uri: String, name: String, visited: Int64) {
        self.uri = uri
        self.name = name
        self.visited = visited
    }

    /// Whether it is on this computer, where whether it is still there can be told at once.
    public var isLocal: Bool { uri.lowercased().hasPrefix("file:") }

    /// The folders the welcome page lists: the most recently opened first, each once, at
    /// most `limit`; those `exists` says are gone are left out. `exists` is asked in that
    /// order and only until `limit` are found (it may touch the disk: call this on a worker).
    public static func toList(_ folders: [RecentFolder], limit: Int = 5, exists: (RecentFolder) -> Bool) -> [RecentFolder] {
        var seen = Set<String>()
        var chosen: [RecentFolder] = []
        for folder in folders.sorted(by: { $0.visited != $1.visited ? $0.visited > $1.visited : $0.uri < $1.uri }) {
            guard chosen.count < limit else { break }
            guard seen.insert(folder.uri).inserted, exists(folder) else { continue }
            chosen.append(folder)
        }
        return chosen
    }
}
