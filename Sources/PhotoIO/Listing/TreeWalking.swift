import PhotoCore

/// A walk that finds photos by the folder they are in, run on a worker thread by a
/// `TreeWalkRun`: a folder's tree on a disk or a server (`FolderTreeWalk`), or a web album's
/// list, whose albums are its folders (`WebAlbumWalk`).
public protocol TreeWalking: AnyObject, Sendable {
    /// What was opened: the folder's URI, or the list's address.
    var uri: String { get }
    /// Stops a walk in progress; `run` returns soon after and delivers nothing more.
    func cancel()
    var isCancelled: Bool { get }
    /// Walks, blocking: photos go to `deliver` grouped by the folder they are directly in,
    /// each folder to `found` before its photos, folders left out to `skipFolder`, files left
    /// out to `skip`. Fails only when nothing at all can be listed.
    func run(
        interval: Double,
        maximumInterval: Double,
        deliver: ([FolderPhotos]) -> Void,
        found: (TreeFolder) -> Void,
        skipFolder: (SkippedFolder) -> Void,
        skip: (TreeFolder, SkippedEntry) -> Void
    ) -> Result<FolderTreeWalk.Totals, FolderError>
}

extension FolderTreeWalk: TreeWalking {}
