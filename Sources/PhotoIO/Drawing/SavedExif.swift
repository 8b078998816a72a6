import CExif
import Glibc
import PhotoCore

/// The EXIF a marked-up copy keeps of its original's, rewritten with libexif: every tag as
/// it was (camera, date taken, exposure, GPS, unknown tags too), except what the copy changes:
/// - the orientation is 1: the copy's pixels are upright already (the board is the photo as
///   shown, its orientation applied);
/// - the pixel dimensions (IFD0's ImageWidth and ImageLength, EXIF's PixelXDimension and
///   PixelYDimension, where present) are the copy's, cropped or not;
/// - the embedded thumbnail (IFD1) is dropped: it shows the photo before it was marked up,
///   and so what a pixelation hid.
///
/// In: the original's EXIF block (`JPEGExif.block(in:)`: "Exif\0\0" and the TIFF structure,
/// or a whole APP1 segment, or a JPEG's first bytes). Out: the new block, or nil when the
/// bytes hold no EXIF libexif can read, or the result would not fit in a JPEG's APP1 segment
/// (64 KiB) even without the maker's notes.
enum SavedExif {
    /// The largest EXIF block a JPEG's APP1 segment holds (its length field counts itself).
    static let maximumBytes = 0xFFFF - 2

    static func rewritten(_ original: [UInt8], size: PixelSize) -> [UInt8]? {
        guard !original.isEmpty, let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        // Keep what the file has as it is: no tags dropped as unknown, none added or
        // "corrected" to follow the specification.
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        original.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        let directories = [data.pointee.ifd.0, data.pointee.ifd.1, data.pointee.ifd.2, data.pointee.ifd.3, data.pointee.ifd.4]
        guard directories.contains(where: { ($0?.pointee.count ?? 0) > 0 }) else { return nil }
        let order = exif_data_get_byte_order(data)

        setShort(EXIF_TAG_ORIENTATION, in: data.pointee.ifd.0, to: 1, order: order)
        setDimension(EXIF_TAG_IMAGE_WIDTH, in: data.pointee.ifd.0, to: size.width, order: order)
        setDimension(EXIF_TAG_IMAGE_LENGTH, in: data.pointee.ifd.0, to: size.height, order: order)
        setDimension(EXIF_TAG_PIXEL_X_DIMENSION, in: data.pointee.ifd.2, to: size.width, order: order)
        setDimension(EXIF_TAG_PIXEL_Y_DIMENSION, in: data.pointee.ifd.2, to: size.height, order: order)
        removeAll(in: data.pointee.ifd.1)
        if data.pointee.data != nil {
            free(data.pointee.data)  // exif_data_new's allocator is the C library's
            data.pointee.data = nil
            data.pointee.size = 0
        }

        if let saved = save(data), saved.count <= maximumBytes { return saved }
        // Maker notes can be large; without them the rest may fit.
        if let notes = exif_content_get_entry(data.pointee.ifd.2, EXIF_TAG_MAKER_NOTE) {
            exif_content_remove_entry(data.pointee.ifd.2, notes)
        }
        if let saved = save(data), saved.count <= maximumBytes { return saved }
        return nil
    }

    /// The block libexif writes: "Exif\0\0" and the TIFF structure.
    private static func save(_ data: UnsafeMutablePointer<ExifData>) -> [UInt8]? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var count: UInt32 = 0
        exif_data_save_data(data, &bytes, &count)
        guard let bytes, count > 0 else { return nil }
        defer { free(bytes) }
        let saved = Array(UnsafeBufferPointer(start: bytes, count: Int(count)))
        return saved.starts(with: JPEGExif.header) ? saved : nil
    }

    private static func setShort(_ tag: ExifTag, in directory: UnsafeMutablePointer<ExifContent>?, to value: UInt16, order: ExifByteOrder) {
        guard let entry = exif_content_get_entry(directory, tag), let bytes = entry.pointee.data,
              entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.size >= 2 else { return }
        exif_set_short(bytes, order, value)
    }

    /// A dimension's tag, SHORT or LONG as the file has it.
    private static func setDimension(_ tag: ExifTag, in directory: UnsafeMutablePointer<ExifContent>?, to value: Int, order: ExifByteOrder) {
        guard let entry = exif_content_get_entry(directory, tag), let bytes = entry.pointee.data else { return }
        if entry.pointee.format == EXIF_FORMAT_LONG, entry.pointee.size >= 4 {
            exif_set_long(bytes, order, UInt32(clamping: value))
        } else if entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.size >= 2 {
            exif_set_short(bytes, order, UInt16(clamping: value))
        }
    }

    private static func removeAll(in directory: UnsafeMutablePointer<ExifContent>?) {
        guard let directory else { return }
        while directory.pointee.count > 0, let entry = directory.pointee.entries[0] {
            exif_content_remove_entry(directory, entry)
        }
    }
}
