import CExif
import CGdkPixbuf
import Foundation
import PhotoCore

/// Reads when a photo was taken from its EXIF data, with libexif.
///
/// The date is `DateTimeOriginal` (with `OffsetTimeOriginal` and `SubSecTimeOriginal` when
/// present), else `DateTimeDigitized`, else `DateTime`; see `ExifDate` for what the number
/// means. A JPEG's EXIF sits in an APP1 segment near the start of the file; HEIF, TIFF and
/// RAW files are read by `ContainerExif` (from a descriptor, in a decoder process); other
/// formats give no date, and the folder's modification times stand in for them.
///
/// The file is opened without blocking and checked to be a regular file, and at most
/// `maxBytes` are read, in chunks that stop as soon as libexif has the EXIF segment:
/// `exif_data_new_from_file` would `fopen` a FIFO named like a photo and wait forever.
/// libexif's spec-following fix-ups are off: they add and rewrite entries to make the
/// data conform (work wasted here), and the dates are wanted as the file wrote them.
///
/// Blocking file reads: call from a worker thread.
public enum PhotoMetadata {
    /// The most bytes read from one file.
    public static let maxBytes = 256 * 1024
    static let chunkSize = 32 * 1024

    /// The date `uri` was taken (µs since the epoch), or nil when it records none or
    /// cannot be read.
    public static func dateTaken(uri: String) -> Int64? {
        readDate(uri: uri)?.dateTaken
    }

    /// The date the file at `path` was taken, or nil.
    public static func dateTaken(path: String) -> Int64? {
        readDate(path: path)?.dateTaken
    }

    /// The date in `fileBytes`, the start of a file (a JPEG's first bytes), or nil.
    public static func dateTaken(fileBytes: [UInt8]) -> Int64? {
        fileBytes.withUnsafeBytes { bytes in
            var parser = ExifParser()
            _ = parser.feed(UnsafeRawBufferPointer(rebasing: bytes.prefix(maxBytes)))
            return parser.finish { $0.flatMap { date(in: $0)?.microseconds } } ?? nil
        }
    }

    /// What reading `uri` found: a date, `.noDate` when the file was read and holds none,
    /// or nil when it could not be read at all (gone, no permission, not a regular file),
    /// which is not worth remembering.
    public static func readDate(uri: String) -> DateTakenCache.Value? {
        var parser = ExifParser()
        guard readStart(uri: uri, { parser.feed($0) }) else { return nil }
        return parser.finish { DateTakenCache.Value($0.flatMap { date(in: $0)?.microseconds }) }
    }

    /// What reading `uri` found, and the camera its EXIF names; see `readDate(uri:)`.
    public static func readDateAndCamera(uri: String) -> (date: DateTakenCache.Value?, camera: String?) {
        var parser = ExifParser()
        guard readStart(uri: uri, { parser.feed($0) }) else { return (nil, nil) }
        let read = parser.finish { data -> (DateTakenCache.Value, String?) in
            guard let data else { return (.noDate, nil) }
            return (DateTakenCache.Value(date(in: data)?.microseconds), camera(in: data))
        }
        return (read?.0, read?.1)
    }

    /// What reading an open file found (the caller closes it); see `readDate(uri:)`.
    public static func readDate(descriptor: Int32) -> DateTakenCache.Value? {
        readDateFindingEnd(descriptor: descriptor).value
    }

    /// As `readDate(descriptor:)`, and whether the file ended while its EXIF went on: the
    /// first bytes of a photo on another machine, of which more are to be read.
    static func readDateFindingEnd(descriptor: Int32) -> (value: DateTakenCache.Value?, cutShort: Bool) {
        let read = readDateAndCamera(descriptor: descriptor)
        return (read.value, read.cutShort)
    }

    /// As `readDateFindingEnd(descriptor:)`, with the camera the EXIF names (its make and
    /// model, as Properties shows them: `PhotoDetails.camera`), read from the same bytes.
    static func readDateAndCamera(descriptor: Int32) -> (value: DateTakenCache.Value?, camera: String?, cutShort: Bool) {
        var parser = ExifParser()
        var wantsMore = true
        guard readStart(descriptor: descriptor, { wantsMore = parser.feed($0); return wantsMore }) else { return (nil, nil, false) }
        let cutShort = wantsMore && parser.sawJPEG
        let sawJPEG = parser.sawJPEG
        let read = parser.finish { data -> (DateTakenCache.Value, String?) in
            guard let data else { return (.noDate, nil) }
            return (DateTakenCache.Value(date(in: data)?.microseconds), camera(in: data))
        }
        if !sawJPEG, let other = readContainerDateAndCamera(descriptor: descriptor) { return (other.0, other.1, false) }
        return (read?.0, read?.1, cutShort)
    }

    /// A HEIF's, a TIFF's or a RAW file's date and camera (`ContainerExif`); nil when the
    /// file is none of those.
    static func readContainerDateAndCamera(descriptor: Int32) -> (DateTakenCache.Value, String?)? {
        if let read = ContainerExif.withExif(descriptor: descriptor, { data in
            (DateTakenCache.Value(date(in: data)?.microseconds), camera(in: data))
        }) {
            return read
        }
        return ContainerExif.rawFacts(descriptor: descriptor).map { (DateTakenCache.Value($0.taken), $0.camera) }
    }

    /// The camera's make and model from IFD0 (else the EXIF directory), as one name.
    static func camera(in data: UnsafeMutablePointer<ExifData>) -> String? {
        let ifd0 = data.pointee.ifd.0, exif = data.pointee.ifd.2
        return PhotoDetails.camera(make: string(ifd0, EXIF_TAG_MAKE) ?? string(exif, EXIF_TAG_MAKE),
                                   model: string(ifd0, EXIF_TAG_MODEL) ?? string(exif, EXIF_TAG_MODEL))
    }

    /// What reading the file at `path` found; see `readDate(uri:)`.
    public static func readDate(path: String) -> DateTakenCache.Value? {
        var parser = ExifParser()
        guard path.withCString({ readStart(filename: $0, { parser.feed($0) }) }) else { return nil }
        return parser.finish { DateTakenCache.Value($0.flatMap { date(in: $0)?.microseconds }) }
    }

    /// Reads the start of `uri` safely, handing `take` one chunk after another until it
    /// returns false, the file ends, or `maxBytes` were read. False when the file could not
    /// be read at all: gone, no permission, not a regular file, or an error before any byte.
    static func readStart(uri: String, _ take: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        if let pathPointer = g_filename_from_uri(uri, nil, nil) {
            defer { g_free(pathPointer) }
            // The path's bytes as they are: a name that is not UTF-8 survives no String.
            return readStart(filename: pathPointer, take)
        }
        return readRemoteStart(uri: uri, take)
    }

    /// Reads the start of a local file; see `readStart(uri:_:)`.
    static func readStart(filename: UnsafePointer<CChar>, _ take: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
        let fd = Glibc.open(filename, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        return readStart(descriptor: fd, take)
    }

    /// Reads the start of an open file (the caller closes it); see `readStart(uri:_:)`.
    static func readStart(descriptor fd: Int32, _ take: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while total < maxBytes {
            let n = Glibc.read(fd, buffer.baseAddress, min(chunkSize, maxBytes - total))
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return total != 0
            }
            if n == 0 { break }
            total += n
            if !take(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { break }
        }
        return true
    }

    /// A location without a local path (gvfs): GIO's stream, read the same way.
    private static func readRemoteStart(uri: String, _ take: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        guard let stream = g_file_read(file, nil, nil) else { return false }
        defer {
            g_input_stream_close(UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self), nil, nil)
            unref(stream)
        }
        let input = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while total < maxBytes {
            let n = Int(g_input_stream_read(input, buffer.baseAddress, gsize(min(chunkSize, maxBytes - total)), nil, nil))
            if n < 0 { return total != 0 }
            if n == 0 { break }
            total += n
            if !take(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { break }
        }
        return true
    }

    /// Feeds a file's first bytes to an `ExifLoader`, then hands what it kept, parsed, to
    /// a reader. One file, one thread.
    struct ExifParser: ~Copyable {
        private let loader: OpaquePointer?
        private var isJPEG: Bool?
        private var header: [UInt8] = []

        init() { loader = exif_loader_new() }

        deinit { exif_loader_unref(loader) }

        /// Hands over the next bytes; false once no more are wanted.
        /// Whether the bytes fed so far start like a JPEG.
        var sawJPEG: Bool { isJPEG == true }

        mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard let loader, !bytes.isEmpty else { return loader != nil }
            if isJPEG == nil {
                // JPEG only: SOI then a marker. libexif's loader would also take a FUJIFILM
                // raw header, whose 32-bit length makes it allocate up to 4 GiB.
                header.append(contentsOf: bytes.prefix(3 - header.count))
                guard header.count == 3 else { return true }
                isJPEG = header == [0xFF, 0xD8, 0xFF]
            }
            guard isJPEG == true else { return false }
            let base = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            return exif_loader_write(loader, base, UInt32(bytes.count)) != 0
        }

        /// What `read` makes of the EXIF data found (nil to it when the bytes hold none), or
        /// nil when libexif could not start.
        consuming func finish<T>(_ read: (UnsafeMutablePointer<ExifData>?) -> T) -> T? {
            guard let loader else { return nil }
            var buffer: UnsafePointer<UInt8>?
            var size: UInt32 = 0
            exif_loader_get_buf(loader, &buffer, &size)
            guard isJPEG == true, let buffer, size > 0 else { return read(nil) }
            return PhotoMetadata.withExifData(block: UnsafeRawBufferPointer(start: buffer, count: Int(size))) { read($0) }
        }
    }

    /// What `read` makes of libexif's reading of `block` (an APP1's EXIF: "Exif\0\0", then
    /// a TIFF structure), taken as the file wrote it: no fix-ups (mandatory entries added,
    /// formats converted). nil when libexif could not start.
    static func withExifData<T>(block: UnsafeRawBufferPointer, _ read: (UnsafeMutablePointer<ExifData>) -> T) -> T? {
        guard let base = block.baseAddress?.assumingMemoryBound(to: UInt8.self), let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_load_data(data, base, UInt32(block.count))
        return read(data)
    }

    /// The first usable date of `DateTimeOriginal`, `DateTimeDigitized`, `DateTime`, and
    /// the offset from UTC (seconds east) that applied to it, when one was recorded.
    static func date(in data: UnsafeMutablePointer<ExifData>) -> (microseconds: Int64, offset: Int?)? {
        let ifd0 = data.pointee.ifd.0, exif = data.pointee.ifd.2
        let candidates = [
            (EXIF_TAG_DATE_TIME_ORIGINAL, EXIF_TAG_OFFSET_TIME_ORIGINAL, EXIF_TAG_SUB_SEC_TIME_ORIGINAL, exif),
            (EXIF_TAG_DATE_TIME_DIGITIZED, EXIF_TAG_OFFSET_TIME_DIGITIZED, EXIF_TAG_SUB_SEC_TIME_DIGITIZED, exif),
            (EXIF_TAG_DATE_TIME, EXIF_TAG_OFFSET_TIME, EXIF_TAG_SUB_SEC_TIME, ifd0),
        ]
        for (dateTag, offsetTag, subsecondTag, content) in candidates {
            guard let text = string(content, dateTag) else { continue }
            let offset = string(exif, offsetTag)
            if let date = ExifDate.microseconds(dateTime: text, offset: offset, subseconds: string(exif, subsecondTag)) {
                return (date, offset.flatMap(ExifDate.utcOffsetSeconds))
            }
        }
        return nil
    }

    /// An entry's bytes as text, up to its first NUL; nil when absent or not short text.
    private static func string(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: ExifTag) -> String? {
        guard let content,
              let entry = exif_content_get_entry(content, tag),
              let bytes = entry.pointee.data else { return nil }
        let size = Int(entry.pointee.size)
        guard size > 0, size <= 64 else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: size)
        let end = buffer.firstIndex(of: 0) ?? size
        return String(decoding: buffer[0..<end], as: UTF8.self)
    }
}
