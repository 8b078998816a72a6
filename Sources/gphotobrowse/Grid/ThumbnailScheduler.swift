import CGtk
import PhotoCore

/// When and in which order the grid asks for thumbnails: after each layout, the tiles in
/// view first (nearest the middle first), then tiles GTK keeps bound nearby, then the next
/// screenful in the scrolling direction (the core's `ThumbnailPriority` and
/// `PrefetchWindow`); while the album is being listed, the tiles in view alone, the others
/// once it is listed. Unbinding a tile lets its request go.
///
/// It also prints the `visible-thumbnails` trace each time every tile in view shows its
/// final state.
@MainActor
final class ThumbnailScheduler {
    private let live = LiveObjects.Token("ThumbnailScheduler")
    private weak var grid: ThumbnailGrid?
    private var loader: ThumbnailLoader
    /// Bound tiles still waiting for their thumbnail to be asked for (after layout).
    private var unrequested = Set<ObjectIdentifier>()
    /// The thumbnail each tile asked the loader for and still holds.
    private var tileRequests: [ObjectIdentifier: PhotoVersion] = [:]
    private var prefetch = PrefetchWindow<PhotoVersion>()
    /// Requests let go of by tiles unbound during a splice, for the tiles it rebinds.
    private var handover = RequestHandover<PhotoVersion>()
    private var lastScrollPosition = 0.0
    private var scrollingDown = true
    private var frameWorkScheduled = false
    private var watchingCompleteness = false
    private var lastReportedComplete = false
    /// Called once when every tile in view next shows its final state.
    private var viewCompleteAction: (() -> Void)?
    /// Frames in a row the work was done again for tiles without a place yet.
    private var layoutRetries = 0

    init(grid: ThumbnailGrid, loader: ThumbnailLoader) {
        self.grid = grid
        self.loader = loader
    }

    // MARK: What the grid tells it

    /// The grid's thumbnails now come from `newLoader` (the tile size crossed a cache size):
    /// everything asked of the old one is let go, and every tile bound that is not complete
    /// asks the new one after the next layout.
    func use(_ newLoader: ThumbnailLoader) {
        for key in tileRequests.values { loader.release(key) }
        tileRequests.removeAll()
        for key in prefetch.releaseAll() { loader.release(key) }
        loader = newLoader
        guard let grid else { return }
        for (id, tile) in grid.tiles where tile.key != nil && !tile.isComplete { unrequested.insert(id) }
        schedule()
    }

    /// A tile was bound to a photo; `needsThumbnail` when none is in memory.
    func bound(_ tile: ThumbnailTile, needsThumbnail: Bool) {
        if needsThumbnail { unrequested.insert(ObjectIdentifier(tile)) }
        schedule()
    }

    /// A tile was unbound or torn down: its request goes (after the splice under way, unless
    /// a tile it rebinds takes it over).
    func released(_ tile: ThumbnailTile) {
        let id = ObjectIdentifier(tile)
        unrequested.remove(id)
        guard let key = tileRequests.removeValue(forKey: id) else { return }
        if !handover.letGo(key) { loader.release(key) }
    }

    /// The grid mirrors a splice between these two calls: a re-sort rebinds the tiles of the
    /// photos it moves, and their decodes go on rather than starting again.
    func spliceBegins() { handover.begin() }

    func spliceEnded(_ grid: ThumbnailGrid) {
        let waiting = unrequested.compactMap { id in grid.tiles[id]?.key.map { (holder: id, key: $0) } }
        let (taken, release) = handover.end(waiting: waiting)
        for (id, key) in taken {
            unrequested.remove(id)
            tileRequests[id] = key
        }
        for key in release { loader.release(key) }
    }

    /// The thumbnail a tile asked for arrived (or failed): it holds no request any more.
    func answered(_ tile: ThumbnailTile) {
        tileRequests[ObjectIdentifier(tile)] = nil
    }

    /// A thumbnail arrived: the prefetch no longer holds it; the view may be complete.
    func arrived(_ key: PhotoVersion) {
        prefetch.arrived(key)
        schedule()
    }

    func scrolled(to position: Double) {
        if position != lastScrollPosition { scrollingDown = position > lastScrollPosition }
        lastScrollPosition = position
        lastReportedComplete = false  // report the view again once it is complete
        schedule()
    }

    // MARK: Work after layout

    /// Runs the frame's work at the start of the next frame, when bound tiles have their places.
    func schedule() {
        guard !frameWorkScheduled, let grid else { return }
        frameWorkScheduled = true
        addTickCallback(grid.gridView.widget, owner: self) { scheduler in
            scheduler.frameWorkScheduled = false
            scheduler.frameWork()
            return false
        }
    }

    private func frameWork() {
        guard let grid else { return }
        // The grid may go back to the top at this frame's layout (GridViewRecovery): the
        // tiles placed now, where GTK kept its anchor, leave then and ask for nothing; those
        // of the top ask at the next frame (a few frames at most).
        if grid.recovery.topPending, layoutRetries < 10 {
            layoutRetries += 1
            return schedule()
        }
        let waitingForLayout = requestThumbnails(grid)
        updatePrefetch(grid)
        if Trace.isEnabled { watchCompleteness(grid) }
        // Tiles bound outside a layout (a page made with its photos, a splice) have no place
        // before the next one: ask again then, so that the tiles in view go first rather than
        // every tile at once in no order. A few frames at most.
        if waitingForLayout, layoutRetries < 10 {
            layoutRetries += 1
            schedule()
        } else {
            layoutRetries = 0
        }
    }

    /// Where a tile is, relative to the visible part of the grid: nil when not laid out.
    private func placement(of tile: ThumbnailTile, in grid: ThumbnailGrid) -> TilePlacement? {
        guard gtk_widget_get_mapped(tile.root) != 0, isLaidOut(tile) else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(tile.root, grid.gridView.widget, &bounds) != 0 else { return nil }
        return TilePlacement(x: Double(bounds.origin.x), y: Double(bounds.origin.y),
                             width: Double(bounds.size.width), height: Double(bounds.size.height),
                             viewWidth: Double(gtk_widget_get_width(grid.gridView.widget)),
                             viewHeight: Double(gtk_widget_get_height(grid.gridView.widget)))
    }

    /// Whether GTK has given the tile its size and place (a tile bound since the last
    /// layout has none yet).
    private func isLaidOut(_ tile: ThumbnailTile) -> Bool {
        gtk_widget_get_width(tile.root) > 0 && gtk_widget_get_height(tile.root) > 0
    }

    /// Asks for the thumbnails of tiles bound since the last frame, as the core's
    /// `ThumbnailPriority` orders them; tiles far out of view wait, unrequested. Returns
    /// whether some shown tile had no place yet.
    private func requestThumbnails(_ grid: ThumbnailGrid) -> Bool {
        let height = Int(gtk_widget_get_height(grid.gridView.widget))
        var waitingForLayout = false
        for id in unrequested {
            guard let tile = grid.tiles[id], let key = tile.key, !tile.isComplete else {
                unrequested.remove(id)
                continue
            }
            if gtk_widget_get_mapped(tile.root) != 0, !isLaidOut(tile) {
                waitingForLayout = true
                continue
            }
            guard let place = placement(of: tile, in: grid),
                  let priority = ThumbnailPriority.forTile(place, viewHeight: height, albumListed: grid.contents.isListed) else { continue }
            loader.request(key, priority: priority)
            if Trace.tilesEnabled, let index = grid.contents.photos.index(of: key.id) { Trace.milestone("tile-requested", index) }
            tileRequests[id] = key
            unrequested.remove(id)
        }
        return waitingForLayout
    }

    /// Asks for the screenful after the tiles in view, in the scrolling direction, and lets
    /// go of what was asked for earlier and is now out of that range.
    private func updatePrefetch(_ grid: ThumbnailGrid) {
        let photos = grid.contents.photos
        let inView = grid.tiles.values.compactMap { tile -> Int? in
            guard let photo = tile.photo, placement(of: tile, in: grid)?.visible == true else { return nil }
            return photos.index(of: photo.id)
        }
        var wanted: [PhotoVersion: Int] = [:]
        if let first = inView.min(), let last = inView.max() {
            for index in PrefetchWindow<PhotoVersion>.range(visible: first...last, count: photos.count, scrollingDown: scrollingDown,
                                                            albumListed: grid.contents.isListed) {
                let key = photos[index].version
                guard !loader.isCached(key) else { continue }
                let distance = PrefetchWindow<PhotoVersion>.distance(of: index, from: first...last, scrollingDown: scrollingDown)
                wanted[key] = ThumbnailPriority.forPrefetch(distance: distance)
            }
        }
        let change = prefetch.update(wanted: wanted)
        for key in change.release { loader.release(key) }
        for (key, priority) in change.request { loader.request(key, priority: priority) }
    }

    // MARK: The visible-thumbnails milestone

    /// Checks on each frame, until it holds, whether every tile in view shows its final
    /// state; each time the view becomes complete, prints the `visible-thumbnails` trace.
    /// Calls `action` once, as soon as every tile in view shows its final state (at the
    /// next frame if they already do): an album shown again after switching.
    func whenViewComplete(_ action: @escaping () -> Void) {
        viewCompleteAction = action
        if let grid { watchCompleteness(grid) }
    }

    private func watchCompleteness(_ grid: ThumbnailGrid) {
        guard !watchingCompleteness else { return }
        watchingCompleteness = true
        addTickCallback(grid.gridView.widget, owner: self) { scheduler in
            guard let grid = scheduler.grid else { return false }
            // A hidden grid (another album shown) has nothing in view: stop, and watch again
            // when it is shown (its map schedules the frame's work, which restarts this).
            guard gtk_widget_get_mapped(grid.gridView.widget) != 0 else {
                scheduler.watchingCompleteness = false
                return false
            }
            guard scheduler.isViewComplete(grid) else { return true }
            scheduler.watchingCompleteness = false
            return false
        }
    }

    private func isViewComplete(_ grid: ThumbnailGrid) -> Bool {
        guard grid.contents.isListed || grid.contents.photos.count > 0 else { return false }
        var visible = 0
        for tile in grid.tiles.values where tile.photo != nil {
            guard let place = placement(of: tile, in: grid), place.visible else { continue }
            // A photo's embedded preview is what its tile shows until the thumbnail comes.
            if !tile.isComplete && !tile.showsPreview {
                lastReportedComplete = false
                return false
            }
            visible += 1
        }
        if visible == 0 && grid.contents.photos.count > 0 { return false }
        // While the listing goes on, a screen is complete once it is full: rows beyond it.
        if !grid.contents.isListed {
            guard let rows = gtk_scrollable_get_vadjustment(grid.gridView), gtk_adjustment_get_upper(rows) > gtk_adjustment_get_page_size(rows) else {
                return false
            }
        }
        if !lastReportedComplete { Trace.milestone("visible-thumbnails", visible) }
        lastReportedComplete = true
        if let action = viewCompleteAction {
            viewCompleteAction = nil
            action()
        }
        return true
    }
}
