import CGtk
import PhotoCore

/// Where the grid is scrolled and which tile has the focus: a photo revealed and focused,
/// the scroll offset kept and restored, a tile focused once it is bound. The last request
/// wins (`focusRequest`): one still waiting is dropped when another comes, or when the
/// person moves the focus (`focusWasMoved`).
extension ThumbnailGrid {
    /// Scrolls so that the photo at `index` is visible, and focuses its tile. A grid that
    /// was never shown (the app opened on a photo) has no size yet to scroll in: then it
    /// waits for its first layout.
    ///
    /// The last request wins: one still waiting (for the first layout, or for its tile to be
    /// bound) is dropped when another comes, so a photo that was first when the request was
    /// made never takes the focus back from the one first now (a re-sort in between).
    func reveal(_ index: Int) {
        guard index >= 0, index < contents.photos.count else { return }
        let id = contents.photos[index].id
        focusRequest += 1
        // Asked for a place: the top the grid was at before a splice is not kept.
        recovery.keepAtTop = false
        guard gtk_widget_get_mapped(gridView.widget) != 0, gtk_widget_get_height(gridView.widget) > 0 else {
            let request = focusRequest
            addTickCallback(gridView.widget, owner: self) { grid in
                guard grid.focusRequest == request else { return false }
                guard gtk_widget_get_height(grid.gridView.widget) > 0 else { return true }
                if let index = grid.contents.photos.index(of: id) { grid.reveal(index) }
                return false
            }
            return
        }
        gtk_widget_activate_action_variant(gridView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(index)))
        focusBoundTile(showing: id, request: focusRequest, attempts: 10, from: focusAddress)
    }

    /// Where the window's focus is, as an address to compare (nil: nowhere).
    fileprivate var focusAddress: UInt? {
        KeyboardFocus.current(near: gridView.widget).map { UInt(bitPattern: $0) }
    }

    /// How far the grid is scrolled down, in pixels.
    var scrollOffset: Double {
        gtk_scrollable_get_vadjustment(gridView).map { gtk_adjustment_get_value($0) } ?? 0
    }

    /// Scrolls back to `offset` (an album shown again after its page was let go) once the
    /// grid is laid out that far.
    func restoreScroll(to offset: Double) {
        guard offset > 0 else { return }
        var frames = 0
        addTickCallback(gridView.widget, owner: self) { grid in
            frames += 1
            guard let adjustment = gtk_scrollable_get_vadjustment(grid.gridView.widget.cast()) else { return false }
            let reachable = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            guard reachable >= offset || frames > 120 else { return true }
            gtk_adjustment_set_value(adjustment, min(offset, reachable))
            grid.recovery.keepAtTop = false
            return false
        }
    }

    /// Gives keyboard focus to the grid.
    func focus() { gtk_widget_grab_focus(gridView.widget) }

    /// Focuses the tile showing `id`, once it is bound (unless another photo is asked to be
    /// focused or revealed meanwhile).
    func focusTile(showing id: String, attempts: Int = 10) {
        focusRequest += 1
        focusBoundTile(showing: id, request: focusRequest, attempts: attempts, from: focusAddress)
    }

    /// The focus goes to the tile once it is bound, unless the person has put it elsewhere
    /// meanwhile (`from`: where it was when asked): Ctrl+F right after an album shows keeps
    /// the keys typed next in the search field.
    fileprivate func focusBoundTile(showing id: String, request: Int, attempts: Int, from: UInt?) {
        guard focusRequest == request, focusIsInGrid || focusAddress == from else { return }
        // The tile is bound during the next layout; try again shortly until it is there.
        if let tile = tiles.values.first(where: { $0.photo?.id == id }), let cell = gtk_widget_get_parent(tile.root),
           gtk_widget_get_mapped(tile.root) != 0 {
            gtk_widget_grab_focus(cell)
            return
        }
        guard attempts > 0 else { return }
        after(milliseconds: 16) { [weak self] in self?.focusBoundTile(showing: id, request: request, attempts: attempts - 1, from: from) }
    }
}
