import Foundation

/// What the app knows of the photos of the person's own albums, which hold only URIs: each
/// looked up on the disk (found, with what it is; or not found: moved or deleted outside the
/// app), and the lookups under way. `YourAlbums` keeps one, on the main thread, and runs the
/// lookups it asks for on a worker.
///
/// A photo asked for again while its lookup runs (it changed meanwhile) is looked up once
/// more when that lookup ends, never twice at once.
public struct AlbumPhotoLookups: Sendable {
    private var found: [String: Photo] = [:]
    private var missing = Set<String>()
    private var lookingUp = Set<String>()
    private var lookUpAgain = Set<String>()

    public init() {}

    /// The photo at `uri` as last looked up, when it was found.
    public func photo(_ uri: String) -> Photo? { found[uri] }
    /// Whether the photo at `uri` was not found when last looked up.
    public func isMissing(_ uri: String) -> Bool { missing.contains(uri) }
    /// Whether the photo at `uri` has been looked up.
    public func isKnown(_ uri: String) -> Bool { found[uri] != nil || missing.contains(uri) }
    /// Whether a lookup of `uri` is under way.
    public func isLookingUp(_ uri: String) -> Bool { lookingUp.contains(uri) }

    /// Asks for `uris` to be looked up: returns those to look up now (each once), the others
    /// being looked up already (they are looked up again when that ends).
    public mutating func request(_ uris: [String]) -> [String] {
        var wanted: [String] = []
        for uri in uris {
            if lookingUp.insert(uri).inserted { wanted.append(uri) } else { lookUpAgain.insert(uri) }
        }
        return wanted
    }

    /// Takes the answers of a lookup (nil: not found); returns the URIs asked for again
    /// meanwhile, to `request` anew.
    public mutating func finished(_ results: [(uri: String, photo: Photo?)]) -> [String] {
        var again: [String] = []
        for (uri, photo) in results {
            lookingUp.remove(uri)
            if lookUpAgain.remove(uri) != nil { again.append(uri) }
            if let photo {
                found[uri] = photo
                missing.remove(uri)
            } else {
                found[uri] = nil
                missing.insert(uri)
            }
        }
        return again
    }

    /// The albums were read again, `old` before and `new` now: the photos never looked up,
    /// and those that joined an album (again), are forgotten and returned, to look up. A
    /// photo put back with Undo may have left and come back on the disk meanwhile, unseen.
    public mutating func albumsChanged(from old: [PhotoCollection], to new: [PhotoCollection]) -> [String] {
        let held = Set(old.flatMap(\.photos))
        var fresh: [String] = []
        var seen = Set<String>()
        for uri in new.flatMap(\.photos) where seen.insert(uri).inserted && (!isKnown(uri) || !held.contains(uri)) {
            fresh.append(uri)
            found[uri] = nil
            missing.remove(uri)
        }
        return fresh
    }

    /// What the switcher lists for `collections`: each one's cover the newest photo found.
    public func summaries(_ collections: [PhotoCollection]) -> [AlbumSummary] {
        collections.map { $0.summary(describing: { found[$0] }) }
    }
}
