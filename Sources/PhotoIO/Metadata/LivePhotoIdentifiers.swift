import Glibc
import PhotoCore

/// Reads the identifier a Live Photo's still and movie share (`LivePhotoIdentifier`) from a
/// file: a JPEG's EXIF, a HEIF's EXIF item (libheif finds it), a QuickTime or MP4 movie's
/// metadata. The file's bytes are from outside: this runs in a decoder process only.
enum LivePhotoIdentifiers {
    /// How much of a JPEG's start is read for its EXIF (APP1 is at most 64 KiB, near the start).
    static let jpegHeadBytes = 256 * 1024

    /// The identifier in the file open on `descriptor`, or nil when it holds none.
    static func read(descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 16 else { return nil }
        let size = Int64(status.st_size)
        let read = { (offset: Int64, count: Int) -> [UInt8] in FileBytes.read(descriptor, offset: offset, count: count) }
        let head = read(0, 64)
        if head.starts(with: [0xFF, 0xD8]) {
            guard let block = JPEGExif.block(in: read(0, Int(min(Int64(jpegHeadBytes), size)))) else { return nil }
            return LivePhotoIdentifier.fromTIFF(Array(block.dropFirst(JPEGExif.header.count)))
        }
        switch StillFormat.sniff(head, name: nil) {
        case .heif: return ContainerExif.heifTIFF(descriptor: descriptor).flatMap(LivePhotoIdentifier.fromTIFF)
        case .video: return LivePhotoIdentifier.fromMovie(size: size, read: read)
        default: return nil
        }
    }
}
