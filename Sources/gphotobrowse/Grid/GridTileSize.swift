import CGtk
import PhotoCore

/// Changing the grid's tile size (Ctrl+plus, Ctrl+minus, Ctrl+scroll, Preferences).
///
/// Every tile takes the new edge and the columns follow the width. Thumbnails come from the
/// loader of the freedesktop cache size that fits the tiles: while the size stays within one
/// cache size that is the same loader, and nothing is decoded again; across one, the tiles
/// keep showing what they showed, scaled, until the new size's thumbnails come (the
/// folder keeps the loader it left, so going back decodes nothing either). The photo the
/// person was at stays in view: the one under the pointer for Ctrl+scroll, else the
/// focused one when it is in view, else the one nearest the middle of the view.
extension ThumbnailGrid {
    /// Shows tiles of `edge` pixels a side, with thumbnails from `newLoader`.
    func setTileSize(_ edge: Int, loader newLoader: ThumbnailLoader) {
        guard edge != tileEdge || newLoader !== loader else { return }
        let anchor = tileSizing.pointedPhoto ?? photoToKeepInView()
        tileSizing.pointedPhoto = nil
        tileEdge = edge
        for tile in tiles.values { tile.setEdge(edge) }
        if newLoader !== loader { showThumbnails(of: newLoader) }
        fitColumns()
        keepInView(anchor, edge: edge)
    }

    private func showThumbnails(of newLoader: ThumbnailLoader) {
        loaderObservations = []
        for tile in tiles.values {
            guard let photo = tile.photo, !isMissing(photo.id) else { continue }
            tile.awaitThumbnail()
            if let thumbnail = newLoader.cached(photo.version) { tile.apply(thumbnail) }
        }
        // Lets go of what the tiles asked the old loader for, and asks the new one.
        scheduler.use(newLoader)
        loader = newLoader
        loaderObservations = observe(newLoader)
    }

    /// The photo a size change keeps in view, if any is in view.
    private func photoToKeepInView() -> String? {
        let shown = tiles.values.filter { $0.photo != nil && isInView($0) }
        let focused = shown.first { tile in gtk_widget_get_parent(tile.root).map { gtk_widget_has_focus($0) != 0 } ?? false }
        if let focused { return focused.photo?.id }
        let middle = (x: Double(gtk_widget_get_width(gridView.widget)) / 2, y: Double(gtk_widget_get_height(gridView.widget)) / 2)
        func distance(_ tile: ThumbnailTile) -> Double {
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(tile.root, gridView.widget, &bounds) != 0 else { return .infinity }
            let x = Double(bounds.origin.x + bounds.size.width / 2) - middle.x
            let y = Double(bounds.origin.y + bounds.size.height / 2) - middle.y
            return x * x + y * y
        }
        return shown.min { distance($0) < distance($1) }?.photo?.id
    }

    /// Once GTK has laid the tiles out at `edge`, scrolls `anchor` back into view if the new
    /// layout left it out, and traces `tile-size EDGE`.
    private func keepInView(_ anchor: String?, edge: Int) {
        tileSizing.generation += 1
        let generation = tileSizing.generation
        var frames = 0
        addTickCallback(gridView.widget, owner: self) { grid in
            guard grid.tileSizing.generation == generation else { return false }
            frames += 1
            let laidOut = grid.tiles.values.contains { $0.photo != nil && gtk_widget_get_height($0.root) == Int32(edge) }
            if !laidOut && frames < 60 { return true }
            if let anchor, let index = grid.contents.photos.index(of: anchor),
               !grid.tiles.values.contains(where: { $0.photo?.id == anchor && grid.isInView($0) }) {
                gtk_widget_activate_action_variant(grid.gridView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(index)))
            }
            Trace.milestone("tile-size", edge)
            return false
        }
    }

    /// Ctrl+scroll over the grid steps the tile size (up: larger), a step a wheel notch or a
    /// notch's worth of smooth scrolling, instead of scrolling.
    func installTileSizeScroll() {
        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL)!
        gtk_event_controller_set_propagation_phase(scroll, GTK_PHASE_CAPTURE)
        onScroll(scroll) { [weak self, scroll] _, dy in
            let state = gtk_event_controller_get_current_event_state(scroll.cast())
            guard let self, state.rawValue & GDK_CONTROL_MASK.rawValue != 0 else { return false }
            self.scrolledWithControl(dy)
            return true
        }
        gtk_widget_add_controller(root, scroll)
        let motion = gtk_event_controller_motion_new()!
        onSignal(motion, "motion", doubles: { [weak self] x, y in self?.tileSizing.pointer = (x, y) })
        onSignal(motion, "leave") { [weak self] in self?.tileSizing.pointer = nil }
        gtk_widget_add_controller(gridView.widget, motion)
    }

    private func scrolledWithControl(_ dy: Double) {
        tileSizing.scrolled += dy
        guard abs(tileSizing.scrolled) >= 1 else { return }
        let steps = tileSizing.scrolled < 0 ? 1 : -1
        tileSizing.scrolled = 0
        tileSizing.pointedPhoto = tileSizing.pointer.flatMap { photo(at: $0.x, $0.y) }
        onTileSizeStep(steps)
        // Taken by setTileSize; a step that changed nothing (the largest size) leaves none.
        tileSizing.pointedPhoto = nil
    }
}

/// What changing the tile size keeps between events.
struct GridTileSizing {
    /// Where the pointer is over the grid view, if it is.
    var pointer: (x: Double, y: Double)?
    /// Ctrl+scrolling not yet a whole step.
    var scrolled = 0.0
    /// The photo under the pointer when Ctrl+scroll asked for a step, for `setTileSize`.
    var pointedPhoto: String?
    /// Counts size changes: only the latest one's layout is waited for.
    var generation = 0
}
