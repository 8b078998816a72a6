import CGtk
import PhotoCore

/// Two traps of GTK 4.8's GtkGridView, worked around.
///
/// A lost view: GtkGridView measures its rows only when it lays out, and GTK handles input
/// at the start of a frame, before its layout. A key that moves the focus (End above all)
/// handled between a splice and the next layout, as happens while a large folder streams in,
/// asks `gtk_grid_view_get_allocation_along` where the photo is in rows not measured yet and
/// gets a negative height; `gtk_list_base_scroll_to_item` turns that into an anchor
/// alignment of hundreds of screen heights, which every later layout keeps: tiles are bound
/// and laid out around the focused photo while the view is scrolled far above them, and
/// the window stays blank until the next key. So after each layout, a grid with photos but
/// no tile in view is scrolled back to its focused photo, which GTK lays out in the same
/// frame.
///
/// Lost keys: when a splice removes the focused tile, GTK moves the focus off it only after
/// the window's next frame is painted; key presses until then go to the removed tile and
/// are lost (Ctrl+Q too). The grid does at once what GTK does then.
///
/// A top left behind: GTK keeps the row it scrolls by (its anchor) in place across a splice,
/// so photos that arrive before the first one shown (the rest of a folder's listing, sorted
/// in among the first screen's) push the view down from the top. A grid at the top when a
/// splice comes stays at the top, as a file manager's view does, unless it is asked for
/// another place before its next layout (a photo revealed, a scroll restored).
extension ThumbnailGrid {
    /// Follows the frame clock's layouts while the grid is realized.
    func installViewRecovery() {
        onSignal(gridView, "realize") { [weak self] in self?.followLayouts(true) }
        onSignal(gridView, "unrealize") { [weak self] in self?.followLayouts(false) }
    }

    private func followLayouts(_ realized: Bool) {
        if let (clock, id) = recovery.layoutHandler { g_signal_handler_disconnect(clock.raw, id) }
        recovery.layoutHandler = nil
        guard realized, let clock = gtk_widget_get_frame_clock(gridView.widget) else { return }
        // Connected after the window's own handler: this runs once the grid has been laid out.
        recovery.layoutHandler = (clock, onSignal(clock, "layout") { [weak self] in self?.recoverLostView() })
    }

    /// After a layout, a grid with photos but no tile in view has lost its place: scrolls it
    /// back to the focused photo (or the first one bound), once per photo.
    private func recoverLostView() {
        recovery.movingToTop = false
        guard gtk_widget_get_mapped(gridView.widget) != 0, gtk_widget_get_height(gridView.widget) > 0,
              contents.photos.count > 0 else { return }
        if recovery.keepAtTop {
            recovery.keepAtTop = false
            if let adjustment = gtk_scrollable_get_vadjustment(gridView), gtk_adjustment_get_value(adjustment) > 0 {
                gtk_adjustment_set_value(adjustment, 0)
                // The tiles just laid out where GTK kept its anchor leave at the next layout.
                recovery.movingToTop = true
                return
            }
        }
        let bound = tiles.values.filter { $0.photo != nil }
        if bound.contains(where: { isInView($0) }) {
            recovery.recoveredTo = nil
            return
        }
        let focused = bound.first { gtk_widget_get_parent($0.root).map { gtk_widget_has_focus($0) != 0 } ?? false }
        let indices = (focused.map { [$0] } ?? bound).compactMap { $0.photo.flatMap { contents.photos.index(of: $0.id) } }
        guard let index = indices.min(), index != recovery.recoveredTo else { return }
        recovery.recoveredTo = index
        gtk_widget_activate_action_variant(gridView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(index)))
    }

    /// Whether some of the tile is in the visible part of the grid.
    func isInView(_ tile: ThumbnailTile) -> Bool {
        guard gtk_widget_get_mapped(tile.root) != 0 else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(tile.root, gridView.widget, &bounds) != 0 else { return false }
        return TilePlacement(x: Double(bounds.origin.x), y: Double(bounds.origin.y),
                             width: Double(bounds.size.width), height: Double(bounds.size.height),
                             viewWidth: Double(gtk_widget_get_width(gridView.widget)),
                             viewHeight: Double(gtk_widget_get_height(gridView.widget))).visible
    }

    /// Whether the window's keyboard focus is in the grid.
    var focusIsInGrid: Bool { KeyboardFocus.isWithin(gridView.widget) }

    /// After a splice that took the focus off its tile (it removed the focused photo): gives
    /// it to the photo now at `position` (the next one, or the last), so that the keyboard and
    /// a screen reader go on from there, not from the grid as a whole.
    func keepFocus(hadFocus: Bool, at position: Int) {
        guard hadFocus else { return }
        if focusIsInGrid, KeyboardFocus.current(near: gridView.widget) != gridView.widget { return }
        gtk_widget_grab_focus(gridView.widget)
        guard contents.photos.count > 0 else { return }
        focusTile(showing: contents.photos[min(position, contents.photos.count - 1)].id, attempts: 10)
    }
}

/// What the grid's view recovery keeps between layouts.
struct GridViewRecoveryState {
    /// The frame clock's `layout` handler while the grid is realized.
    var layoutHandler: (clock: OpaquePointer, id: UInt)?
    /// The photo the grid was last scrolled back to, so that it is tried once, not every layout.
    var recoveredTo: Int?
    /// A splice came while the grid was at the top: the next layout scrolls it back there.
    var keepAtTop = false
    /// The grid was scrolled back to the top after a layout: the tiles laid out then, away
    /// from the top, go at the next layout, and ask for no thumbnail meanwhile (after a
    /// 100,000-photo listing's last splice they asked for a screenful, and prefetched the
    /// next, where the first screen's top photo had gone, 3,489 photos down).
    var movingToTop = false

    /// Whether the grid may be scrolled back to the top at the next layout, or is being.
    var topPending: Bool { keepAtTop || movingToTop }
}
