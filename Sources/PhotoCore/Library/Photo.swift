/// One photo in a folder, as the grid and the viewer know it.
///
/// A photo is identified by its URI, which survives any byte sequence a file name can hold
/// (non-UTF-8 names are percent-escaped), so the URI is what the rest of the app keys on.
public struct Photo: Sendable, Hashable, Identifiable {
    /// The file's URI (`file:///…`); unique within a folder.
    public let id: String
    /// The name to show a person (GIO's display name: valid UTF-8 even for odd names).
    public let displayName: String
    /// Modification time in microseconds since the Unix epoch.
    public let modified: Int64
    /// Size in bytes.
    public let size: Int64
    /// The content type known so far (by name while listing, by content once sniffed).
    public let contentType: String
    /// Precomputed key for natural name order.
    public let nameKey: NaturalSortKey
    /// When the photo was taken, in microseconds since the Unix epoch (see `ExifDate` for
    /// how a camera's wall-clock time becomes this number), or nil when not known: not
    /// read yet, or the file records none. Dates arrive after listing, through
    /// `PhotoList.setDatesTaken`.
    public var dateTaken: Int64?
    /// Files shown as part of this photo: the RAW files beside a JPEG of the same name
    /// (`PairedFiles`). The photo shown is this one; trash and export take them too.
    public var companions: [Photo] = []

    public init(id: String, displayName: String, modified: Int64, size: Int64, contentType: String, dateTaken: Int64? = nil) {
        self.id = id
        self.displayName = displayName
        self.modified = modified
        self.size = size
        self.contentType = contentType
        self.nameKey = NaturalSortKey(displayName)
        self.dateTaken = dateTaken
    }

    /// The time date-taken order sorts by: the date taken, else the modification time.
    @inlinable public var dateTakenOrModified: Int64 { dateTaken ?? modified }
}

/// Which version of which photo: a photo rewritten on disk (a new modification time or
/// size) is a new version, so what was decoded from the old bytes (a thumbnail, a viewer
/// image) is never shown for it.
public struct PhotoVersion: Sendable, Hashable {
    public let id: String
    public let modified: Int64
    public let size: Int64

    public init(id: String, modified: Int64, size: Int64) {
        self.id = id
        self.modified = modified
        self.size = size
    }
}

extension Photo {
    /// This photo's version: its id, modification time and size.
    public var version: PhotoVersion { PhotoVersion(id: id, modified: modified, size: size) }
}
