/// The folders holding an album's photos, followed on disk while its page exists, and which
/// of its photos a change in one of them concerns. The app's `CollectionFolders` keeps the
/// monitors; this decides which folders to follow and what their events mean.
///
/// Photos are given with their folder and their URI as the monitors spell it (GIO may escape
/// a name otherwise than the album, written by hand or by another program, does).
public struct FollowedFolders: Sendable {
    /// One photo of the album: its URI as the album holds it, its folder's URI, and its URI
    /// as the folder's monitor reports it.
    public struct Located: Sendable, Equatable {
        public let uri: String
        public let folder: String
        public let spelled: String

        public init(uri: String, folder: String, spelled: String) {
            self.uri = uri
            self.folder = folder
            self.spelled = spelled
        }
    }

    /// Which monitors to stop and to start.
    public struct Plan: Sendable, Equatable {
        /// Folders no photo of the album is in any more.
        public var stop: [String] = []
        /// Folders not followed yet, in name order (as many as there is room for are started).
        public var start: [String] = []

        public init(stop: [String] = [], start: [String] = []) {
            self.stop = stop
            self.start = start
        }
    }

    /// The album's URIs last followed, as given.
    private var followed: [String] = []
    /// The photos of each folder followed: folder → (URI as spelled → URI as the album holds it).
    private var photos: [String: [String: String]] = [:]

    public init() {}

    /// Whether `uris` are the ones followed already (nothing to plan).
    public func isFollowing(_ uris: [String]) -> Bool { uris == followed }

    /// Follows the album's photos `uris`, located (those that cannot be are left out), with
    /// `monitored` the folders that have a monitor now.
    public mutating func follow(_ uris: [String], located: [Located], monitored: Set<String>) -> Plan {
        followed = uris
        var byFolder: [String: [String: String]] = [:]
        for photo in located { byFolder[photo.folder, default: [:]][photo.spelled] = photo.uri }
        photos = byFolder
        return Plan(stop: monitored.filter { byFolder[$0] == nil }.sorted(),
                    start: byFolder.keys.filter { !monitored.contains($0) }.sorted())
    }

    /// Follows nothing any more.
    public mutating func clear() {
        followed = []
        photos = [:]
    }

    /// The album's photos (as it holds them) that an event in `folder` about `files` (URIs as
    /// its monitor spells them) concerns: the file's photo, or every photo of the folder when
    /// the event is about the folder itself (deleted, moved away, brought back, unmounted).
    public func affected(in folder: String, files: [String]) -> [String] {
        guard let held = photos[folder] else { return [] }
        var result: [String] = []
        for file in files {
            if file == folder {
                result += held.values.sorted()
            } else if let photo = held[file] {
                result.append(photo)
            }
        }
        return result
    }
}
