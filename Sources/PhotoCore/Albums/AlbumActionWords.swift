/// What a toast says after an action on one of the person's own albums.
public enum AlbumActionWords {
    /// After Add to Album: `count` photos that were not in the album `title` yet were added;
    /// none, when all of them were in it already.
    public static func added(_ count: Int, to title: String) -> String {
        count == 0
            ? tr("The photos are in “%s” already", OutsideText(title))
            : trn("Added %1$d photo to “%2$s”", "Added %1$d photos to “%2$s”", count, count, OutsideText(title))
    }

    /// After Remove from Album: `count` photos left the album `title`.
    public static func removed(_ count: Int, from title: String) -> String {
        trn("Removed %1$d photo from “%2$s”", "Removed %1$d photos from “%2$s”", count, count, OutsideText(title))
    }

    /// After Delete Album.
    public static func deleted(_ title: String) -> String {
        tr("Deleted the album “%s”", OutsideText(title))
    }
}

extension PhotoCollection {
    /// How many of `uris` the album does not hold yet, each counted once: what adding them adds.
    public func countNew(among uris: some Sequence<String>) -> Int {
        let had = Set(photos)
        return Set(uris).subtracting(had).count
    }
}
