
/// Where an album's photos come from: the opened folder's tree, or a collection (and, later,
/// remote folders and web albums). The album asks it for what only the source can do:
/// to delete photos from every album at once, and to look files up again (reload).
@MainActor
public protocol AlbumSource: AnyObject {
    /// The photos were moved to the trash or deleted by this app: take them out of every
    /// album at once, before the folder monitor reports them gone.
    func forget(_ ids: Set<String>)
    /// Look these files up again (restored from the trash) and show them where they belong.
    func refresh(_ uris: [String])
    /// An album now sorts by date taken: read the dates it needs.
    func datesNeeded(by album: AlbumContents)
}

/// The photos of one album in display order, as the grid, the viewer and edit mode see
/// them, whatever kind of album it is: fed by its source, and announced to the views as
/// splices while its photos stream in. How many photos, the photo at an index (`photos`),
/// reload (`refresh`) and delete (`forget`): one model for every kind of album.
@MainActor
public final class AlbumContents {
    public let id: AlbumID
    public private(set) var photos: PhotoList
    public private(set) var isListed = false
    public weak var source: (any AlbumSource)?
    private var changeObservers: [(PhotoList.Splice) -> Void] = []
    private var listedObservers: [() -> Void] = []
    /// A search's filter: the photos it keeps are `photos` (nil: every photo shown).
    private var keep: ((Photo) -> Bool)?
    /// While filtered, every photo of the album in its order (`photos` is the part shown).
    private var unfiltered: PhotoList?
    /// Changes with the album's photos (found, gone, dates read, sorted), whatever a search
    /// shows: a search's result is for the photos of one generation. Never the same for two
    /// albums, nor twice for one.
    public private(set) var generation: Int
    private static var generations = 0
    private static func nextGeneration() -> Int {
        generations += 1
        return generations
    }

    /// Called once when the album's photos have all been listed, with their count or the
    /// reason the listing failed.
    public var onListed: (Result<Int, FolderError>) -> Void = { _ in }

    public init(id: AlbumID, order: PhotoOrder, source: (any AlbumSource)?) {
        self.id = id
        self.source = source
        photos = PhotoList(order: order)
        generation = Self.nextGeneration()
    }

    /// Calls `observer` with each change of the display order, after `photos` has changed.
    public func observeChanges(_ observer: @escaping (PhotoList.Splice) -> Void) {
        changeObservers.append(observer)
    }

    /// Calls `observer` once the album is listed, after `onListed` (not at all if it is already).
    public func observeListed(_ observer: @escaping () -> Void) {
        listedObservers.append(observer)
    }

    // MARK: What the source tells it

    /// Photos found, or found changed.
    public func insert(_ batch: [Photo]) {
        generation = Self.nextGeneration()
        guard let keep, unfiltered != nil else {
            if let splice = photos.insert(batch) { notify(splice) }
            return
        }
        unfiltered?.insert(batch)
        var shown: [Photo] = []
        var leaving: Set<String> = []
        for photo in batch {
            if keep(photo) {
                shown.append(photo)
            } else if photos.index(of: photo.id) != nil {
                leaving.insert(photo.id)
            }
        }
        if !leaving.isEmpty, let splice = photos.remove(ids: leaving) { notify(splice) }
        if let splice = photos.insert(shown) { notify(splice) }
    }

    /// Photos gone.
    public func remove(_ ids: Set<String>) {
        generation = Self.nextGeneration()
        unfiltered?.remove(ids: ids)
        if let splice = photos.remove(ids: ids) { notify(splice) }
    }

    /// Dates taken read (nil: the file records none).
    public func setDatesTaken(_ dates: [String: Int64?]) {
        generation = Self.nextGeneration()
        unfiltered?.setDatesTaken(dates)
        if let splice = photos.setDatesTaken(dates) { notify(splice) }
    }

    /// The album's lists as they are now, to apply dates to on another thread
    /// (`DatedLists.apply`) and give back (`take`).
    public var listsForDates: DatedLists { DatedLists(generation: generation, photos: photos, unfiltered: unfiltered) }

    /// Takes the lists `dated` made of this album's lists, and tells the change; false (and
    /// nothing taken) when they were made of another album's, or the album changed since.
    public func take(_ dated: DatedLists) -> Bool {
        guard dated.generation == generation else { return false }
        generation = Self.nextGeneration()
        unfiltered = dated.unfiltered
        photos = dated.photos
        if let splice = dated.splice { notify(splice) }
        return true
    }

    /// An album's lists with dates applied away from the main thread: what `setDatesTaken`
    /// does to them.
    public struct DatedLists: Sendable {
        /// The album's generation when they were taken (`generation`).
        let generation: Int
        var photos: PhotoList
        var unfiltered: PhotoList?
        var splice: PhotoList.Splice?

        init(generation: Int, photos: PhotoList, unfiltered: PhotoList?) {
            self.generation = generation
            self.photos = photos
            self.unfiltered = unfiltered
        }

        mutating func apply(_ dates: [String: Int64?]) {
            unfiltered?.setDatesTaken(dates)
            splice = photos.setDatesTaken(dates)
        }
    }

    // MARK: Searching

    /// Every photo of the album, shown or left out by the search, in the album's order.
    public var allPhotos: [Photo] { (unfiltered ?? photos).all }
    /// How many photos the album has, whatever the search shows.
    public var unfilteredCount: Int { (unfiltered ?? photos).count }
    public var isFiltered: Bool { keep != nil }

    /// Shows only the photos `keep` is true of (nil: all of them again), as one splice.
    /// No photo is looked up by its id, whatever the album's size: the photos kept are
    /// taken from the album's whole list in its order, and all of them, or none filtered,
    /// are that list itself. `kept`, when given, are those photos already (worked out on a
    /// worker for the album as it is now): `keep` is then asked only of photos found later.
    public func setFilter(_ keep: ((Photo) -> Bool)?, kept given: [Photo]? = nil) {
        self.keep = keep
        let all = unfiltered ?? photos
        guard let keep else {
            unfiltered = nil
            if let splice = photos.replace(with: all) { notify(splice) }
            return
        }
        unfiltered = all
        let kept = given ?? all.all.filter(keep)
        let splice = kept.count == all.count ? photos.replace(with: all) : photos.replace(with: kept)
        if let splice { notify(splice) }
    }

    /// The listing ended.
    public func listed(_ result: Result<Int, FolderError>) {
        guard !isListed else { return }
        isListed = true
        onListed(result.map { _ in photos.count })
        for observer in listedObservers { observer() }
        listedObservers = []
        if photos.order.key == .dateTaken { source?.datesNeeded(by: self) }
    }

    // MARK: What the views ask

    /// Shows the photos in another order; has the dates taken read first when that order
    /// needs them.
    public func sort(by order: PhotoOrder) {
        generation = Self.nextGeneration()
        unfiltered?.sort(by: order)
        if let splice = photos.sort(by: order) { notify(splice) }
        if order.key == .dateTaken, isListed { source?.datesNeeded(by: self) }
    }

    /// Takes photos out of every album at once (moved to the trash or deleted by this app).
    public func forget(_ ids: Set<String>) {
        if let source { source.forget(ids) } else { remove(ids) }
    }

    /// Looks files up again (restored from the trash) and shows them.
    public func refresh(_ uris: [String]) {
        source?.refresh(uris)
    }

    private func notify(_ splice: PhotoList.Splice) {
        for observer in changeObservers { observer(splice) }
    }
}
