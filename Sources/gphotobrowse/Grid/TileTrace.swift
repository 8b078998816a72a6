import PhotoCore

/// The grid's `trace tile-loaded INDEX`, `trace tile-failed INDEX` and `trace tile-preview
/// INDEX` lines (with `GPHOTOBROWSE_TRACE=all`): the tile at INDEX shows its photo's
/// thumbnail, or why there is none, or its preview. A photo is told of again when it shows at
/// another index than the one last told (a listing's later photos or a new order moved it, and
/// its tile kept the thumbnail, or a new tile took it from memory), so that every index shown
/// with its thumbnail is told of once. Without the trace it does nothing, not even look the
/// index up.
@MainActor
struct TileTrace {
    /// The index each photo was last told of at, by id.
    private var told: [String: Int] = [:]

    /// The photo `id` of `photos` shows its thumbnail (`failed`: the reason there is none).
    mutating func shown(_ id: String, in photos: PhotoList, failed: Bool) {
        guard Trace.tilesEnabled, let index = photos.index(of: id), told[id] != index else { return }
        told[id] = index
        Trace.milestone(failed ? "tile-failed" : "tile-loaded", index)
    }

    /// A thumbnail arrived (or failed): told of at its index whatever was told before.
    mutating func arrived(_ id: String, in photos: PhotoList, failed: Bool) {
        guard Trace.tilesEnabled else { return }
        told[id] = nil
        shown(id, in: photos, failed: failed)
    }

    /// The photo `id` of `photos` shows a preview while its thumbnail is made.
    func preview(_ id: String, in photos: PhotoList) {
        guard Trace.tilesEnabled, let index = photos.index(of: id) else { return }
        Trace.milestone("tile-preview", index)
    }
}
