/// What a screen reader says of a photo's tile or of the photo in the viewer: its name, when
/// it is a video, when it was taken, and whether edit mode has it selected ("IMG_0042.jpg, taken 1 May 2024,
/// 10:00, selected").
public enum SpokenPhotoName {
    public static func of(_ photo: Photo, selected: Bool = false, position: (index: Int, count: Int)? = nil) -> String {
        var parts = [photo.displayName]
        if photo.isVideo {
            // TRANSLATORS: said of a video's tile or of a video in the viewer, after its name.
            parts.append(tr("video"))
        }
        if let taken = photo.dateTaken {
            // Dates taken are a camera's wall-clock time counted as if it were UTC (ExifDate).
            let seconds = taken >= 0 ? taken / 1_000_000 : -((-taken + 999_999) / 1_000_000)
            // TRANSLATORS: said of a photo by a screen reader: when it was taken.
            parts.append(tr("taken %s", PhotoDetails.dateText(wallClockSeconds: seconds)))
        }
        if let position {
            // TRANSLATORS: said of the photo shown in the viewer: "photo 3 of 12".
            parts.append(tr("photo %1$d of %2$d", position.index + 1, position.count))
        }
        if selected {
            // TRANSLATORS: said of a tile ticked in edit mode.
            parts.append(tr("selected"))
        }
        // TRANSLATORS: the separator between the parts a screen reader says of a photo.
        return parts.joined(separator: tr(", "))
    }
}
