/// What a walk found, cut into slices the main thread merges one at a time, a turn of its
/// loop between them: a web album's list of 100,000 photos arrives in one delivery, and
/// merged at once it would hold the window still for a second.
public enum MergeSlices {
    /// The photos most merged in one turn of the main loop.
    public static let size = 5_000

    /// How long photos merged into the tree wait at least before they go to the albums shown
    /// while a walk goes on, in seconds.
    public static let handOverInterval = 1.0

    /// How long photos wait for the albums while a walk goes on, the last hand-over having
    /// taken `lastHandOver` seconds: a second, or ten times that if longer, so that handing
    /// photos over takes at most a tenth of the main thread however large the album grew.
    public static func handOverSpacing(lastHandOver: Double) -> Double {
        max(handOverInterval, 10 * lastHandOver)
    }

    /// Whether the photos merged into the tree and not yet handed to the albums shown
    /// (`pending`, the first of them merged `waited` seconds ago) go to them now, the largest
    /// of those albums holding `largestAlbum` photos, the last hand-over having taken
    /// `lastHandOver` seconds. Handing photos to an album costs a pass over all of its photos
    /// (its order, its grid's model: GTK asks for an item at every position a splice adds),
    /// so once the albums show photos (the first screen) the rest waits for the walk's end,
    /// when they go at once, or for `handOverSpacing`, so that a walk that takes long
    /// (another machine, a huge tree, a busy machine) still shows what it finds: a local
    /// listing of 100,000 photos reaches the albums in one step after its first screen, not
    /// in a pass over the whole album for every slice.
    public static func isHandOverDue(pending: Int, largestAlbum: Int, waited: Double, lastHandOver: Double = 0) -> Bool {
        pending > 0 && (largestAlbum == 0 || waited >= handOverSpacing(lastHandOver: lastHandOver))
    }

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
            // A batch that fits goes as it is, its photos not copied.
            if !batch.photos.isEmpty, count + batch.photos.count <= size {
                current.append(batch)
                count += batch.photos.count
                start = batch.photos.count
                if count == size {
                    slices.append(current)
                    current = []
                    count = 0
                }
            }
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

/// What walks delivered and the main thread has not merged yet, in the order delivered: the
/// photos a slice at a time (`MergeSlices`), each walk's end after its photos. One merge runs
/// at a time, a slice per turn of the main loop: a delivery while one runs joins its queue.
/// `End` is what the app knows of a walk's end (which walk, and how it went).
public struct MergeQueue<End> {
    /// The next thing to merge.
    public enum Step {
        case photos([FolderPhotos])
        case end(End)
    }

    private var steps: [Step] = []
    /// Whether a merge is under way (it asks for each next step until none is left).
    public private(set) var isMerging = false
    private let sliceSize: Int

    public init(sliceSize: Int = MergeSlices.size) {
        self.sliceSize = sliceSize
    }

    public var isEmpty: Bool { steps.isEmpty }

    /// Whether the next step is another slice of photos (not a walk's end, not nothing).
    public var isSliceWaiting: Bool {
        if case .photos = steps.first { true } else { false }
    }

    /// Adds a delivery: its photos, then its walk's end if it ended. Returns whether a merge
    /// is to start now (none was under way and there is something to merge).
    public mutating func add(_ photos: [FolderPhotos], end: End? = nil) -> Bool {
        if !photos.isEmpty { steps += MergeSlices.slices(of: photos, size: sliceSize).map(Step.photos) }
        if let end { steps.append(.end(end)) }
        guard !isMerging, !steps.isEmpty else { return false }
        isMerging = true
        return true
    }

    /// The next step of the merge under way, nil when there is none. The merge ends with its
    /// last step: while `isMerging` is still true after a step, ask for the next one a turn
    /// of the main loop later.
    public mutating func next() -> Step? {
        guard !steps.isEmpty else {
            isMerging = false
            return nil
        }
        let step = steps.removeFirst()
        if steps.isEmpty { isMerging = false }
        return step
    }

    /// Drops everything not merged (the folder was closed); the merge ends.
    public mutating func removeAll() {
        steps.removeAll()
        isMerging = false
    }
}
