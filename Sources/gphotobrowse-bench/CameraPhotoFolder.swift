import CExif
import CGdkPixbuf
import Dispatch
import Foundation
import PhotoCore
import PhotoIO

/// A folder of `count` photos as a camera writes them: 1280 × 960 JPEGs of a colour of their
/// own with a gradient and grain (about 300 KB each), each with an EXIF block (APP1, right
/// after the start of the file) holding the date it was taken (`DateTimeOriginal`) and a
/// 160 × 120 JPEG preview in IFD1, as cameras embed. Photo i was taken i minutes before the
/// first, and its file was last modified then too, so the newest is `photo-00000.jpg`.
/// A hidden stamp file, written last, says that the folder is whole, and of which kind.
struct CameraPhotoFolder: Sendable {
    let root: String
    let count: Int

    static let size = (1280, 960)
    static let previewSize = (160, 120)
    /// When the newest photo was taken: 2024-05-01 10:00:00 (UTC; EXIF dates have no zone).
    static let newest = 1_714_557_600

    func photoName(_ index: Int) -> String { String(format: "photo-%05d.jpg", index) }
    private var stampPath: String { root + "/.camera-photo-folder" }

    /// Whether `root` already holds this folder (its stamp says `count` photos of this kind).
    var isMade: Bool {
        (try? String(contentsOfFile: stampPath, encoding: .utf8)) == stamp
    }

    private var stamp: String { "\(count) photos, grainy previews\n" }

    /// Writes the photos (a worker per core), then the stamp; false, said on stderr, when a
    /// file cannot be written or the first photo does not read back as made.
    func make() -> Bool {
        do { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) } catch {
            printError("cannot make \(root): \(error)")
            return false
        }
        let failed = forEachIndex(below: count, writePhoto)
        guard failed == 0 else {
            printError("could not write \(failed) of the photos in \(root)")
            return false
        }
        guard checkFirstPhoto() else { return false }
        return FileManager.default.createFile(atPath: stampPath, contents: Data(stamp.utf8))
    }

    /// Bytes of all the photos.
    func bytes() -> Int {
        (0..<count).reduce(0) { total, index in
            total + (((try? FileManager.default.attributesOfItem(atPath: root + "/" + photoName(index)))?[.size] as? Int) ?? 0)
        }
    }

    /// Where photo `index`'s EXIF block (with its preview) ends: the bytes a reader of its
    /// date and preview needs; 0 when it cannot be read.
    func metadataEnd(_ index: Int) -> Int {
        guard let handle = FileHandle(forReadingAtPath: root + "/" + photoName(index)) else { return 0 }
        defer { try? handle.close() }
        let start = [UInt8](handle.readData(ofLength: 6))
        guard start.count == 6, start[2] == 0xFF, start[3] == 0xE1 else { return 0 }
        return 4 + Int(start[4]) << 8 + Int(start[5])
    }

    /// When photo `index` was taken, in seconds since 1970.
    func taken(_ index: Int) -> Int { Self.newest - 60 * index }

    private func writePhoto(_ index: Int) -> Bool {
        let (width, height) = Self.size
        guard let pixbuf = grainyPixbuf(index: index, width: width, height: height) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        // The preview painted alike at its size, grain and all, so that it weighs what a
        // camera's does (a few KB), not what a smooth scaled copy would.
        guard let main = Self.jpeg(pixbuf),
              let small = grainyPixbuf(index: index, width: Self.previewSize.0, height: Self.previewSize.1) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(small)) }
        guard let preview = Self.jpeg(small), main.count > 2 else { return false }
        let path = root + "/" + photoName(index)
        let bytes = Array(main[0..<2]) + Self.exifSegment(taken: taken(index), preview: preview) + Array(main[2...])
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return false }
        return setModified(path, seconds: taken(index))
    }

    /// A pixbuf saved as JPEG by gdk-pixbuf (quality 75), in memory.
    private static func jpeg(_ pixbuf: OpaquePointer) -> [UInt8]? {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "jpeg", nil, nil, nil) != 0, let buffer else { return nil }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    /// An APP1 segment made with libexif: IFD0's camera, orientation and date, the EXIF
    /// IFD's `DateTimeOriginal` and IFD1's JPEG preview.
    private static func exifSegment(taken: Int, preview: [UInt8]) -> [UInt8] {
        let order = EXIF_BYTE_ORDER_INTEL
        let data = exif_data_new()!
        defer { exif_data_unref(data) }
        exif_data_set_byte_order(data, order)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        let ifd0 = data.pointee.ifd.0, exif = data.pointee.ifd.2, ifd1 = data.pointee.ifd.1
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(secondsFromGMT: 0)
        format.dateFormat = "yyyy:MM:dd HH:mm:ss"
        let date = format.string(from: Date(timeIntervalSince1970: Double(taken)))
        add(ascii: "gphotobrowse-bench", EXIF_TAG_MAKE, to: ifd0, data)
        add(ascii: "Loopback 1", EXIF_TAG_MODEL, to: ifd0, data)
        add(short: 1, EXIF_TAG_ORIENTATION, to: ifd0, data, order)
        add(ascii: date, EXIF_TAG_DATE_TIME, to: ifd0, data)
        add(ascii: date, EXIF_TAG_DATE_TIME_ORIGINAL, to: exif, data)
        add(ascii: date, EXIF_TAG_DATE_TIME_DIGITIZED, to: exif, data)
        add(short: 6, EXIF_TAG_COMPRESSION, to: ifd1, data, order)  // JPEG
        // libexif writes IFD1's offset and length of the preview when it saves.
        let copy = malloc(preview.count)!.assumingMemoryBound(to: UInt8.self)
        preview.withUnsafeBufferPointer { copy.update(from: $0.baseAddress!, count: preview.count) }
        data.pointee.data = copy
        data.pointee.size = UInt32(preview.count)
        var saved: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &saved, &size)
        defer { free(saved) }
        let payload = Array(UnsafeBufferPointer(start: saved!, count: Int(size)))
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    private static func add(ascii text: String, _ tag: ExifTag, to content: UnsafeMutablePointer<ExifContent>?,
                            _ data: UnsafeMutablePointer<ExifData>) {
        let entry = exif_entry_new()!
        defer { exif_entry_unref(entry) }
        let bytes = Array(text.utf8) + [0]
        let storage = malloc(bytes.count)!.assumingMemoryBound(to: UInt8.self)
        bytes.withUnsafeBufferPointer { storage.update(from: $0.baseAddress!, count: bytes.count) }
        entry.pointee.tag = tag
        entry.pointee.format = EXIF_FORMAT_ASCII
        entry.pointee.components = UInt(bytes.count)
        entry.pointee.size = UInt32(bytes.count)
        entry.pointee.data = storage
        exif_content_add_entry(content, entry)
    }

    private static func add(short value: UInt16, _ tag: ExifTag, to content: UnsafeMutablePointer<ExifContent>?,
                            _ data: UnsafeMutablePointer<ExifData>, _ order: ExifByteOrder) {
        let entry = exif_entry_new()!
        defer { exif_entry_unref(entry) }
        let storage = malloc(2)!.assumingMemoryBound(to: UInt8.self)
        exif_set_short(storage, order, value)
        entry.pointee.tag = tag
        entry.pointee.format = EXIF_FORMAT_SHORT
        entry.pointee.components = 1
        entry.pointee.size = 2
        entry.pointee.data = storage
        exif_content_add_entry(content, entry)
    }

    /// Reads the first photo back as the app does: its date, and its preview at its size.
    private func checkFirstPhoto() -> Bool {
        let path = root + "/" + photoName(0)
        let date = PhotoMetadata.dateTaken(path: path)
        let request = DecodeRequest(uri: URL(fileURLWithPath: path).absoluteString, fitting: PixelSize(width: 256, height: 256))
        let preview = try? PixbufDecoder().embeddedPreview(request, cancellation: CancellationFlag()).get()
        guard date == Int64(taken(0)) * 1_000_000,
              preview?.size == PixelSize(width: Self.previewSize.0, height: Self.previewSize.1) else {
            printError("the photos made in \(root) do not read back with their date (\(String(describing: date))) and preview (\(String(describing: preview?.size)))")
            return false
        }
        return true
    }
}
