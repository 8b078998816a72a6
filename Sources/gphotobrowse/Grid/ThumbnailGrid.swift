import CGtk
import PhotoCore

/// The folder as a grid of square thumbnails, on a virtualized GtkGridView.
///
/// The GTK model is a GtkStringList of photo ids mirroring `FolderContents.photos`; it is
/// changed only by the splices the folder reports. GtkGridView recycles tiles: `bind` hands
/// a tile a photo, `unbind` takes it back. Thumbnails are asked for once the bound tiles
/// have been laid out, nearest to the middle of the view first, so the tiles a person sees
/// fill before the ones GTK keeps ready above and below, then the next screenful in the
/// scrolling direction is fetched ahead.
@MainActor
final class ThumbnailGrid {
    static let tileEdge = 160
    /// A tile's cell: the tile plus the grid's padding around it (see Style).
    private static let cellEdge = tileEdge + 6

    let root: Widget
    private let gridView: OpaquePointer
    private let ids: OpaquePointer  // GtkStringList
    private let selectionModel: OpaquePointer  // GtkMultiSelection: only the rubber band writes it
    private let contents: FolderContents
    private let loader: ThumbnailLoader

    /// The tiles the grid view has made and not yet torn down.
    private var tiles: [ObjectIdentifier: ThumbnailTile] = [:]
    /// Bound tiles still waiting for their thumbnail to be asked for (after layout).
    private var unrequested = Set<ObjectIdentifier>()
    /// The thumbnail each tile asked the loader for and still holds.
    private var tileRequests: [ObjectIdentifier: ThumbnailKey] = [:]
    /// Thumbnails asked for ahead of the scroll: the next screenful in the scrolling direction.
    private var prefetched = Set<ThumbnailKey>()
    private var lastScrollPosition = 0.0
    private var scrollingDown = true
    private var frameWorkScheduled = false
    private var watchingCompleteness = false

    /// Priorities on the decode pool, highest first: tiles in view, tiles GTK keeps bound
    /// out of view, then the prefetch. Within a band, nearer the middle of the view first.
    private static let visibleBand = 3_000_000
    private static let boundBand = 2_000_000
    private static let prefetchBand = 1_000_000

    /// A tile was clicked or Enter was pressed on it (outside edit mode, or Enter in it).
    var onActivate: (Int) -> Void = { _ in }
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
    private(set) var isEditing = false
    private var echoingSelection = false

    init(contents: FolderContents, loader: ThumbnailLoader) {
        self.contents = contents
        self.loader = loader
        ids = gtk_string_list_new(nil)
        selectionModel = gtk_multi_selection_new(ids.cast()).cast()
        let factory = gtk_signal_list_item_factory_new()!
        gridView = gtk_grid_view_new(selectionModel.cast(), factory).cast()
        // GTK 4.8 keeps tiles for about 30 rows of max-columns each and makes that many on
        // every large model change: max-columns follows the width (see fitColumns).
        gtk_grid_view_set_max_columns(gridView, 8)
        gtk_grid_view_set_min_columns(gridView, 1)
        gtk_grid_view_set_single_click_activate(gridView, 1)
        gtk_widget_add_css_class(gridView.widget, "photo-grid")

        root = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(root.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(root.cast(), gridView.widget)
        gtk_widget_set_vexpand(root, 1)
        gtk_widget_set_hexpand(root, 1)

        onSignal(factory, "setup", pointer: { [weak self] item in self?.setUp(item) })
        onSignal(factory, "bind", pointer: { [weak self] item in self?.bind(item) })
        onSignal(factory, "unbind", pointer: { [weak self] item in self?.unbind(item) })
        onSignal(factory, "teardown", pointer: { [weak self] item in self?.tearDown(item) })
        onSignal(gridView, "activate", integer: { [weak self] position in self?.onActivate(Int(UInt32(bitPattern: position))) })
        installSelectionClicks()
        installContextMenuAndDrag()
        onSignal(selectionModel, "selection-changed", integers: { [weak self] position, count in
            self?.rubberBandChanged(Int(UInt32(bitPattern: position)), Int(UInt32(bitPattern: count)))
        })
        if let adjustment = gtk_scrollable_get_vadjustment(gridView) {
            onSignal(adjustment, "value-changed") { [weak self] in
                guard let self else { return }
                let position = gtk_adjustment_get_value(adjustment)
                if position != self.lastScrollPosition { self.scrollingDown = position > self.lastScrollPosition }
                self.lastScrollPosition = position
                self.lastReportedComplete = false  // report the view again once it is complete
                self.scheduleFrameWork()
            }
        }
        if let adjustment = gtk_scrollable_get_hadjustment(gridView) {
            // "changed" comes during the grid view's size allocation: change its columns after
            // it, never inside it (GTK 4.8 asserts on a layout changed under its feet).
            onSignal(adjustment, "changed") { [weak self] in
                after(milliseconds: 0) { [weak self] in self?.fitColumns() }
            }
        }

        loader.observeReady { [weak self] key, thumbnail in self?.thumbnailReady(key, thumbnail) }
        contents.observeChanges { [weak self] splice in self?.apply(splice) }
    }

    /// Mirrors a change of the folder's order into the GTK model.
    private func apply(_ splice: PhotoList.Splice) {
        var strings = splice.inserted.map { strdup($0) }
        strings.append(nil)
        strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { pointer in
                gtk_string_list_splice(ids, UInt32(splice.position), UInt32(splice.removed), pointer)
            }
        }
        for string in strings { free(string) }
        scheduleFrameWork()
    }

    /// As many columns as fit the width: more would never show, fewer would waste it.
    private func fitColumns() {
        let width = Int(gtk_widget_get_width(gridView.widget))
        guard width > 0 else { return }
        let columns = UInt32(max(1, width / Self.cellEdge))
        if gtk_grid_view_get_max_columns(gridView) != columns { gtk_grid_view_set_max_columns(gridView, columns) }
    }

    /// Scrolls so that the photo at `index` is visible, and focuses its tile. A grid that
    /// was never shown (the app opened on a photo) has no size yet to scroll in: then it
    /// waits for its first layout.
    func reveal(_ index: Int) {
        guard index >= 0, index < contents.photos.count else { return }
        let id = contents.photos[index].id
        guard gtk_widget_get_mapped(gridView.widget) != 0, gtk_widget_get_height(gridView.widget) > 0 else {
            addTick { grid in
                guard gtk_widget_get_height(grid.gridView.widget) > 0 else { return true }
                if let index = grid.contents.photos.index(of: id) { grid.reveal(index) }
                return false
            }
            return
        }
        gtk_widget_activate_action_variant(gridView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(index)))
        focusTile(showing: id, attempts: 10)
    }

    /// Gives keyboard focus to the grid.
    func focus() { gtk_widget_grab_focus(gridView.widget) }

    private func focusTile(showing id: String, attempts: Int) {
        // The tile is bound during the next layout; try again shortly until it is there.
        if let tile = tiles.values.first(where: { $0.photo?.id == id }), let cell = gtk_widget_get_parent(tile.root),
           gtk_widget_get_mapped(tile.root) != 0 {
            gtk_widget_grab_focus(cell)
            return
        }
        guard attempts > 0 else { return }
        after(milliseconds: 16) { [weak self] in self?.focusTile(showing: id, attempts: attempts - 1) }
    }

    // MARK: Tiles

    private static let tileKey = "gphotobrowse-tile"

    private func setUp(_ item: UnsafeMutableRawPointer?) {
        guard let item else { return }
        let tile = ThumbnailTile(edge: Self.tileEdge)
        tiles[ObjectIdentifier(tile)] = tile
        gtk_list_item_set_child(item.cast(), tile.root)
        let retained = Unmanaged.passRetained(tile).toOpaque()
        g_object_set_data_full(item.object, Self.tileKey, retained) { data in
            if let data { Unmanaged<ThumbnailTile>.fromOpaque(data).release() }
        }
    }

    private func tile(for item: UnsafeMutableRawPointer?) -> ThumbnailTile? {
        guard let item, let data = g_object_get_data(item.object, Self.tileKey) else { return nil }
        return Unmanaged<ThumbnailTile>.fromOpaque(data).takeUnretainedValue()
    }

    private func bind(_ item: UnsafeMutableRawPointer?) {
        guard let item, let tile = tile(for: item),
              let object = gtk_list_item_get_item(item.cast()),
              let idPointer = gtk_string_object_get_string(object.cast()),
              let photo = contents.photos.photo(id: String(cString: idPointer)) else { return }
        let thumbnail = loader.cached(ThumbnailKey(photo))
        tile.show(photo, thumbnail: thumbnail)
        tile.showSelection(editing: isEditing, selected: isSelected(photo.id))
        if thumbnail == nil { unrequested.insert(ObjectIdentifier(tile)) }
        scheduleFrameWork()
    }

    private func unbind(_ item: UnsafeMutableRawPointer?) {
        guard let tile = tile(for: item) else { return }
        release(tile)
        tile.clear()
    }

    private func tearDown(_ item: UnsafeMutableRawPointer?) {
        guard let tile = tile(for: item) else { return }
        release(tile)
        tiles[ObjectIdentifier(tile)] = nil
    }

    private func release(_ tile: ThumbnailTile) {
        let id = ObjectIdentifier(tile)
        unrequested.remove(id)
        if let key = tileRequests.removeValue(forKey: id) { loader.release(key) }
    }

    private func thumbnailReady(_ key: ThumbnailKey, _ thumbnail: Thumbnail) {
        for tile in tiles.values where tile.key == key {
            tile.apply(thumbnail)
            tileRequests[ObjectIdentifier(tile)] = nil
        }
        prefetched.remove(key)
        if Trace.tilesEnabled, let index = contents.photos.index(of: key.id) {
            if case .failed = thumbnail { Trace.milestone("tile-failed", index) } else { Trace.milestone("tile-loaded", index) }
        }
        scheduleFrameWork()
    }

    // MARK: Edit mode

    /// Enters or leaves edit mode: check marks on every tile, clicks select instead of
    /// opening, and a drag on the background draws a rubber band.
    func setEditing(_ editing: Bool) {
        isEditing = editing
        // Single-click activation selects the hovered item in GTK 4.8: off while selecting.
        gtk_grid_view_set_single_click_activate(gridView, editing ? 0 : 1)
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

    /// Clicks on tiles in edit mode (or with Ctrl or Shift outside it) select; the gesture
    /// claims them in the capture phase so that the grid view does not also act on them.
    /// Clicks on the background go on to the grid view, which starts its rubber band.
    private func installSelectionClicks() {
        let clicks = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(clicks.cast(), GTK_PHASE_CAPTURE)
        gtk_gesture_single_set_button(clicks.cast(), 1)
        onPressed(clicks) { [weak self, clicks] _, x, y in
            guard let self else { return }
            let state = gtk_event_controller_get_current_event_state(clicks.cast()).rawValue
            let control = state & GDK_CONTROL_MASK.rawValue != 0, shift = state & GDK_SHIFT_MASK.rawValue != 0
            guard self.isEditing || control || shift, let id = self.photo(at: x, y) else { return }
            gtk_gesture_set_state(clicks.cast(), GTK_EVENT_SEQUENCE_CLAIMED)
            self.onSelectClick(id, shift)
        }
        gtk_widget_add_controller(gridView.widget, clicks.cast())
    }

    /// Right click, long press or the Menu key ask for the context menu; dragging a tile out
    /// carries its file (or the selection's) to other applications.
    private func installContextMenuAndDrag() {
        let rightClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(rightClick.cast(), 3)
        onPressed(rightClick) { [weak self] _, x, y in self?.onContextMenu(self?.photo(at: x, y), x, y) }
        gtk_widget_add_controller(gridView.widget, rightClick.cast())

        let longPress = gtk_gesture_long_press_new()!
        gtk_gesture_single_set_touch_only(longPress.cast(), 1)
        onSignal(longPress, "pressed", doubles: { [weak self] x, y in self?.onContextMenu(self?.photo(at: x, y), x, y) })
        gtk_widget_add_controller(gridView.widget, longPress.cast())

        let keys = gtk_event_controller_key_new()!
        onKeyPressed(keys) { [weak self] keyval, state in
            guard let self, Int32(keyval) == GDK_KEY_Menu || (Int32(keyval) == GDK_KEY_F10 && state.rawValue & GDK_SHIFT_MASK.rawValue != 0) else { return false }
            guard let tile = self.tiles.values.first(where: { gtk_widget_get_parent($0.root).map { gtk_widget_has_focus($0) != 0 } ?? false }) else { return false }
            var bounds = graphene_rect_t()
            _ = gtk_widget_compute_bounds(tile.root, self.gridView.widget, &bounds)
            self.onContextMenu(tile.photo?.id, Double(bounds.origin.x + bounds.size.width / 2), Double(bounds.origin.y + bounds.size.height / 2))
            return true
        }
        gtk_widget_add_controller(gridView.widget, keys)

        let drag = gtk_drag_source_new()!
        gtk_drag_source_set_actions(drag.cast(), GDK_ACTION_COPY)
        onDragPrepare(drag) { [weak self] x, y in
            guard let self, let id = self.photo(at: x, y) else { return nil }
            return PhotoActions.contentProvider(for: self.urisToDrag(id))
        }
        gtk_widget_add_controller(gridView.widget, drag.cast())
    }

    /// The photo whose tile is at (x, y) in the grid view, if any.
    private func photo(at x: Double, _ y: Double) -> String? {
        var widget = gtk_widget_pick(gridView.widget, x, y, GTK_PICK_DEFAULT)
        while let current = widget, current != gridView.widget {
            if let tile = tiles.values.first(where: { $0.root == current }) { return tile.photo?.id }
            widget = gtk_widget_get_parent(current)
        }
        return nil
    }

    private func rubberBandChanged(_ position: Int, _ count: Int) {
        guard isEditing, !echoingSelection else { return }
        var selected = Set<String>(), unselected = Set<String>()
        for index in position..<min(position + count, contents.photos.count) {
            let id = contents.photos[index].id
            if gtk_selection_model_is_selected(selectionModel.cast(), UInt32(index)) != 0 { selected.insert(id) } else { unselected.insert(id) }
        }
        onRubberBand(selected, unselected)
    }

    // MARK: Work after layout

    /// Runs `frameWork` at the start of the next frame, when bound tiles have their places.
    private func scheduleFrameWork() {
        guard !frameWorkScheduled else { return }
        frameWorkScheduled = true
        addTick { grid in
            grid.frameWorkScheduled = false
            grid.frameWork()
            return false
        }
    }

    private func frameWork() {
        requestThumbnails()
        updatePrefetch()
        if Trace.isEnabled { watchCompleteness() }
    }

    /// Where a tile is, relative to the visible part of the grid: nil when not laid out.
    private func placement(of tile: ThumbnailTile) -> (visible: Bool, distance: Int)? {
        guard gtk_widget_get_mapped(tile.root) != 0 else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(tile.root, gridView.widget, &bounds) != 0 else { return nil }
        let height = Float(gtk_widget_get_height(gridView.widget)), width = Float(gtk_widget_get_width(gridView.widget))
        let visible = bounds.origin.y < height && bounds.origin.y + bounds.size.height > 0
            && bounds.origin.x < width && bounds.origin.x + bounds.size.width > 0
        let dy = bounds.origin.y + bounds.size.height / 2 - height / 2
        let dx = bounds.origin.x + bounds.size.width / 2 - width / 2
        return (visible, Int(abs(dy) * 4 + abs(dx)))
    }

    /// Asks for the thumbnails of tiles bound since the last frame: those in view first, then
    /// those within half a screen of it. GTK keeps about 30 rows bound; the ones further out
    /// wait, unrequested, until a scroll brings them near.
    private func requestThumbnails() {
        let height = Int(gtk_widget_get_height(gridView.widget))
        for id in unrequested {
            guard let tile = tiles[id], let key = tile.key, !tile.isComplete else {
                unrequested.remove(id)
                continue
            }
            guard let place = placement(of: tile) else { continue }
            if !place.visible && place.distance > height * 4 { continue }  // distance counts y four times
            let band = place.visible ? Self.visibleBand : Self.boundBand
            loader.request(key, priority: band - min(place.distance, 999_999))
            tileRequests[id] = key
            unrequested.remove(id)
        }
    }

    /// Asks for the screenful after the tiles in view, in the scrolling direction, and lets
    /// go of what was asked for earlier and is now out of that range.
    private func updatePrefetch() {
        let inView = tiles.values.compactMap { tile -> Int? in
            guard let photo = tile.photo, placement(of: tile)?.visible == true else { return nil }
            return contents.photos.index(of: photo.id)
        }
        var wanted: [ThumbnailKey: Int] = [:]
        if let first = inView.min(), let last = inView.max() {
            let screenful = last - first + 1
            let range = scrollingDown
                ? (last + 1)..<min(last + 1 + screenful, contents.photos.count)
                : max(first - screenful, 0)..<first
            for index in range where !range.isEmpty {
                let key = ThumbnailKey(contents.photos[index])
                if loader.cached(key) == nil { wanted[key] = scrollingDown ? index - last : first - index }
            }
        }
        for key in prefetched where wanted[key] == nil { loader.release(key) }
        for (key, distance) in wanted where !prefetched.contains(key) {
            loader.request(key, priority: Self.prefetchBand - distance)
        }
        prefetched = Set(wanted.keys)
    }

    /// Calls `work` on each frame until it returns false.
    private func addTick(_ work: @escaping @MainActor (ThumbnailGrid) -> Bool) {
        typealias Work = @MainActor (ThumbnailGrid) -> Bool
        final class Tick {
            weak var grid: ThumbnailGrid?
            let work: Work
            init(_ grid: ThumbnailGrid, _ work: @escaping Work) { self.grid = grid; self.work = work }
        }
        gtk_widget_add_tick_callback(gridView.widget, { _, _, data in
            let tick = Unmanaged<Tick>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard let grid = tick.grid else { return 0 }
                return tick.work(grid) ? 1 : 0
            }
        }, Unmanaged.passRetained(Tick(self, work)).toOpaque(), { data in
            if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
        })
    }

    // MARK: The visible-thumbnails milestone

    /// Checks on each frame, until it holds, whether every tile in view shows its final
    /// state; each time the view becomes complete, prints the `visible-thumbnails` trace.
    private func watchCompleteness() {
        guard !watchingCompleteness else { return }
        watchingCompleteness = true
        addTick { grid in
            guard grid.isViewComplete() else { return true }
            grid.watchingCompleteness = false
            return false
        }
    }

    private var lastReportedComplete = false

    private func isViewComplete() -> Bool {
        guard contents.isListed || contents.photos.count > 0 else { return false }
        var visible = 0
        for tile in tiles.values where tile.photo != nil {
            guard let place = placement(of: tile), place.visible else { continue }
            if !tile.isComplete {
                lastReportedComplete = false
                return false
            }
            visible += 1
        }
        if visible == 0 && contents.photos.count > 0 { return false }
        if !lastReportedComplete { Trace.milestone("visible-thumbnails", visible) }
        lastReportedComplete = true
        return true
    }
}
