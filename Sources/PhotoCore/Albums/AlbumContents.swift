
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
        if let splice = photos.insert(batch) { notify(splice) }
    }

    /// Photos gone.
    public func remove(_ ids: Set<String>) {
        if let splice = photos.remove(ids: ids) { notify(splice) }
    }

    /// Dates taken read (nil: the file records none).
    public func setDatesTaken(_ dates: [String: Int64?]) {
        if let splice = photos.setDatesTaken(dates) { notify(splice) }
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
