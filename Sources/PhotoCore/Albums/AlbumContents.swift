
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
    /// A search's filter: the photos it keeps are `photos`, the others wait here until it
    /// changes (nil: every photo shown).
    private var keep: ((Photo) -> Bool)?
    private var hidden: [String: Photo] = [:]

    /// Called once when the album's photos have all been listed, with their count or the
    /// reason the listing failed.
    public var onListed: (Result<Int, FolderError>) -> Void = { _ in }

    public init(id: AlbumID, order: PhotoOrder, source: (any AlbumSource)?) {
        self.id = id
        self.source = source
        photos = PhotoList(order: order)
    }

    /// Calls `observer` with each change of the display order, after `photos` has changed.
    public func observeChanges(_ observer: @escaping (PhotoList.Splice) -> Void) {
        changeObservers.append(observer)
    }

    // MARK: What the source tells it

    /// Photos found, or found changed.
    public func insert(_ batch: [Photo]) {
        guard let keep else {
            if let splice = photos.insert(batch) { notify(splice) }
            return
        }
        var shown: [Photo] = []
        var leaving: Set<String> = []
        for photo in batch {
            if keep(photo) {
                hidden[photo.id] = nil
                shown.append(photo)
            } else {
                hidden[photo.id] = photo
                if photos.index(of: photo.id) != nil { leaving.insert(photo.id) }
            }
        }
        if !leaving.isEmpty, let splice = photos.remove(ids: leaving) { notify(splice) }
        if let splice = photos.insert(shown) { notify(splice) }
    }

    /// Photos gone.
    public func remove(_ ids: Set<String>) {
        for id in ids { hidden[id] = nil }
        if let splice = photos.remove(ids: ids) { notify(splice) }
    }

    /// Dates taken read (nil: the file records none).
    public func setDatesTaken(_ dates: [String: Int64?]) {
        for (id, date) in dates where hidden[id] != nil { hidden[id]?.dateTaken = date }
        if let splice = photos.setDatesTaken(dates) { notify(splice) }
    }

    // MARK: Searching

    /// Every photo of the album, shown or left out by the search.
    public var allPhotos: [Photo] { photos.all + hidden.values }
    /// How many photos the album has, whatever the search shows.
    public var unfilteredCount: Int { photos.count + hidden.count }
    public var isFiltered: Bool { keep != nil }

    /// Shows only the photos `keep` is true of (nil: all of them again), as at most two
    /// splices: the photos leaving, then the photos coming back.
    public func setFilter(_ keep: ((Photo) -> Bool)?) {
        self.keep = keep
        if let keep {
            let leaving = photos.all.filter { !keep($0) }
            for photo in leaving { hidden[photo.id] = photo }
            if !leaving.isEmpty, let splice = photos.remove(ids: Set(leaving.map(\.id))) { notify(splice) }
        }
        let coming = hidden.values.filter { keep?($0) ?? true }
        for photo in coming { hidden[photo.id] = nil }
        if !coming.isEmpty, let splice = photos.insert(coming) { notify(splice) }
    }

    /// The listing ended.
    public func listed(_ result: Result<Int, FolderError>) {
        guard !isListed else { return }
        isListed = true
        onListed(result.map { _ in photos.count })
        if photos.order.key == .dateTaken { source?.datesNeeded(by: self) }
    }

    // MARK: What the views ask

    /// Shows the photos in another order; has the dates taken read first when that order
    /// needs them.
    public func sort(by order: PhotoOrder) {
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
