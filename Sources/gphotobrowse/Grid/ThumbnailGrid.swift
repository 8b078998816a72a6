import CGtk
import PhotoCore

/// The folder as a grid of square thumbnails, on a virtualized GtkGridView.
///
/// The GTK model is a `PhotoIDModel` of photo ids mirroring `AlbumContents.photos`; it is
/// changed only by the splices the folder reports. GtkGridView recycles tiles: `bind` hands
/// a tile a photo, `unbind` takes it back. Which thumbnails are asked for, and when, is the
/// `ThumbnailScheduler`'s; clicks, menus and dragging are in `GridInput.swift`.
@MainActor
final class ThumbnailGrid {
    private let live = LiveObjects.Token("ThumbnailGrid")
    /// The tiles' edge in pixels (`TileSize`), changed by `setTileSize` (`GridTileSize.swift`).
    var tileEdge: Int
    /// A tile's cell: the tile plus the grid's padding around it (see Style).
    var cellEdge: Int { tileEdge + 6 }

    let root: Widget
    let gridView: OpaquePointer
    private let ids = PhotoIDModel()
    private var tileTrace = TileTrace()
    let selectionModel: OpaquePointer  // GtkMultiSelection: only the rubber band writes it
    let contents: AlbumContents
    /// Where the tiles' thumbnails come from: the loader of the cache size that fits them.
    var loader: ThumbnailLoader
    /// The grid's observations of `loader`, let go when it moves to another (or the grid goes).
    var loaderObservations: [Observation] = []
    private(set) var scheduler: ThumbnailScheduler!

    /// The tiles the grid view has made and not yet torn down.
    private(set) var tiles: [ObjectIdentifier: ThumbnailTile] = [:]
    /// Tiles torn down, kept for the next list items set up.
    private let pool = TilePool()

    /// A tile was clicked or Enter was pressed on it (outside edit mode, or Enter in it).
    var onActivate: (Int) -> Void = { _ in }
    /// Whether a single click activates a tile; when not (choosing photos), a double click or
    /// Enter does, and a single click previews it (`onPreview`).
    var activatesOnSingleClick = true {
        didSet { setEditing(isEditing) }
    }
    /// A tile was clicked once where a click does not activate (or twice in edit mode): show it.
    var onPreview: ((Int) -> Void)?
    /// Whether the person moved the keyboard focus (keys, clicks) since the grid was made;
    /// a request to focus a photo still waiting then goes no further.
    var focusWasMoved = false {
        didSet { if focusWasMoved { focusRequest += 1 } }
    }
    /// Counts the requests to reveal or focus a photo: a request still waiting for its tile
    /// goes on only while it is the last.
    var focusRequest = 0
    /// A tile was clicked in edit mode, or with Ctrl or Shift: the edit controller decides.
    var onSelectClick: (_ id: String, _ extend: Bool) -> Void = { _, _ in }
    /// The rubber band selected or unselected these photos.
    var onRubberBand: (_ selected: Set<String>, _ unselected: Set<String>) -> Void = { _, _ in }
    /// A context menu was asked for at (x, y) in `menuAnchor`, over this photo (or none).
    var onContextMenu: (_ id: String?, _ x: Double, _ y: Double) -> Void = { _, _, _ in }
    /// The files a drag from this photo carries (the selection when it is part of it).
    var urisToDrag: (_ id: String) -> [String] = { [$0] }
    /// The widget context menus pop up on.
    var menuAnchor: Widget { gridView.widget }
    /// Whether a photo is selected, for the tiles' check marks.
    var isSelected: (String) -> Bool = { _ in false }
    /// Whether a photo of an album of the person's own was not found: its tile says so.
    var isMissing: (String) -> Bool = { _ in false }
    private(set) var isEditing = false
    /// Set while the grid clears GTK's selection itself, so that it is not taken for the rubber band.
    var echoingSelection = false
    /// Set while a key moves the focus, whose selection in GTK's model is not the person's.
    var movingFocusByKey = false
    /// GTK 4.8's lost view, recovered after layouts (`GridViewRecovery.swift`).
    var recovery = GridViewRecoveryState()
    /// Ctrl+scroll over the grid: steps of the tile size, and the photo under the pointer
    /// (`GridTileSize.swift`).
    var tileSizing = GridTileSizing()
    /// The person asked for tiles this many steps larger (negative: smaller).
    var onTileSizeStep: (Int) -> Void = { _ in }

    init(contents: AlbumContents, loader: ThumbnailLoader, tileEdge: Int) {
        self.contents = contents
        self.loader = loader
        self.tileEdge = tileEdge
        selectionModel = gtk_multi_selection_new(ids.model.ref()).cast()
        let factory = gtk_signal_list_item_factory_new()!
        // The grid view takes over the selection model and the factory.
        gridView = gtk_grid_view_new(selectionModel.cast(), factory).cast()
        // GTK 4.8 keeps tiles for about 30 rows of max-columns each and makes that many on
        // every large model change: max-columns follows the width (see fitColumns).
        gtk_grid_view_set_max_columns(gridView, 8)
        gtk_grid_view_set_min_columns(gridView, 1)
        gtk_grid_view_set_single_click_activate(gridView, 1)
        gtk_widget_add_css_class(gridView.widget, "photo-grid")
        LiveObjects.track(gridView)

        root = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(root.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(root.cast(), gridView.widget)
        gtk_widget_set_vexpand(root, 1)
        gtk_widget_set_hexpand(root, 1)
        scheduler = ThumbnailScheduler(grid: self, loader: loader)

        onSignal(factory, "setup", pointer: { [weak self] item in self?.setUp(item) })
        onSignal(factory, "bind", pointer: { [weak self] item in self?.bind(item) })
        onSignal(factory, "unbind", pointer: { [weak self] item in self?.unbind(item) })
        onSignal(factory, "teardown", pointer: { [weak self] item in self?.tearDown(item) })
        onSignal(gridView, "activate", integer: { [weak self] position in self?.onActivate(Int(UInt32(bitPattern: position))) })
        installSelectionClicks()
        installPreviewClicks()
        installContextMenuAndDrag()
        installRubberBand()
        installViewRecovery()
        installTileSizeScroll()
        // A grid shown again (an album switched back to) asks for the thumbnails of tiles
        // bound while it was hidden: photos that arrived meanwhile.
        onSignal(gridView, "map") { [weak self] in self?.scheduler.schedule() }
        // Tiles out of view wait for the listing's end (`ThumbnailPriority`).
        contents.observeListed { [weak self] in self?.scheduler.schedule() }
        if let adjustment = gtk_scrollable_get_vadjustment(gridView) {
            onSignal(adjustment, "value-changed") { [weak self] in
                self?.scheduler.scrolled(to: gtk_adjustment_get_value(adjustment))
            }
        }
        if let adjustment = gtk_scrollable_get_hadjustment(gridView) {
            // "changed" comes during the grid view's size allocation: change its columns after
            // it, never inside it (GTK 4.8 asserts on a layout changed under its feet).
            onSignal(adjustment, "changed") { [weak self] in
                after(milliseconds: 0) { [weak self] in self?.fitColumns() }
            }
        }

        loaderObservations = observe(loader)
        ShownMarks.shared.listen(self) { [weak self] uri, marks in
            for tile in self?.tiles.values ?? [:].values where tile.photo?.id == uri { tile.showMarks(marks) }
        }
        contents.observeChanges { [weak self] splice in self?.apply(splice) }
    }

    /// Shows what `loader` makes on the tiles, while the observations returned are held.
    func observe(_ loader: ThumbnailLoader) -> [Observation] {
        [
            loader.observeReady { [weak self] key, thumbnail in self?.thumbnailReady(key, thumbnail) },
            loader.observePreview { [weak self] key, preview in
                guard let self else { return }
                for tile in self.tiles.values where tile.key == key { tile.showPreview(preview) }
                self.tileTrace.preview(key.id, in: self.contents.photos)
            },
            loader.observeProgress { [weak self] key, progress in
                for tile in self?.tiles.values ?? [:].values where tile.key == key { tile.showDownload(progress) }
            },
        ]
    }

    /// Mirrors a change of the folder's order into the GTK model.
    private func apply(_ splice: PhotoList.Splice) {
        let hadFocus = focusIsInGrid
        if scrollOffset <= 0 { recovery.keepAtTop = true }
        scheduler.spliceBegins()
        let place: (String) -> Int? = { [contents] in contents.photos.index(of: $0) }
        // A listing's photos replacing the first screen's while the grid is at the top: the
        // model emptied first (`PhotoIDModel.replaceAll`), GTK does not look every new place
        // up among the rows it had; the top shows other photos after it anyway. Not when the
        // person moved the focus to another photo than the first: GTK keeps it on that photo
        // through a splice, and the emptied model would lose it.
        let focusIsOnFirstOrNone = (focusedTile?.photo?.id).map { $0 == splice.removedIDs.first } ?? true
        if !contents.isListed, splice.position == 0, splice.removed == ids.count, splice.removed > 0,
           splice.inserted.count >= Self.replacedWholeFrom, recovery.keepAtTop, focusIsOnFirstOrNone {
            ids.replaceAll(with: splice.inserted, place: place)
        } else {
            ids.splice(position: splice.position, removed: splice.removed, inserted: splice.inserted, place: place)
        }
        showChangedPhotos()
        scheduler.spliceEnded(self)
        keepFocus(hadFocus: hadFocus, at: splice.position)
        scheduler.schedule()
    }

    /// As many columns as fit the width: more would never show, fewer would waste it.
    func fitColumns() {
        let width = Int(gtk_widget_get_width(gridView.widget))
        guard width > 0 else { return }
        let columns = UInt32(max(1, width / cellEdge))
        if gtk_grid_view_get_max_columns(gridView) != columns { gtk_grid_view_set_max_columns(gridView, columns) }
    }

    /// The tiles of `keys`, whose failures the loader forgot, ask for their thumbnails again.
    func askAgain(for keys: Set<PhotoVersion>) {
        for tile in tiles.values {
            guard let key = tile.key, keys.contains(key) else { continue }
            tile.awaitThumbnail()
            scheduler.bound(tile, needsThumbnail: true)
        }
    }

    // MARK: Tiles

    private static let tileKey = "gphotobrowse-tile"
    /// How many photos a listing's splice brings at least for the grid's model to be emptied
    /// first (`apply`).
    private static let replacedWholeFrom = 1_000

    private func setUp(_ item: UnsafeMutableRawPointer?) {
        guard let item else { return }
        let tile: ThumbnailTile
        if let kept = pool.take(into: item, edge: tileEdge) {
            tile = kept
        } else {
            tile = ThumbnailTile(edge: tileEdge)
            gtk_list_item_set_child(item.cast(), tile.root)
        }
        tiles[ObjectIdentifier(tile)] = tile
        ObjectData.attach(tile, to: item, key: Self.tileKey)
    }

    private func tile(for item: UnsafeMutableRawPointer?) -> ThumbnailTile? {
        guard let item else { return nil }
        return ObjectData.attached(to: item, key: Self.tileKey)
    }

    private func bind(_ item: UnsafeMutableRawPointer?) {
        guard let item, let tile = tile(for: item),
              let object = gtk_list_item_get_item(item.cast()),
              let id = PhotoItem.id(of: object),
              let position = contents.photos.index(of: id) else { return }
        let photo = contents.photos[position]
        ids.hold(OpaquePointer(object), for: id, at: position)
        show(photo, on: tile)
    }

    private func show(_ photo: Photo, on tile: ThumbnailTile) {
        let missing = isMissing(photo.id)
        let thumbnail = missing ? nil : loader.cached(photo.version)
        tile.show(photo, thumbnail: thumbnail, missing: missing)
        if let thumbnail { tileTrace.shown(photo.id, in: contents.photos, failed: thumbnail.isFailure) }
        if thumbnail == nil, !missing, let preview = loader.preview(photo.version) { tile.showPreview(preview) }
        tile.showSelection(editing: isEditing, selected: isSelected(photo.id))
        tile.showMarks(ShownMarks.shared.marks(of: photo.id))
        if !missing { ShownMarks.shared.request(photo.id) }
        scheduler.bound(tile, needsThumbnail: !missing && thumbnail == nil)
    }

    /// Tiles GTK kept through a splice (it finds a tile by its photo's id) whose photo
    /// changed meanwhile, its file or its date taken: shown anew, as GTK binds them no more.
    private func showChangedPhotos() {
        for tile in tiles.values {
            guard let shown = tile.photo, let photo = contents.photos.photo(id: shown.id) else { continue }
            if photo == shown, tile.showsThumbnailOutcome {
                tileTrace.shown(photo.id, in: contents.photos, failed: tile.showsFailure)
            }
            guard photo != shown else { continue }
            scheduler.released(tile)
            tile.clear()
            show(photo, on: tile)
        }
    }

    private func unbind(_ item: UnsafeMutableRawPointer?) {
        guard let tile = tile(for: item) else { return }
        releaseItem(of: item, shownOn: tile)
        scheduler.released(tile)
        tile.clear()
    }

    private func tearDown(_ item: UnsafeMutableRawPointer?) {
        guard let tile = tile(for: item) else { return }
        releaseItem(of: item, shownOn: tile)
        scheduler.released(tile)
        tiles[ObjectIdentifier(tile)] = nil
        if let item { pool.keep(tile, from: item) }
    }

    /// The model no longer keeps the item of a tile let go.
    private func releaseItem(of item: UnsafeMutableRawPointer?, shownOn tile: ThumbnailTile) {
        guard let id = tile.photo?.id, let object = gtk_list_item_get_item(item?.cast()) else { return }
        ids.release(OpaquePointer(object), for: id)
    }

    private func thumbnailReady(_ key: PhotoVersion, _ thumbnail: Thumbnail) {
        for tile in tiles.values where tile.key == key {
            tile.apply(thumbnail)
            scheduler.answered(tile)
        }
        scheduler.arrived(key)
        tileTrace.arrived(key.id, in: contents.photos, failed: thumbnail.isFailure)
    }

    // MARK: Edit mode

    /// Enters or leaves edit mode: check marks on every tile, clicks select instead of
    /// opening, and a drag on the background draws a rubber band.
    func setEditing(_ editing: Bool) {
        isEditing = editing
        // Single-click activation selects the hovered item in GTK 4.8: off while selecting.
        gtk_grid_view_set_single_click_activate(gridView, editing || !activatesOnSingleClick ? 0 : 1)
        gtk_grid_view_set_enable_rubberband(gridView, editing ? 1 : 0)
        echoingSelection = true
        gtk_selection_model_unselect_all(selectionModel.cast())
        echoingSelection = false
        refreshSelection()
    }

    /// Redraws the check marks of the tiles on screen.
    func refreshSelection() {
        for tile in tiles.values {
            guard let photo = tile.photo else { continue }
            tile.showSelection(editing: isEditing, selected: isSelected(photo.id))
        }
    }

    /// The photo whose tile is at (x, y) in the grid view, if any.
    func photo(at x: Double, _ y: Double) -> String? {
        var widget = gtk_widget_pick(gridView.widget, x, y, GTK_PICK_DEFAULT)
        while let current = widget, current != gridView.widget {
            if let tile = tiles.values.first(where: { $0.root == current }) { return tile.photo?.id }
            widget = gtk_widget_get_parent(current)
        }
        return nil
    }
}
