import CGtk

/// Tiles the grid view let go, kept to be set up again. GTK 4.8's grid view makes a list
/// item anew for every photo newly on screen after a splice and destroys the ones it let go
/// (it keeps a list item only for the same item): a search that replaces the photos on
/// screen ("ha": 99,000 leave the grid) tore down some hundred tiles and built as many. A
/// tile torn down is taken out of its list item and kept here, cleared; the next list item
/// set up gets it, instead of a tile built anew (its overlay, picture and check mark made
/// and styled).
@MainActor
final class TilePool {
    /// The tiles kept, each with a reference of the pool's own to its root.
    private var kept: [(tile: ThumbnailTile, root: OwnedObject<Widget>)] = []
    /// How many are kept at most: about the tiles a grid view keeps (some 30 rows of 8).
    private let limit: Int

    init(limit: Int = 256) {
        self.limit = limit
    }

    /// Keeps `tile`, which `item` (being torn down) showed, or lets it go with the item.
    func keep(_ tile: ThumbnailTile, from item: UnsafeMutableRawPointer) {
        guard kept.count < limit, gtk_list_item_get_child(item.cast()) == tile.root else { return }
        let root = OwnedObject(sharing: tile.root)
        gtk_list_item_set_child(item.cast(), nil)
        if gtk_widget_get_parent(tile.root) != nil { gtk_widget_unparent(tile.root) }
        tile.clear()
        kept.append((tile, root))
    }

    /// A tile kept, made `item`'s child at `edge` pixels a side; nil when none is kept.
    func take(into item: UnsafeMutableRawPointer, edge: Int) -> ThumbnailTile? {
        guard let last = kept.popLast() else { return nil }
        last.tile.setEdge(edge)
        // The list item takes a reference of its own before the pool's goes with `last`.
        gtk_list_item_set_child(item.cast(), last.root.pointer)
        return last.tile
    }
}
