import CExif
import CHeif
import CRaw
import Glibc
import PhotoCore

/// The EXIF of photos that are not JPEGs, where the JPEG reading (`PhotoMetadata.ExifParser`)
/// finds none: a HEIF's (HEIC, AVIF) EXIF item, found by libheif; a TIFF's own directories,
/// which are EXIF's, as in the RAW files built on TIFF (NEF, ARW, DNG, CR2, PEF…); and for the
/// other RAW files (RAF, CR3, ORF, RW2…), the camera and date LibRaw reads from them.
///
/// The file is mapped, not read: the parsers touch only the pages they need (a HEIC's boxes
/// and its EXIF item, a RAW's header), not its megabytes of image data. In a decoder
/// process only: these are the photo's bytes.
enum ContainerExif {
    /// The most of a TIFF's start handed to libexif: its directories are near the start.
    static let tiffBytes = 1024 * 1024

    /// What the file's EXIF says, through `read` (as `PhotoMetadata.ExifParser.finish`), or
    /// nil when the file is not one of these formats or holds no EXIF.
    static func withExif<T>(descriptor: Int32, _ read: (UnsafeMutablePointer<ExifData>) -> T) -> T? {
        withMapped(descriptor) { bytes -> T? in
            if isTIFF(bytes) {
                return withExifData(tiff: UnsafeRawBufferPointer(rebasing: bytes.prefix(tiffBytes)), read)
            }
            guard StillFormat.sniff(Array(bytes.prefix(64)), name: nil) == .heif, let item = heifExif(bytes) else { return nil }
            return item.withUnsafeBytes { withExifData(tiff: $0, read) }
        }
    }

    /// A HEIF's EXIF item as a TIFF structure (from its byte-order mark on), or nil when the
    /// file is no HEIF or holds none.
    static func heifTIFF(descriptor: Int32) -> [UInt8]? {
        withMapped(descriptor) { bytes -> [UInt8]? in
            guard StillFormat.sniff(Array(bytes.prefix(64)), name: nil) == .heif else { return nil }
            return heifExif(bytes)
        }
    }

    /// A RAW file's camera (make and model, as `PhotoDetails.camera` puts them) and date taken
    /// (µs, as `ExifDate`), as LibRaw reads them; nil when LibRaw cannot read the file.
    static func rawFacts(descriptor: Int32) -> (camera: String?, taken: Int64?)? {
        withMapped(descriptor) { bytes -> (camera: String?, taken: Int64?)? in
            guard StillFormat.sniff(Array(bytes.prefix(64)), name: nil) == .raw, let libraw = FormatLibraries.raw, let raw = libraw.libraw_init(0) else { return nil }
            defer { libraw.libraw_close(raw) }
            guard libraw.libraw_open_buffer(raw, UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) == LIBRAW_SUCCESS.rawValue else { return nil }
            let make = text(raw.pointee.idata.make), model = text(raw.pointee.idata.model)
            return (PhotoDetails.camera(make: make, model: model), taken(raw.pointee.other.timestamp))
        }
    }

    /// LibRaw read the date as the camera's clock and made it a time with `mktime`, in this
    /// process's time zone: `localtime_r` in the same zone gives the clock's reading back.
    private static func taken(_ timestamp: time_t) -> Int64? {
        guard timestamp > 0 else { return nil }
        var time = timestamp, fields = tm()
        guard localtime_r(&time, &fields) != nil else { return nil }
        let clock = String(format: "%04d:%02d:%02d %02d:%02d:%02d", Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1,
                           Int(fields.tm_mday), Int(fields.tm_hour), Int(fields.tm_min), Int(fields.tm_sec))
        return ExifDate.microseconds(dateTime: clock, offset: nil, subseconds: nil)
    }

    private static func text<T>(_ field: T) -> String? {
        withUnsafeBytes(of: field) { bytes in
            let value = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            return value.isEmpty ? nil : value
        }
    }

    private static func isTIFF(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 8 && (bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]))
    }

    /// The primary image's EXIF item, from its TIFF header on (the item starts with the
    /// offset of that header).
    private static func heifExif(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let heif = FormatLibraries.heif, let context = heif.heif_context_alloc() else { return nil }
        defer { heif.heif_context_free(context) }
        guard heif.heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil).code == heif_error_Ok else { return nil }
        var primary: OpaquePointer?
        guard heif.heif_context_get_primary_image_handle(context, &primary).code == heif_error_Ok, let primary else { return nil }
        defer { heif.heif_image_handle_release(primary) }
        var id: heif_item_id = 0
        guard heif.heif_image_handle_get_list_of_metadata_block_IDs(primary, "Exif", &id, 1) == 1 else { return nil }
        let size = heif.heif_image_handle_get_metadata_size(primary, id)
        guard size > 4, size <= tiffBytes else { return nil }
        var item = [UInt8](repeating: 0, count: size)
        guard item.withUnsafeMutableBytes({ heif.heif_image_handle_get_metadata(primary, id, $0.baseAddress).code }) == heif_error_Ok else { return nil }
        let offset = Int(item[0]) << 24 | Int(item[1]) << 16 | Int(item[2]) << 8 | Int(item[3])
        guard offset <= size - 4 - 8 else { return nil }
        return Array(item[(4 + offset)...])
    }

    /// libexif on a TIFF structure: it takes one behind the "Exif" header a JPEG's APP1 has.
    private static func withExifData<T>(tiff: UnsafeRawBufferPointer, _ read: (UnsafeMutablePointer<ExifData>) -> T) -> T? {
        var block: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        block.append(contentsOf: tiff)
        return block.withUnsafeBytes { PhotoMetadata.withExifData(block: $0, read) }
    }

    /// The regular file open on `descriptor`, mapped read-only while `body` runs.
    private static func withMapped<T>(_ descriptor: Int32, _ body: (UnsafeRawBufferPointer) -> T?) -> T? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size >= 16 else { return nil }
        let size = Int(status.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else { return nil }
        defer { munmap(base, size) }
        return body(UnsafeRawBufferPointer(start: base, count: size))
    }
}
