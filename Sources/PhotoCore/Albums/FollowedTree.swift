/// The folders of the opened tree followed on disk, each with its monitor: every folder
/// walked is followed once, up to `maximum` (each monitor takes one of the person's inotify
/// watches), and a folder gone takes the monitors of everything below it along. The app's
/// `FolderSource` keeps one; a `Monitor` is whatever follows a folder there.
public struct FollowedTree<Monitor> {
    /// How many folders are followed at most.
    public static var maximum: Int { 4096 }

    /// Whether a folder can be followed.
    public enum Admission: Sendable, Equatable {
        case follow
        /// It is followed already.
        case followed
        /// `maximum` folders are followed already.
        case full
    }

    private var followed: [String: (folder: TreeFolder, monitor: Monitor)] = [:]
    private let maximum: Int

    public init(maximum: Int = Self.maximum) {
        self.maximum = maximum
    }

    public var count: Int { followed.count }

    /// Whether `folder` is to be followed now.
    public func admission(of folder: TreeFolder) -> Admission {
        if followed[folder.uri] != nil { return .followed }
        return followed.count < maximum ? .follow : .full
    }

    /// Whether the folder at `uri` is followed.
    public func isFollowed(_ uri: String) -> Bool { followed[uri] != nil }

    /// The folder followed at `uri`, if any (a photo's parent, to put it back where it is).
    public func folder(at uri: String) -> TreeFolder? { followed[uri]?.folder }

    /// The folders followed directly in the folder at `uri` (not those below them), by URI.
    public func children(of uri: String) -> Set<String> {
        let prefix = Self.prefix(below: uri)
        return Set(followed.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") })
    }

    /// The folders followed at `uri` and below it.
    public func folders(atOrBelow uri: String) -> [TreeFolder] {
        let prefix = Self.prefix(below: uri)
        return followed.values.filter { $0.folder.uri == uri || $0.folder.uri.hasPrefix(prefix) }.map(\.folder)
    }

    /// Follows `folder` with `monitor` (after `admission` said `.follow`).
    public mutating func add(_ folder: TreeFolder, monitor: Monitor) {
        followed[folder.uri] = (folder, monitor)
    }

    /// Of the paths gone, those that were folders followed, and the monitors to stop: theirs
    /// and those of every folder below them (a folder named as a prefix of another, "a" and
    /// "ab", is not below it).
    public mutating func remove(_ gone: Set<String>) -> (folders: [String], monitors: [Monitor]) {
        let folders = gone.filter { followed[$0] != nil }.sorted()
        var monitors: [Monitor] = []
        for uri in folders {
            let prefix = Self.prefix(below: uri)
            for key in followed.keys.sorted() where key == uri || key.hasPrefix(prefix) {
                if let entry = followed.removeValue(forKey: key) { monitors.append(entry.monitor) }
            }
        }
        return (folders, monitors)
    }

    /// What the URIs of everything below the folder at `uri` start with ("a/", not "a": "ab"
    /// is not below "a").
    private static func prefix(below uri: String) -> String { uri.hasSuffix("/") ? uri : uri + "/" }

    /// Stops following everything; returns the monitors to stop.
    public mutating func removeAll() -> [Monitor] {
        defer { followed.removeAll() }
        return followed.keys.sorted().compactMap { followed[$0]?.monitor }
    }
}
