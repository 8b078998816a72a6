import PhotoCore

/// How a photo's thumbnail is made, by where the photo is: which workers wait on it, in
/// which server's lane, and at what priority. The app's `ThumbnailLoader` submits the work
/// this names.
public struct ThumbnailRoute: Sendable, Equatable {
    /// What the work is.
    public enum Work: Sendable, Equatable {
        /// A photo on this computer: read from the cache or decoded, on the processor-bound
        /// workers.
        case decode
        /// A web photo: `address` (the list's thumbnail, else the photo) downloaded, then
        /// decoded, on the download workers.
        case download(address: String)
        /// A photo on another machine: first the preview embedded in its first bytes (before
        /// any whole file is read), then the thumbnail made from the whole file, both on the
        /// download workers.
        case firstLook
    }

    public let work: Work
    /// The server whose lane the work waits in (nil: none, or a local photo).
    public let lane: String?
    /// The work's priority on its workers (a first look's preview's: the whole file after it
    /// waits at the priority asked for).
    public let priority: Int

    /// The route of `uri`'s thumbnail asked for at `priority` (`ThumbnailPriority`).
    /// `thumbnailAddress` is what a web photo's thumbnail downloads.
    public init(uri: String, priority: Int,
                thumbnailAddress: (String) -> String = { WebPhotoFiles.shared.thumbnailAddress(of: $0) }) {
        if RemoteFileCopies.isRemote(uri) {
            work = .firstLook
            lane = DecodePool.downloadLane(of: uri)
            // Every preview asked for comes before any whole file is read.
            let (boosted, overflow) = priority.addingReportingOverflow(ThumbnailPriority.previewBoost)
            self.priority = overflow ? Int.max : boosted
        } else if WebPhotoFiles.isWebAddress(uri) {
            // A web photo waits on its server, not on a processor.
            let address = thumbnailAddress(uri)
            work = .download(address: address)
            lane = DecodePool.downloadLane(of: address)
            self.priority = priority
        } else {
            work = .decode
            lane = nil
            self.priority = priority
        }
    }

    /// Whether the work waits on a server (the download workers), not on a processor.
    public var waitsOnServer: Bool { work != .decode }
}
