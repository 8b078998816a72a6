import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// An album of the person's own as the source of its page's photos: its URIs, as
/// `YourAlbums` looked them up, fed to the album (the core's `CollectionFeed` says what
/// changes); a photo not found (moved or deleted outside the app) is fed as a placeholder
/// that its tile shows as not found. Follows the
/// folders holding the photos (`CollectionFolders`) while the page exists, so that a photo
/// moved, deleted or brought back outside the app shows so at once. Reads dates taken when
/// the album sorts by them.
@MainActor
final class CollectionSource: AlbumSource {
    private let live = LiveObjects.Token("CollectionSource")
    let id: String
    private weak var album: AlbumContents?
    /// What the album was given (placeholders for the photos not found), and what changes.
    private var feed = CollectionFeed()
    /// Dates taken, read when the album sorts by them.
    private let dates: DatesTakenReading
    /// The folders holding the photos, followed on disk until `cancel`.
    private let folders = CollectionFolders()
    private var isCancelled = false
    private var albumsObservation: Observation?

    init(id: String, jobs: WindowJobs) {
        dates = DatesTakenReading(jobs: jobs)
        self.id = id
        albumsObservation = YourAlbums.shared.observe { [weak self] in self?.update() }
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
    func isMissing(_ uri: String) -> Bool { feed.missing.contains(uri) }

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
        let change = feed.update(uris) { uri in
            if let photo = albums.photo(uri) { return .found(photo) }
            return albums.isMissing(uri) ? .missing : .pending
        }
        dates.forget(change.changed.map(\.id))
        album.remove(change.gone)
        // A photo found again, or gone, is a new value: the grid rebinds its tile.
        album.insert(change.changed)
        if change.isComplete { album.listed(.success(change.count)) }
        if album.isListed, album.photos.order.key == .dateTaken, !change.changed.isEmpty { readDatesTaken() }
    }

    // MARK: AlbumSource

    func forget(_ ids: Set<String>) {
        album?.remove(ids)
        feed.forget(ids)
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
