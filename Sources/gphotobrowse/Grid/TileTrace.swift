import PhotoCore

/// The grid's `trace tile-loaded INDEX` and `trace tile-failed INDEX` lines (with
/// `GPHOTOBROWSE_TRACE=all`): the tile at INDEX shows its photo's thumbnail, or why there is
/// none. A photo is told of again when it shows at another index than the one last told (a
/// listing's later photos or a new order moved it, and its tile kept the thumbnail, or a new
/// tile took it from memory), so that every index shown with its thumbnail is told of once.
@MainActor
struct TileTrace {
    /// The index each photo was last told of at, by id.
    private var told: [String: Int] = [:]

    /// The photo `id`, at `index`, shows its thumbnail (`failed`: the reason there is none).
    mutating func shown(_ id: String, at index: Int, failed: Bool) {
        guard Trace.tilesEnabled, told[id] != index else { return }
        told[id] = index
        Trace.milestone(failed ? "tile-failed" : "tile-loaded", index)
    }

    /// A thumbnail arrived (or failed): told of at `index` whatever was told before.
    mutating func arrived(_ id: String, at index: Int, failed: Bool) {
        guard Trace.tilesEnabled else { return }
        told[id] = nil
        shown(id, at: index, failed: failed)
    }
}
