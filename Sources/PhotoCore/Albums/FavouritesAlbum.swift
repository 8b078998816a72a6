/// The Favourites album of a folder: every photo below the folder opened that is a favourite,
/// whichever subfolder it is in, listed in the switcher after the folder's albums while there
/// is one.
public enum FavouritesAlbum {
    /// The switcher's line for the favourites among the folder's photos (`photo` finds a
    /// photo of the folder by its id; nil for one not in it), or nil when none is.
    public static func summary(favourites: Set<String>, photo: (String) -> Photo?) -> AlbumSummary? {
        var count = 0
        var cover: Photo?
        for id in favourites {
            guard let candidate = photo(id) else { continue }
            count += 1
            if cover.map({ candidate.dateTakenOrModified > $0.dateTakenOrModified
                            || candidate.dateTakenOrModified == $0.dateTakenOrModified && candidate.id < $0.id }) ?? true {
                cover = candidate
            }
        }
        guard count > 0 else { return nil }
        return AlbumSummary(id: .favourites, title: tr("Favourites"), count: count, cover: cover, newest: cover?.dateTakenOrModified)
    }

    /// The favourites known now (`known`, of every folder shown) that are photos of the
    /// folder (`holds`): what a folder's Favourites holds once it is listed, before its
    /// sidecars are read. A look per favourite, not one per photo of the folder.
    public static func favourites(among known: Set<String>, holds: (String) -> Bool) -> Set<String> {
        known.filter(holds)
    }
}
