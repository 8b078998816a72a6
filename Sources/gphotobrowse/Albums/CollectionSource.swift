import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// An album of the person's own as the source of its page's photos: its URIs, as
/// `YourAlbums` looked them up, fed to the album; a photo not found (moved or deleted
/// outside the app) is fed as a placeholder that its tile shows as not found. Follows the
/// folders holding the photos (`CollectionFolders`) while the page exists, so that a photo
/// moved, deleted or brought back outside the app shows so at once. Reads dates taken when
/// the album sorts by them.
@MainActor
final class CollectionSource: AlbumSource {
    private let live = LiveObjects.Token("CollectionSource")
    let id: String
    private weak var album: AlbumContents?
    /// What the album was given, by URI (placeholders for the photos not found).
    private var fed: [String: Photo] = [:]
    private(set) var missing = Set<String>()
    /// Dates taken, read when the album sorts by them.
    private let dates: DatesTakenReading
    /// The folders holding the photos, followed on disk until `cancel`.
    private let folders = CollectionFolders()
    private var isCancelled = false

    init(id: String, jobs: WindowJobs) {
        dates = DatesTakenReading(jobs: jobs)
        self.id = id
        YourAlbums.shared.observe(self) { [weak self] in self?.update() }
        dates.onDates = { [weak self] read, _ in self?.album?.setDatesTaken(read) }
        // Looked up again on the worker; the album follows when the answers are in.
        folders.onChange = { uris in YourAlbums.shared.lookUp(uris) }
    }

    /// Feeds `album` from now on, its photos looked up afresh (a file may have gone since).
    func attach(_ album: AlbumContents) {
        self.album = album
        album.source = self
        update()
        if let collection = YourAlbums.shared.collection(id) { YourAlbums.shared.lookUp(collection.photos) }
    }

    /// Whether the photo `uri` was not found.
    func isMissing(_ uri: String) -> Bool { missing.contains(uri) }

    /// Stops reading dates and following the photos' folders (the page or the window goes).
    func cancel() {
        isCancelled = true
        dates.cancel()
        folders.cancel()
    }

    /// The album's photos as last looked up: added, changed, gone.
    private func update() {
        guard let album else { return }
        let albums = YourAlbums.shared
        let uris = albums.collection(id)?.photos ?? []
        if !isCancelled { folders.follow(uris) }
        var wanted: [String: Photo] = [:]
        var pending = 0
        for uri in uris {
            if let photo = albums.photo(uri) {
                wanted[uri] = photo
            } else if albums.isMissing(uri) {
                wanted[uri] = Self.placeholder(for: uri)
            } else {
                pending += 1
            }
        }
        missing = Set(wanted.filter { $0.value.isNotFound }.keys)
        let gone = Set(fed.keys).subtracting(wanted.keys)
        let changed = wanted.values.filter { fed[$0.id] != $0 }
        fed = wanted
        dates.forget(changed.map(\.id))
        album.remove(gone)
        // A photo found again, or gone, is a new value: the grid rebinds its tile.
        album.insert(changed)
        if pending == 0 { album.listed(.success(wanted.count)) }
        if album.isListed, album.photos.order.key == .dateTaken, !changed.isEmpty { readDatesTaken() }
    }

    /// A photo not found: its URI and file name, no size (`Photo.isNotFound`).
    static func placeholder(for uri: String) -> Photo {
        Photo(id: uri, displayName: EditController.name(uri), modified: 0, size: -1, contentType: "")
    }

    // MARK: AlbumSource

    func forget(_ ids: Set<String>) {
        album?.remove(ids)
        for id in ids { fed[id] = nil }
    }

    func refresh(_ uris: [String]) {
        let held = Set(YourAlbums.shared.collection(id)?.photos ?? [])
        YourAlbums.shared.lookUp(uris.filter(held.contains))
    }

    func datesNeeded(by album: AlbumContents) {
        readDatesTaken()
    }

    /// Reads the dates taken the album lacks (not those of photos not found), in the background.
    private func readDatesTaken() {
        guard let album else { return }
        dates.read(album.photos.all.filter { !$0.isNotFound })
    }
}

extension Photo {
    /// A photo of an album of the person's own that was not found where the album says it
    /// is (moved or deleted outside the app): `CollectionSource`'s placeholder.
    var isNotFound: Bool { size < 0 }
}
