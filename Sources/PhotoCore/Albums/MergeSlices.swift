/// What a walk found, cut into slices the main thread merges one at a time, a turn of its
/// loop between them: a web album's list of 100,000 photos arrives in one delivery, and
/// merged at once it would hold the window still for a second.
public enum MergeSlices {
    /// The photos most merged in one turn of the main loop.
    public static let size = 5_000

    /// `batches` in slices of at most `size` photos, in their order; a folder's photos may be
    /// cut across slices. Folders without photos go with the first slice.
    public static func slices(of batches: [FolderPhotos], size: Int = size) -> [[FolderPhotos]] {
        let size = max(1, size)
        var slices: [[FolderPhotos]] = []
        var current: [FolderPhotos] = []
        var count = 0
        for batch in batches {
            var start = 0
            if batch.photos.isEmpty { current.append(batch) }
            while start < batch.photos.count {
                let end = min(batch.photos.count, start + size - count)
                current.append(FolderPhotos(folder: batch.folder, photos: Array(batch.photos[start..<end])))
                count += end - start
                start = end
                if count == size {
                    slices.append(current)
                    current = []
                    count = 0
                }
            }
        }
        if !current.isEmpty { slices.append(current) }
        return slices
    }
}
