/// The albums a window's switcher lists, in its order, and moving through them (Ctrl+Page
/// Down, Ctrl+Page Up, Alt+1…9, a swipe): the folder's albums (its subfolders, then
/// Favourites), then the person's own.
public enum SwitcherAlbums {
    /// The folder's albums as the switcher lists them: its subfolders' albums and Favourites;
    /// for a folder without subfolders, when there is Favourites or an album of the person's,
    /// the folder itself first (All Photos, named `folderName`), to come back to.
    public static func folderAlbums(subfolders: [AlbumSummary], favourites: AlbumSummary?, hasOwnAlbums: Bool,
                                    allPhotos: AlbumSummary?, folderName: String) -> [AlbumSummary] {
        let favourites = favourites.map { [$0] } ?? []
        guard subfolders.isEmpty, hasOwnAlbums || !favourites.isEmpty else { return subfolders + favourites }
        return [AlbumSummary(id: .allPhotos, title: folderName, count: allPhotos?.count ?? 0, cover: allPhotos?.cover,
                             newest: allPhotos?.newest)] + favourites
    }

    /// The album `delta` places from `shown` in `order`; nil past either end, or when `shown`
    /// is not listed.
    public static func album(_ delta: Int, from shown: AlbumID, in order: [AlbumID]) -> AlbumID? {
        guard order.count > 1, let index = order.firstIndex(of: shown) else { return nil }
        let next = index + delta
        return order.indices.contains(next) ? order[next] : nil
    }

    /// Alt+`number`: the album at that place (1 is the first), nil past the end.
    public static func album(number: Int, in order: [AlbumID]) -> AlbumID? {
        number >= 1 && number <= order.count ? order[number - 1] : nil
    }
}
