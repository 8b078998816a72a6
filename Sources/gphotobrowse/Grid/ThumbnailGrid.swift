import CGtk
import PhotoCore

/// The folder as a grid of square thumbnails, on a virtualized GtkGridView.
///
/// The GTK model is a GtkStringList of photo ids mirroring `FolderContents.photos`; it is
/// changed only by the splices the folder reports, so tiles that did not move are not
/// rebound. GtkGridView recycles a screenful of tiles: `bind` hands a tile a photo and asks
/// the loader for its thumbnail; `unbind` releases that request.
@MainActor
final class ThumbnailGrid {
    static let tileEdge = 160

    let root: Widget
    private let gridView: OpaquePointer
    private let ids: OpaquePointer  // GtkStringList
    private let contents: FolderContents
    private let loader: ThumbnailLoader
    private var tiles: [ThumbnailTile] = []
    /// The thumbnail each tile asked the loader for and still holds.
    private var tileRequests: [ObjectIdentifier: ThumbnailKey] = [:]
    /// Thumbnails asked for ahead of the scroll: the next screenful in the scrolling direction.
    private var prefetched = Set<ThumbnailKey>()
    private var prefetchScheduled = false
    private var lastScrollPosition = 0.0
    private var scrollingDown = true
    private var completenessTick: UInt32 = 0

    /// Priorities on the decode pool: tiles in view first, then the prefetch.
    private static let visiblePriority = 10
    private static let prefetchPriority = 0

    /// A tile was clicked or Enter was pressed on it.
    var onActivate: (Int) -> Void = { _ in }

    init(contents: FolderContents, loader: ThumbnailLoader) {
        self.contents = contents
        self.loader = loader
        ids = gtk_string_list_new(nil)
        let selection = gtk_no_selection_new(ids.cast())
        let factory = gtk_signal_list_item_factory_new()!
        gridView = gtk_grid_view_new(selection?.cast(), factory).cast()
        gtk_grid_view_set_max_columns(gridView, 64)
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
        onSignal(gridView, "activate", integer: { [weak self] position in self?.onActivate(Int(UInt32(bitPattern: position))) })
        if let adjustment = gtk_scrollable_get_vadjustment(gridView) {
            onSignal(adjustment, "value-changed") { [weak self] in
                guard let self else { return }
                let position = gtk_adjustment_get_value(adjustment)
                if position != self.lastScrollPosition { self.scrollingDown = position > self.lastScrollPosition }
                self.lastScrollPosition = position
                self.watchCompleteness()
                self.schedulePrefetch()
            }
        }

        loader.onReady = { [weak self] id, thumbnail in self?.thumbnailReady(id, thumbnail) }
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
        watchCompleteness()
    }

    /// Scrolls so that the photo at `index` is visible, and focuses its tile.
    func reveal(_ index: Int) {
        guard index >= 0, index < contents.photos.count else { return }
        gtk_widget_activate_action_variant(gridView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(index)))
        let id = contents.photos[index].id
        focusTile(showing: id, attempts: 10)
    }

    /// Gives keyboard focus to the grid.
    func focus() { gtk_widget_grab_focus(gridView.widget) }

    private func focusTile(showing id: String, attempts: Int) {
        // The tile is bound during the next layout; try again shortly until it is there.
        if let tile = tiles.first(where: { $0.photo?.id == id }), let cell = gtk_widget_get_parent(tile.root),
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
        tiles.append(tile)
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
        let key = ThumbnailKey(photo)
        let thumbnail = loader.cached(key)
        tile.show(photo, thumbnail: thumbnail)
        if thumbnail == nil {
            loader.request(key, priority: Self.visiblePriority)
            tileRequests[ObjectIdentifier(tile)] = key
        }
        watchCompleteness()
        schedulePrefetch()
    }

    private func unbind(_ item: UnsafeMutableRawPointer?) {
        guard let tile = tile(for: item) else { return }
        if let key = tileRequests.removeValue(forKey: ObjectIdentifier(tile)) { loader.release(key) }
        tile.clear()
    }

    private func thumbnailReady(_ key: ThumbnailKey, _ thumbnail: Thumbnail) {
        for tile in tiles where tile.key == key {
            tile.apply(thumbnail)
            tileRequests[ObjectIdentifier(tile)] = nil
        }
        prefetched.remove(key)
        if Trace.tilesEnabled, let index = contents.photos.index(of: key.id) {
            if case .failed = thumbnail { Trace.milestone("tile-failed", index) } else { Trace.milestone("tile-loaded", index) }
        }
        watchCompleteness()
    }

    // MARK: Prefetch

    private func schedulePrefetch() {
        guard !prefetchScheduled else { return }
        prefetchScheduled = true
        after(milliseconds: 50) { [weak self] in
            self?.prefetchScheduled = false
            self?.updatePrefetch()
        }
    }

    /// Asks for the screenful after the bound tiles in the scrolling direction, and lets go
    /// of what was asked for earlier and is now out of that range.
    private func updatePrefetch() {
        let bound = tiles.compactMap { $0.photo.flatMap { contents.photos.index(of: $0.id) } }
        var wanted = Set<ThumbnailKey>()
        if let first = bound.min(), let last = bound.max() {
            let screenful = last - first + 1
            let range = scrollingDown
                ? (last + 1)..<min(last + 1 + screenful, contents.photos.count)
                : max(first - screenful, 0)..<first
            for index in range where !range.isEmpty {
                let key = ThumbnailKey(contents.photos[index])
                if loader.cached(key) == nil { wanted.insert(key) }
            }
        }
        for key in prefetched.subtracting(wanted) { loader.release(key) }
        for key in wanted.subtracting(prefetched) { loader.request(key, priority: Self.prefetchPriority) }
        prefetched = wanted
    }

    // MARK: The visible-thumbnails milestone

    /// Checks, on each frame until it holds, whether every tile in view shows its final
    /// state; each time the view becomes complete, prints the `visible-thumbnails` trace.
    private func watchCompleteness() {
        guard Trace.isEnabled, completenessTick == 0 else { return }
        completenessTick = gtk_widget_add_tick_callback(gridView.widget, { _, _, data in
            let grid = Unmanaged<ThumbnailGrid>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { grid.checkCompleteness() ? 0 : 1 }
        }, Unmanaged.passRetained(self).toOpaque(), { data in
            if let data { Unmanaged<ThumbnailGrid>.fromOpaque(data).release() }
        })
    }

    /// Returns true (and stops watching) once the view is complete.
    private func checkCompleteness() -> Bool {
        guard contents.isListed || contents.photos.count > 0 else { return false }
        let width = Float(gtk_widget_get_width(gridView.widget)), height = Float(gtk_widget_get_height(gridView.widget))
        var visible = 0
        for tile in tiles where tile.photo != nil && gtk_widget_get_mapped(tile.root) != 0 {
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(tile.root, gridView.widget, &bounds) != 0 else { continue }
            let onScreen = bounds.origin.x < width && bounds.origin.x + bounds.size.width > 0
                && bounds.origin.y < height && bounds.origin.y + bounds.size.height > 0
            guard onScreen else { continue }
            if !tile.isComplete { return false }
            visible += 1
        }
        if visible == 0 && contents.photos.count > 0 { return false }
        completenessTick = 0
        Trace.milestone("visible-thumbnails", visible)
        return true
    }
}
