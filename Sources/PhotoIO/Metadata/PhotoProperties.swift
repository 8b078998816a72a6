import CExif
import CGdkPixbuf
import PhotoCore

/// Reads what the viewer's Properties panel shows about one file (see `PhotoDetails`).
///
/// - The name, folder, size and content type come from GIO (`g_file_query_info`). The
///   content type is sniffed from the file's first bytes where its name is not enough;
///   GIO sniffs regular files only (a FIFO is `inode/fifo`, never opened).
/// - The camera's settings, the date taken and the place come from the EXIF data, read as
///   `PhotoMetadata` reads dates: opened without blocking, regular files only, at most
///   `PhotoMetadata.maxBytes` from the start, JPEG only, libexif without fix-ups. Values
///   that are absent, of the wrong type or out of range are left out, never guessed.
/// - The dimensions come from the JPEG's frame header (SOF) in those same bytes, else from
///   EXIF's PixelXDimension and PixelYDimension, turned by the EXIF orientation; for other
///   formats they stay nil and the viewer fills them from the decoded image. No decoder
///   runs here (`gdk_pixbuf_get_file_info` opens by path, and a FIFO would block it).
///
/// Blocking file reads: call from a worker thread.
public enum PhotoProperties {
    /// What is known of the file at `uri`. A file that cannot be read still has its name
    /// and folder; the rest is nil.
    public static func read(uri: String) -> PhotoDetails {
        var details = fileDetails(uri: uri)
        readContent(into: &details) { PhotoMetadata.readStart(uri: uri, $0) }
        return details
    }

    /// What the file says of itself, with the content read by `content` (a decoder process,
    /// `IsolatedDecoder.properties`): the file's facts from GIO, its content's from there.
    public static func read(uri: String, content: (String) -> PhotoDetails?) -> PhotoDetails {
        var details = fileDetails(uri: uri)
        if let found = content(uri) { details.takeContent(of: found) }
        return details
    }

    /// What the content of an open file (the caller closes it) says: EXIF and the frame
    /// header; `uri` and `name` are left empty.
    public static func readContent(descriptor: Int32) -> PhotoDetails {
        var details = PhotoDetails(uri: "", name: "")
        let sawJPEG = readContent(into: &details) { PhotoMetadata.readStart(descriptor: descriptor, $0) }
        if !sawJPEG {
            // A HEIF's, a TIFF's or a RAW file's (`ContainerExif`).
            if let orientation = ContainerExif.withExif(descriptor: descriptor, { fill(&details, from: $0) }) {
                turnDimensions(&details, by: orientation)
            } else if let facts = ContainerExif.rawFacts(descriptor: descriptor) {
                details.camera = facts.camera
                details.dateTaken = facts.taken
            }
        }
        return details
    }

    // MARK: - GIO

    private static func fileDetails(uri: String) -> PhotoDetails {
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        var details = PhotoDetails(uri: uri, name: fallbackName(file))
        if let parent = g_file_get_parent(file) {
            defer { unref(parent) }
            details.folder = takeString(g_file_get_parse_name(parent))
        }
        var error: UnsafeMutablePointer<GError>?
        guard let info = g_file_query_info(file, "standard::display-name,standard::size,standard::content-type",
                                           G_FILE_QUERY_INFO_NONE, nil, &error) else {
            if let error { g_error_free(error) }
            return details
        }
        defer { unref(info) }
        if let name = g_file_info_get_display_name(info) { details.name = String(cString: name) }
        if g_file_info_has_attribute(info, "standard::size") != 0 { details.size = Int64(g_file_info_get_size(info)) }
        if g_file_info_has_attribute(info, "standard::content-type") != 0, let type = g_file_info_get_content_type(info) {
            details.contentType = takeString(g_content_type_get_mime_type(type)) ?? String(cString: type)
            details.typeDescription = takeString(g_content_type_get_description(type))
        }
        return details
    }

    /// The name when GIO cannot say: the last part of the path shown as UTF-8.
    private static func fallbackName(_ file: OpaquePointer?) -> String {
        if let path = g_file_get_path(file) {
            defer { g_free(path) }
            if let name = takeString(g_filename_display_basename(path)) { return name }
        }
        return takeString(g_file_get_basename(file)) ?? "?"
    }

    /// A string GLib allocated, freed after it is copied.
    private static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }

    // MARK: - EXIF and the frame header

    /// Returns whether the file starts as a JPEG does.
    @discardableResult
    private static func readContent(into details: inout PhotoDetails,
                                    reading readStart: ((UnsafeRawBufferPointer) -> Bool) -> Bool) -> Bool {
        var parser = PhotoMetadata.ExifParser()
        var frame = JPEGFrameScanner()
        var exifWanted = true
        let readable = readStart { chunk in
            if exifWanted { exifWanted = parser.feed(chunk) }
            let frameWanted = frame.feed(chunk)
            return exifWanted || frameWanted
        }
        guard readable else { return false }
        let sawJPEG = parser.sawJPEG
        let orientation = parser.finish { data -> Int? in
            guard let data else { return nil }
            return fill(&details, from: data)
        } ?? nil
        // The frame header tells the truth where EXIF's dimensions are stale (an edited photo).
        if let size = frame.size { details.dimensions = size }
        turnDimensions(&details, by: orientation)
        return sawJPEG
    }

    /// The dimensions as the photo is shown, turned by its EXIF orientation.
    private static func turnDimensions(_ details: inout PhotoDetails, by orientation: Int?) {
        if let size = details.dimensions, let orientation, (5...8).contains(orientation) {
            details.dimensions = PixelSize(width: size.height, height: size.width)
        }
    }

    /// What the EXIF says, into `details`; returns its orientation.
    private static func fill(_ details: inout PhotoDetails, from data: UnsafeMutablePointer<ExifData>) -> Int? {
        let exif = ExifTags(data)
        if let date = PhotoMetadata.date(in: data) {
            details.dateTaken = date.microseconds
            details.dateTakenOffset = date.offset
        }
        details.camera = PhotoDetails.camera(make: exif.text(EXIF_TAG_MAKE, in: [.ifd0, .exif]),
                                             model: exif.text(EXIF_TAG_MODEL, in: [.ifd0, .exif]))
        details.lens = exif.text(EXIF_TAG_LENS_MODEL, in: [.exif, .ifd0])
        details.exposureTime = exif.number(EXIF_TAG_EXPOSURE_TIME, in: [.exif, .ifd0]).flatMap(positive)
        details.fNumber = exif.number(EXIF_TAG_FNUMBER, in: [.exif, .ifd0]).flatMap(positive)
        details.iso = iso(exif)
        details.focalLength = exif.number(EXIF_TAG_FOCAL_LENGTH, in: [.exif, .ifd0]).flatMap(positive)
        details.focalLength35mm = exif.integer(EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM, in: [.exif, .ifd0]).flatMap(positiveInt)
        if let (latitude, longitude) = location(exif) {
            details.latitude = latitude
            details.longitude = longitude
        }
        if let width = exif.integer(EXIF_TAG_PIXEL_X_DIMENSION, in: [.exif]).flatMap(positiveInt),
           let height = exif.integer(EXIF_TAG_PIXEL_Y_DIMENSION, in: [.exif]).flatMap(positiveInt) {
            details.dimensions = PixelSize(width: width, height: height)
        }
        return exif.integer(EXIF_TAG_ORIENTATION, in: [.ifd0])
    }

    private static func positive(_ value: Double) -> Double? { value.isFinite && value > 0 ? value : nil }
    private static func positiveInt(_ value: Int) -> Int? { value > 0 ? value : nil }

    /// ISOSpeedRatings (PhotographicSensitivity since EXIF 2.3); at 65535, which means
    /// "this much or more", the ISOSpeed tag when there is one.
    private static func iso(_ exif: ExifTags) -> Int? {
        let rating = exif.integer(EXIF_TAG_ISO_SPEED_RATINGS, in: [.exif, .ifd0]).flatMap(positiveInt)
        if rating == nil || rating! >= 65535, let speed = exif.integer(EXIF_TAG_ISO_SPEED, in: [.exif]).flatMap(positiveInt) {
            return speed
        }
        return rating
    }

    /// GPSLatitude and GPSLongitude (degrees, minutes, seconds) signed by their references;
    /// nil unless both are complete and on the globe. Exactly 0° 0′ 0″ for both is what
    /// phones write when they have no fix (or the place was scrubbed): no location either.
    private static func location(_ exif: ExifTags) -> (Double, Double)? {
        // GPS tags share their numbers with others: only the GPS directory is searched.
        func coordinate(_ tag: UInt32, _ refTag: UInt32, positive: Character, negative: Character, limit: Double) -> Double? {
            guard let ref = exif.text(ExifTag(rawValue: refTag), in: [.gps])?.uppercased().first,
                  ref == positive || ref == negative,
                  let degrees = exif.number(ExifTag(rawValue: tag), in: [.gps], index: 0) else { return nil }
            let minutes = exif.number(ExifTag(rawValue: tag), in: [.gps], index: 1) ?? 0
            let seconds = exif.number(ExifTag(rawValue: tag), in: [.gps], index: 2) ?? 0
            guard degrees >= 0, minutes >= 0, seconds >= 0 else { return nil }
            let value = degrees + minutes / 60 + seconds / 3600
            guard value.isFinite, value <= limit else { return nil }
            return ref == negative ? -value : value
        }
        guard let latitude = coordinate(0x0002, 0x0001, positive: "N", negative: "S", limit: 90),
              let longitude = coordinate(0x0004, 0x0003, positive: "E", negative: "W", limit: 180),
              latitude != 0 || longitude != 0 else { return nil }
        return (latitude, longitude)
    }
}

/// Typed reads of libexif's entries, checked against what each entry really holds.
private struct ExifTags {
    enum Directory: Int { case ifd0 = 0, exif = 2, gps = 3 }

    let data: UnsafeMutablePointer<ExifData>
    let order: ExifByteOrder

    init(_ data: UnsafeMutablePointer<ExifData>) {
        self.data = data
        order = exif_data_get_byte_order(data)
    }

    private func content(_ directory: Directory) -> UnsafeMutablePointer<ExifContent>? {
        switch directory {
        case .ifd0: return data.pointee.ifd.0
        case .exif: return data.pointee.ifd.2
        case .gps: return data.pointee.ifd.3
        }
    }

    /// The first entry for `tag` in `directories`, in that order, whose data is all there.
    private func entry(_ tag: ExifTag, in directories: [Directory]) -> ExifEntry? {
        for directory in directories {
            guard let content = content(directory), let entry = exif_content_get_entry(content, tag) else { continue }
            let value = entry.pointee
            let unit = Int(exif_format_get_size(value.format))
            guard value.data != nil, value.components > 0, value.components <= UInt(Int32.max),
                  unit == 0 || Int(value.size) >= unit * Int(value.components) else { continue }
            return value
        }
        return nil
    }

    /// ASCII (or undefined-type) text up to its first NUL, without control characters and
    /// surrounding spaces; nil when empty or longer than a name would be.
    func text(_ tag: ExifTag, in directories: [Directory]) -> String? {
        guard let entry = entry(tag, in: directories), let bytes = entry.data,
              entry.format == EXIF_FORMAT_ASCII || entry.format == EXIF_FORMAT_UNDEFINED,
              entry.size > 0, entry.size <= 256 else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(entry.size))
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        let text = String(decoding: buffer[0..<end], as: UTF8.self)
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.filter { !($0.properties.generalCategory == .control) }))
        let trimmed = printable.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Component `index` of a numeric entry as a number; nil for a zero denominator.
    func number(_ tag: ExifTag, in directories: [Directory], index: Int = 0) -> Double? {
        guard let entry = entry(tag, in: directories), let bytes = entry.data, UInt(index) < entry.components else { return nil }
        let unit = Int(exif_format_get_size(entry.format))
        guard unit > 0 else { return nil }
        let p = UnsafePointer(bytes + index * unit)
        switch entry.format {
        case EXIF_FORMAT_BYTE: return Double(p.pointee)
        case EXIF_FORMAT_SHORT: return Double(exif_get_short(p, order))
        case EXIF_FORMAT_SSHORT: return Double(exif_get_sshort(p, order))
        case EXIF_FORMAT_LONG: return Double(exif_get_long(p, order))
        case EXIF_FORMAT_SLONG: return Double(exif_get_slong(p, order))
        case EXIF_FORMAT_RATIONAL:
            let r = exif_get_rational(p, order)
            return r.denominator == 0 ? nil : Double(r.numerator) / Double(r.denominator)
        case EXIF_FORMAT_SRATIONAL:
            let r = exif_get_srational(p, order)
            return r.denominator == 0 ? nil : Double(r.numerator) / Double(r.denominator)
        default: return nil
        }
    }

    /// Component `index` as a whole number, when it is one.
    func integer(_ tag: ExifTag, in directories: [Directory], index: Int = 0) -> Int? {
        guard let value = number(tag, in: directories, index: index), value.isFinite,
              value == value.rounded(), abs(value) < 1e15 else { return nil }
        return Int(value)
    }
}

/// Finds a JPEG's frame header (SOFn) in its first bytes, fed in chunks: the image's
/// stored size. Walks the segments from SOI by their lengths, and gives up at the start
/// of the scan (SOS), at anything that is not a marker, or at a frame of no size.
struct JPEGFrameScanner {
    private enum State {
        case start(Int)
        case marker
        case code
        case length(code: UInt8, high: UInt8?)
        case frame(bytes: [UInt8])
        case done
    }

    private var state = State.start(0)
    private var skip = 0
    /// The stored size, once found.
    private(set) var size: PixelSize?

    /// Takes the next bytes; false once no more are wanted.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < bytes.count {
            if skip > 0 {
                let n = min(skip, bytes.count - i)
                skip -= n
                i += n
                continue
            }
            step(bytes[i])
            i += 1
            if case .done = state { return false }
        }
        if case .done = state { return false }
        return true
    }

    private static func isFrame(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    private mutating func step(_ byte: UInt8) {
        switch state {
        case .start(let seen):
            if byte != (seen == 0 ? 0xFF : 0xD8) { state = .done } else { state = seen == 0 ? .start(1) : .marker }
        case .marker:
            state = byte == 0xFF ? .code : .done
        case .code:
            switch byte {
            case 0xFF: break  // fill bytes before a marker
            case 0x01, 0xD0...0xD7: state = .marker  // no length
            case 0x00, 0xD8, 0xD9, 0xDA: state = .done  // not a marker here, EOI, start of scan
            default: state = .length(code: byte, high: nil)
            }
        case .length(let code, let high):
            guard let high else {
                state = .length(code: code, high: byte)
                return
            }
            let length = Int(high) << 8 | Int(byte)
            if length < 2 {
                state = .done
            } else if Self.isFrame(code) {
                state = length >= 8 ? .frame(bytes: []) : .done
            } else {
                skip = length - 2
                state = .marker
            }
        case .frame(var bytes):
            bytes.append(byte)
            guard bytes.count == 5 else {
                state = .frame(bytes: bytes)
                return
            }
            // Precision, then height and width, big-endian. A height of 0 is given later
            // (DNL): unknown here.
            let height = Int(bytes[1]) << 8 | Int(bytes[2]), width = Int(bytes[3]) << 8 | Int(bytes[4])
            if width > 0, height > 0 { size = PixelSize(width: width, height: height) }
            state = .done
        case .done:
            break
        }
    }
}
