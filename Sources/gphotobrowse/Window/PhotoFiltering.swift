import Foundation
import Synchronization
import PhotoCore

/// A search applied to the album shown: the photos matched on a worker, from what is known
/// of them (names, folders, marks), then the grid filtered, with `trace filtered COUNT MS`.
/// Marks not read yet are asked for; the search runs again as they come.
extension BrowserWindow {
    func installSearch() {
        searchBar.onChange = { [weak self] search in self?.filter(by: search) }
        addAction(window, "search") { [weak self] in
            guard let self, self.folder != nil, self.isGridShown else { return }
            self.searchBar.toggle()
        }
        ShownMarks.shared.listen(searchBar) { [weak self] _, _ in self?.marksArrived() }
        ShownMarks.shared.listenForFacts(searchBar) { [weak self] in self?.marksArrived() }
    }

    /// Filters the album shown by `search`; an empty search shows every photo of every page.
    /// What is known of the photos is taken as it is now (copies, not shared with the
    /// main thread) and matched on a worker; only the result comes back. Another search
    /// cancels the one under way; the same one asked again (marks read, photos found) runs
    /// again once it ends (`SearchRuns`).
    func filter(by search: PhotoSearch) {
        guard let folder else { return }
        if search.isEmpty {
            stopSearching()
            for page in folder.pages where page.contents.isFiltered {
                page.contents.setFilter(page.album == .favourites ? favouritesFilter : nil)
            }
            Trace.milestone("filtered", folder.contents.photos.count)
            updateSubtitle()
            applyPolicy()
            return
        }
        guard let run = searchRuns.ask(search) else { return }
        let contents = folder.contents
        // Favourites searched stay favourites.
        let inFavourites = folder.page.album == .favourites
        var asked = search
        if inFavourites { asked.favouritesOnly = true }
        let matching = asked
        let photos = contents.allPhotos
        // Cameras matter to words, and dates taken to a period: read with the photos' EXIF.
        askForMarks(of: photos, in: contents, facts: !search.words.isEmpty || search.takenFrom != nil || search.takenBefore != nil)
        let known = ShownMarks.shared.known
        let facts = ShownMarks.shared.facts
        let top = folder.source.uri
        // A search job of the window; another search (or leaving the folder) cancels it.
        searching?.cancel()
        let searching = CancellationFlag()
        self.searching = searching
        let owner = MainThreadOwner(self)
        _ = jobs.submit(to: .searches, priority: 0, within: searching) { flag in
            guard let matched = Self.matching(matching, in: photos, marks: known, facts: facts, under: top, cancellation: flag) else { return }
            let judged = Set(photos.map(\.id))
            owner.onMain { window in
                let (show, again) = window.searchRuns.finished(run)
                guard show else { return }
                window.searching = nil
                if let folder = window.folder, folder.contents === contents {
                    // Photos found after the search began show until it runs again for them.
                    contents.setFilter { matched.contains($0.id) || !judged.contains($0.id) && !inFavourites }
                    window.searchBar.showCount(contents.photos.count, of: contents.unfilteredCount)
                    window.applyPolicy()
                    Trace.milestone("filtered", contents.photos.count)
                    if contents.unfilteredCount != judged.count { window.searchAgainSoon() }
                }
                if let again { window.filter(by: again) }
            }
        }
    }

    /// Stops the search under way (cleared, the folder left): its result is not shown.
    func stopSearching() {
        searchRuns.clear()
        searching?.cancel()
        searching = nil
    }

    /// Asks for the marks (and, when the search needs them, the cameras and dates) of the
    /// album's photos once for as many photos as it has, not again at every key: that is a
    /// look per photo on the main thread.
    private func askForMarks(of photos: [Photo], in contents: AlbumContents, facts: Bool) {
        let album = AskedAlbum(contents: ObjectIdentifier(contents), count: photos.count)
        if marksAsked != album {
            marksAsked = album
            ShownMarks.shared.request(photos.map(\.id))
        }
        if facts, factsAsked != album {
            factsAsked = album
            ShownMarks.shared.requestFacts(photos.map(\.id))
        }
    }

    /// The ids of the photos `search` keeps; nil once `cancellation` is (a newer search, the
    /// folder left). On a worker.
    nonisolated static func matching(_ search: PhotoSearch, in photos: [Photo], marks: [String: PhotoMarks],
                                     facts: [String: ExifFacts], under top: String, cancellation: CancellationFlag) -> Set<String>? {
        let matcher = search.matcher()
        var kept = Set<String>()
        SearchTexts.shared.withTexts { texts in
            for (n, photo) in photos.enumerated() {
                if n % 1024 == 0, cancellation.isCancelled { return }
                let camera = facts[photo.id]?.camera ?? "", photoMarks = marks[photo.id] ?? .none
                // The folded text worked out for an earlier search, while what it is made of holds.
                let folded: String
                if let text = texts[photo.id], text.top == top, text.name == photo.displayName, text.camera == camera, text.tags == photoMarks.tags {
                    folded = text.folded
                } else {
                    folded = SearchablePhoto.foldedText(name: photo.displayName, folder: folderPath(of: photo.id, under: top),
                                                        camera: camera, tags: photoMarks.tags)
                    texts[photo.id] = SearchTexts.Text(top: top, name: photo.displayName, camera: camera, tags: photoMarks.tags, folded: folded)
                }
                let searchable = SearchablePhoto(name: photo.displayName, folder: "", camera: camera, marks: photoMarks,
                                                 taken: (photo.dateTaken ?? facts[photo.id]?.taken).map { $0 / 1_000_000 },
                                                 isVideo: photo.contentType.hasPrefix("video/"), foldedText: folded)
                if matcher.matches(searchable) { kept.insert(photo.id) }
            }
        }
        return cancellation.isCancelled ? nil : kept
    }

    /// Marks read while a search is open: the search again, once they stop coming for a moment.
    private func marksArrived() {
        guard searchBar.isOpen, !searchBar.search.isEmpty else { return }
        searchAgainSoon()
    }

    /// The search again in a moment (marks read, photos found meanwhile), once however often
    /// this is asked meanwhile.
    private func searchAgainSoon() {
        guard !refilterPending else { return }
        refilterPending = true
        _ = after(milliseconds: 150) { [weak self] in
            guard let self else { return }
            self.refilterPending = false
            if self.searchBar.isOpen, !self.searchBar.search.isEmpty { self.filter(by: self.searchBar.search) }
        }
    }

    /// The folders a photo is in below the folder opened, as words to search ("Kyoto/Day 1"
    /// for a photo in Pictures/Kyoto/Day 1 when Pictures is opened); the folder's own name
    /// when the photo is elsewhere (an album of the person's own).
    nonisolated static func folderPath(of uri: String, under top: String) -> String {
        let parent = uri[..<(uri.lastIndex(of: "/") ?? uri.startIndex)]
        let prefix = top.hasSuffix("/") ? top : top + "/"
        let below = parent.hasPrefix(prefix) ? parent.dropFirst(prefix.count) : parent[(parent.lastIndex(of: "/").map { parent.index(after: $0) } ?? parent.startIndex)...]
        return String(below).removingPercentEncoding ?? String(below)
    }
}

/// The folded text of each photo searched, kept between searches (by photo, with what it was
/// made of): on 100,000 photos, folding them again at each key would take most of a second.
final class SearchTexts: Sendable {
    struct Text {
        var top: String
        var name: String
        var camera: String
        var tags: [String]
        var folded: String
    }

    static let shared = SearchTexts()
    private let texts = Mutex<[String: Text]>([:])

    /// Runs `body` with the texts, on a worker (searches run one after another).
    func withTexts(_ body: (inout [String: Text]) -> Void) { texts.withLock { body(&$0) } }
}

/// An album whose photos' marks a search asked for, and how many it had then.
struct AskedAlbum: Equatable {
    let contents: ObjectIdentifier
    let count: Int
}
