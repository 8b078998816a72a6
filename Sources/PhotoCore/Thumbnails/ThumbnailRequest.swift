/// A thumbnail wanted: which file, as it is now, at which cache size.
public struct ThumbnailRequest: Sendable, Hashable {
    /// The file's URI, exactly as GIO gives it (`g_file_get_uri`): the cache is keyed by
    /// its bytes, so every program must spell a file the same way.
    public let uri: String
    /// The file's modification time in whole seconds (`stat`'s `st_mtime`, as stored in
    /// `Thumb::MTime`).
    public let modified: Int64
    /// The file's size in bytes, when known (checked against `Thumb::Size`).
    public let fileSize: Int64?
    public let size: ThumbnailSize

    /// A request for a file whose modification time is known in whole seconds.
    public init(uri: String, modifiedSeconds: Int64, fileSize: Int64?, size: ThumbnailSize) {
        self.uri = uri
        self.modified = modifiedSeconds
        self.fileSize = fileSize
        self.size = size
    }

    /// A request for a file whose modification time is known in microseconds (as in
    /// `Photo.modified`); rounded down to the second, as `st_mtime` is.
    public init(uri: String, modifiedMicroseconds: Int64, fileSize: Int64?, size: ThumbnailSize) {
        let (quotient, remainder) = modifiedMicroseconds.quotientAndRemainder(dividingBy: 1_000_000)
        self.init(uri: uri, modifiedSeconds: remainder < 0 ? quotient - 1 : quotient, fileSize: fileSize, size: size)
    }

    /// A request for a photo of a listing.
    public init(photo: Photo, size: ThumbnailSize) {
        self.init(uri: photo.id, modifiedMicroseconds: photo.modified, fileSize: photo.size, size: size)
    }
}
