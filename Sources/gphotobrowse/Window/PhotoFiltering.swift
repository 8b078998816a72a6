import CGtk
import Foundation
import Synchronization
import PhotoCore
import PhotoIO

/// What the search needs of the window, beyond what it shows: the actions offered and the
/// subtitle brought up to date.
@MainActor
protocol PhotosToFilter: ShownPages {
    func applyPolicy()
    func updateSubtitle(dates progress: DateTakenReader.Progress?)
}

/// A search applied to the album shown: the photos matched on the search worker against the
/// folder's search corpus (`SearchCorpus`: every photo's folded text in one buffer, its marks
/// and facts by place), then the grid filtered in one splice, with `trace filtered COUNT MS`.
/// The corpus is made on the search worker once the folder is listed, so that the first key
/// finds it ready; what changes after (marks and facts read) reaches it there a moment later,
/// not at the next key. Marks not read yet are asked for once a result
/// is shown; they reach the corpus as they come, and the search runs again. It needs the
/// window's search bar and jobs, and what the window shows.
@MainActor
final class PhotoFiltering {
    private let searchBar: PhotoSearchBar
    private let jobs: WindowJobs
    private weak var pages: (any PhotosToFilter)?
    private var searchRuns = SearchRuns<PhotoSearch>()
    /// The album the search last asked marks, and cameras and dates, for.
    private var marksAsked: AskedAlbum?
    private var factsAsked: AskedAlbum?
    /// Cancels the search under way (a newer one, the folder left, the window closing).
    private var searching: CancellationFlag?
    /// Cancels the reading of the marks, cameras and dates the search asked for (the folder
    /// left); closing the window cancels it as it cancels every job of the window.
    private var reading = CancellationFlag()
    private var refilterPending = false
    /// Changes told to the corpus wait to be applied on the search worker.
    private var applyPending = false

    init(searchBar: PhotoSearchBar, jobs: WindowJobs, pages: any PhotosToFilter) {
        self.searchBar = searchBar
        self.jobs = jobs
        self.pages = pages
    }

    private var folder: OpenFolder? { pages?.folder }

    /// Adds Ctrl+F to `window`'s actions, and follows the search bar and the marks read.
    func install(on window: UnsafeMutablePointer<GtkWindow>) {
        searchBar.onChange = { [weak self] search in self?.filter(by: search) }
        // Escape in the bar: the next keys go to the grid's photos, not to the hiding field.
        searchBar.onFocusLeaving = { [weak self] in
            guard let pages = self?.pages, pages.isGridShown else { return }
            pages.folder?.grid.focus()
        }
        addAction(window, "search") { [weak self] in
            guard let self, let pages = self.pages, pages.folder != nil, pages.isGridShown else { return }
            self.searchBar.toggle()
        }
        // The album as it is now told as the bar opens, ahead of the first key (the corpus
        // made there if the folder's listing has not made it yet).
        onSignal(searchBar.root, "notify::search-mode-enabled") { [weak self] in
            guard let self, self.searchBar.isOpen else { return }
            self.makeCorpus()
        }
        ShownMarks.shared.listen(self) { [weak self] uri, marks in
            self?.tell(.marks(uri: uri, marks))
            self?.marksArrived()
        }
        ShownMarks.shared.listenForFacts(self) { [weak self] read in
            self?.tell(.facts(read))
            self?.marksArrived()
        }
    }

    /// The folder's search corpus made on the search worker if it is not yet, and told the
    /// album shown as it is now: when the folder is listed (with every mark and fact known
    /// then; those read later reach it as they come) and as the search bar opens.
    func makeCorpus() {
        guard let folder else { return }
        let corpus = corpus(told: folder.contents, in: folder)
        _ = jobs.submit(to: .searches, priority: 0) { _ in corpus.update() }
        // Then its places by URI, after any search asked for meanwhile.
        _ = jobs.submit(to: .searches, priority: -1) { _ in corpus.indexURIs() }
    }

    /// `change` told to the folder's corpus, and applied on the search worker at the main
    /// loop's next turn, with whatever else comes meanwhile: a key typed later finds them
    /// applied (marks or facts told by URI make the corpus's table of places by URI first).
    private func tell(_ change: SearchCorpus.Change) {
        guard let corpus = folder?.searchCorpus else { return }
        corpus.tell(change)
        guard !applyPending else { return }
        applyPending = true
        _ = after(milliseconds: 0) { [weak self, weak corpus] in
            guard let self else { return }
            self.applyPending = false
            guard let corpus else { return }
            _ = self.jobs.submit(to: .searches, priority: -1) { _ in corpus.update() }
        }
    }

    /// Filters the album shown by `search`; an empty search shows every photo of every page.
    /// The album's photos as they are now go to the corpus (a copy, not shared with the main
    /// thread), the search runs on the worker, and only which photos it keeps comes back.
    /// Another search cancels the one under way; the same one asked again (marks read,
    /// photos found) runs again once it ends (`SearchRuns`).
    func filter(by search: PhotoSearch) {
        guard let folder else { return }
        if search.isEmpty {
            stopSearching()
            for page in folder.pages where page.contents.isFiltered {
                page.contents.setFilter(page.album == .favourites ? folder.favouritesFilter : nil)
            }
            Trace.milestone("filtered", folder.contents.photos.count)
            pages?.updateSubtitle(dates: nil)
            pages?.applyPolicy()
            return
        }
        guard let run = searchRuns.ask(search) else { return }
        let contents = folder.contents
        // Favourites searched stay favourites.
        let inFavourites = folder.page.album == .favourites
        var asked = search
        if inFavourites { asked.favouritesOnly = true }
        let matching = asked
        // Cameras matter to words, and dates taken to a period: read with the photos' EXIF.
        let needsFacts = !search.words.isEmpty || search.takenFrom != nil || search.takenBefore != nil
        let corpus = corpus(told: contents, in: folder)
        let album = ObjectIdentifier(contents)
        // A search job of the window; another search (or leaving the folder) cancels it.
        searching?.cancel()
        let searching = CancellationFlag()
        self.searching = searching
        let owner = MainThreadOwner(self)
        _ = jobs.submit(to: .searches, priority: 0, within: searching) { flag in
            guard let found = corpus.search(matching, in: album, cancellation: flag) else { return }
            let result = SearchResult(found: found, inFavourites: inFavourites)
            owner.onMain { filtering in
                let (show, again) = filtering.searchRuns.finished(run)
                guard show else { return }
                filtering.searching = nil
                if let folder = filtering.folder, folder.contents === contents {
                    let generation = result.generation
                    // The photos kept as worked out, while the album is what the search saw;
                    // else each photo asked about by its identity.
                    contents.setFilter({ result.keeps($0) }, kept: contents.generation == generation ? result.keptPhotos(of: contents) : nil)
                    filtering.searchBar.showCount(contents.photos.count, of: contents.unfilteredCount)
                    filtering.pages?.applyPolicy()
                    Trace.milestone("filtered", contents.photos.count)
                    // Once a result is shown: the look at every photo for those not asked
                    // for yet (on the marks worker) is not made while the key waits.
                    filtering.askForMarks(in: contents, facts: needsFacts)
                    if contents.generation != generation { filtering.searchAgainSoon() }
                }
                if let again { filtering.filter(by: again) }
            }
        }
    }

    /// The folder's search corpus, made if need be (and then told every mark and fact known
    /// now), told the photos of `contents` as they are now unless it was at this generation.
    private func corpus(told contents: AlbumContents, in folder: OpenFolder) -> FolderSearchCorpus {
        let made = folder.searchCorpus == nil
        let corpus = folder.searchCorpus ?? FolderSearchCorpus(top: folder.source.uri)
        folder.searchCorpus = corpus
        // Once a generation; the marks and facts known only to a new corpus (those read
        // after reach it as they come): a copy handed over is one the main thread makes
        // again at its next change of them, 100,000 photos' on a large folder.
        let album = (id: ObjectIdentifier(contents), generation: contents.generation)
        if !corpus.told.contains(where: { $0 == album }) {
            // As the corpus keeps them: the latest first, a few.
            corpus.told.removeAll { $0.id == album.id }
            corpus.told.insert(album, at: 0)
            if corpus.told.count > SearchCorpus.albumsKept { corpus.told.removeLast() }
            corpus.tell(.album(ObjectIdentifier(contents), generation: contents.generation, photos: contents.allPhotos,
                               marks: made ? ShownMarks.shared.known : [:], facts: made ? ShownMarks.shared.facts : [:]))
        }
        return corpus
    }

    /// The folder is left: the search under way stops, and the marks it asked for are asked
    /// for again in the next folder.
    func left() {
        stopSearching()
        reading.cancel()
        reading = CancellationFlag()
        marksAsked = nil
        factsAsked = nil
    }

    /// Stops the search under way (cleared, the folder left): its result is not shown.
    private func stopSearching() {
        searchRuns.clear()
        searching?.cancel()
        searching = nil
    }

    /// Asks for the marks (and, when the search needs them, the cameras and dates) of the
    /// album's photos once for as many photos as it has, not again at every key; which of
    /// them are not known yet is worked out on the marks worker. Those read reach the corpus
    /// as they come, and the search runs again. The readings are jobs of the window: closing
    /// it, or leaving the folder, stops them.
    private func askForMarks(in contents: AlbumContents, facts: Bool) {
        let album = AskedAlbum(contents: ObjectIdentifier(contents), count: contents.unfilteredCount)
        if marksAsked != album {
            marksAsked = album
            ShownMarks.shared.request(contents.allPhotos, as: jobs.begin(within: reading))
        }
        if facts, factsAsked != album {
            factsAsked = album
            ShownMarks.shared.requestFacts(contents.allPhotos, as: jobs.begin(within: reading))
        }
    }

    /// Marks read while a search is open: the search again, once they stop coming for a moment.
    private func marksArrived() {
        // Before the bar's state is read: 100,000 photos' marks may come one by one.
        guard !refilterPending, searchBar.isOpen, !searchBar.search.isEmpty else { return }
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
}

/// The search corpus of a folder (`SearchCorpus`), changed and searched on the search worker
/// only (one search at a time); the main thread tells it what changed, in the order it saw
/// it, and the next job there applies it.
final class FolderSearchCorpus: Sendable {
    private let changes = Mutex<[SearchCorpus.Change]>([])
    private let corpus: Mutex<SearchCorpus>
    /// The albums told, at the generation told last, as the corpus keeps them (the latest
    /// first, `SearchCorpus.albumsKept`): on the main thread only.
    @MainActor var told: [(id: ObjectIdentifier, generation: Int)] = []

    init(top: String) { corpus = Mutex(SearchCorpus(top: top)) }

    /// From any thread.
    func tell(_ change: SearchCorpus.Change) { changes.withLock { $0.append(change) } }

    /// On the search worker: the changes told so far applied.
    func update() {
        let told = changes.withLock { changes in
            defer { changes = [] }
            return changes
        }
        guard !told.isEmpty else { return }
        corpus.withLock { $0.apply(told) }
    }

    /// On the search worker: the places by URI made for the photos the corpus holds, ahead
    /// of the marks and facts told by URI (`SearchCorpus.indexURIs`).
    func indexURIs() {
        corpus.withLock { $0.indexURIs() }
    }

    /// On the search worker: what `search` keeps of the album `album` as told last; nil once
    /// `cancellation` is (a newer search, the folder left).
    func search(_ search: PhotoSearch, in album: ObjectIdentifier, cancellation: CancellationFlag) -> SearchCorpus.Found? {
        update()
        return corpus.withLock { corpus in
            cancellation.isCancelled ? nil : corpus.search(search, in: album) { cancellation.isCancelled }
        }
    }
}

/// A search's result, as the main thread applies it: the photos it keeps in the album's
/// order, and whether it keeps a photo found since, asked by its identity. Made on the
/// search worker.
final class SearchResult: Sendable {
    /// The album's `generation` the search saw.
    let generation: Int
    /// The photos kept, in the album's order; nil when that is every photo.
    private let kept: [Photo]?
    /// The photos kept in Favourites (few), the photos left out anywhere else: photos found
    /// since are shown there until the search runs again for them. `photos` holds every
    /// photo it names, so that none of their identities is another photo's while the filter
    /// lasts.
    private let marked: Set<ObjectIdentifier>
    private let photos: [Photo]
    private let inFavourites: Bool

    init(found: SearchCorpus.Found, inFavourites: Bool) {
        generation = found.generation
        photos = found.photos
        self.inFavourites = inFavourites
        let keptCount = found.kept.reduce(0) { $0 + ($1 ? 1 : 0) }
        let all = keptCount == found.photos.count
        // Every photo kept outside Favourites: nothing to list (no photo looked at).
        guard !all || inFavourites else {
            kept = nil
            marked = []
            return
        }
        var kept: [Photo] = []
        if !all {
            kept.reserveCapacity(keptCount)
            for n in found.photos.indices where found.kept[n] { kept.append(found.photos[n]) }
        }
        self.kept = all ? nil : kept
        marked = found.identities(kept: inFavourites, count: inFavourites ? keptCount : found.kept.count - keptCount)
    }

    /// The photos kept, in the order of `contents` as the search saw it.
    @MainActor func keptPhotos(of contents: AlbumContents) -> [Photo] { kept ?? contents.allPhotos }

    func keeps(_ photo: Photo) -> Bool { marked.contains(photo.identity) == inFavourites }
}

/// An album whose photos' marks a search asked for, and how many it had then.
struct AskedAlbum: Equatable {
    let contents: ObjectIdentifier
    let count: Int
}
