import CGdkPixbuf
import Dispatch
import Foundation
import PhotoCore

/// Generous: only a hang should ever reach it.
let deadline = DispatchTimeInterval.seconds(30)

/// A fresh folder under the system's temporary folder, removed with this object.
final class TempFolder {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("gphotobrowse-tests-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var uri: String { fileURI(path) }

    func path(_ name: String) -> String { path + "/" + name }

    func uri(_ name: String) -> String { fileURI(path(name)) }

    /// Saves a `width`×`height` image filled with `rgba` (0xRRGGBBAA) as `type` ("png", "jpeg").
    @discardableResult
    func image(_ name: String, width: Int, height: Int, rgba: UInt32 = 0x3366_CCFF, type: String = "png") -> String {
        let pixbuf = makePixbuf(width: width, height: height, rgba: rgba)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        return save(pixbuf, as: name, type: type)
    }

    /// Saves `pixbuf` as `type` and returns the file's path.
    @discardableResult
    func save(_ pixbuf: OpaquePointer, as name: String, type: String) -> String {
        var error: UnsafeMutablePointer<GError>?
        let ok = gdk_pixbuf_savev(pixbuf, path(name), type, nil, nil, &error)
        precondition(ok != 0, "saving \(name): \(error.map { String(cString: $0.pointee.message) } ?? "?")")
        return path(name)
    }

    @discardableResult
    func file(_ name: String, bytes: [UInt8]) -> String {
        precondition(FileManager.default.createFile(atPath: path(name), contents: Data(bytes)), "creating \(name)")
        return path(name)
    }

    func file(_ name: String, text: String) { file(name, bytes: Array(text.utf8)) }

    func fifo(_ name: String) { precondition(mkfifo(path(name), 0o644) == 0) }

    func folder(_ name: String) { try! FileManager.default.createDirectory(atPath: path(name), withIntermediateDirectories: false) }

    func symlink(_ name: String, to target: String) {
        try! FileManager.default.createSymbolicLink(atPath: path(name), withDestinationPath: target)
    }

    func bytes(_ name: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path(name))!) }
}

/// GLib's URI for a path of any bytes (non-UTF-8 bytes are percent-escaped).
func fileURI(_ path: UnsafePointer<CChar>) -> String {
    let uri = g_filename_to_uri(path, nil, nil)!
    defer { g_free(uri) }
    return String(cString: uri)
}

func fileURI(_ path: String) -> String { path.withCString { fileURI($0) } }

/// An RGB pixbuf filled with `rgba` (0xRRGGBBAA); the caller unrefs it.
func makePixbuf(width: Int, height: Int, rgba: UInt32) -> OpaquePointer {
    let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
    gdk_pixbuf_fill(pixbuf, rgba)
    return pixbuf
}

/// Fills a rectangle of `pixbuf` with `rgba`.
func fill(_ pixbuf: OpaquePointer, x: Int, y: Int, width: Int, height: Int, rgba: UInt32) {
    let area = gdk_pixbuf_new_subpixbuf(pixbuf, Int32(x), Int32(y), Int32(width), Int32(height))!
    gdk_pixbuf_fill(area, rgba)
    g_object_unref(UnsafeMutableRawPointer(area))
}

extension DecodedImage {
    /// The pixel at (x, y) as (r, g, b).
    func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let channels = hasAlpha ? 4 : 3
        let p = pixels.bytes.advanced(by: y * stride + x * channels).assumingMemoryBound(to: UInt8.self)
        return (Int(p[0]), Int(p[1]), Int(p[2]))
    }

    /// Whether the pixel at (x, y) is within `tolerance` of `rgba`'s colour.
    func pixel(_ x: Int, _ y: Int, isNear rgba: UInt32, tolerance: Int = 2) -> Bool {
        let (r, g, b) = rgb(x, y)
        let want = (Int(rgba >> 24), Int((rgba >> 16) & 0xFF), Int((rgba >> 8) & 0xFF))
        return abs(r - want.0) <= tolerance && abs(g - want.1) <= tolerance && abs(b - want.2) <= tolerance
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

/// Runs `body` on its own thread and waits for it with a generous deadline; nil means it hung.
func runOnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
    let box = ThreadResult<T>()
    let done = DispatchSemaphore(value: 0)
    Thread {
        box.value = body()
        done.signal()
    }.start()
    guard done.wait(timeout: .now() + deadline) == .success else { return nil }
    return box.value
}

/// A small deterministic generator (SplitMix64), so randomized tests (damaged bytes) replay
/// exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Written by one thread before it signals, read by another after the wait.
private final class ThreadResult<T>: @unchecked Sendable { var value: T? }

// MARK: - Hand-made byte streams

/// PNG's CRC-32 (the zlib polynomial).
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~crc
}

func bigEndian32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}

/// A PNG chunk with its length and CRC.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian32(UInt32(data.count)) + body + bigEndian32(crc32(body))
}

/// A well-formed PNG header for an 8-bit RGB image of the given size, with the start of
/// an image data chunk, and no pixels worth the name.
func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let ihdr = bigEndian32(width) + bigEndian32(height) + [8, 2, 0, 0, 0]
    // A zlib stream header and a few deflate bytes: enough for the decoder to reach the data.
    let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00]
    return signature + pngChunk("IHDR", ihdr) + pngChunk("IDAT", idat)
}

/// `jpeg` with an EXIF APP1 segment carrying `orientation`, inserted right after SOI.
func jpeg(_ bytes: [UInt8], withOrientation orientation: UInt16) -> [UInt8] {
    jpeg(bytes, withExif: [.orientation(orientation)])
}

/// `jpeg` with an EXIF APP1 segment carrying `fields`, inserted right after SOI.
func jpeg(_ jpeg: [UInt8], withExif fields: [ExifField], littleEndian: Bool = false) -> [UInt8] {
    precondition(jpeg.starts(with: [0xFF, 0xD8]))
    return Array(jpeg[0..<2]) + exifSegment(fields, littleEndian: littleEndian) + Array(jpeg[2...])
}

/// A JPEG APP1 segment (marker, length, "Exif\0\0", TIFF structure) carrying `fields`.
func exifSegment(_ fields: [ExifField], littleEndian: Bool = false) -> [UInt8] {
    let payload = Array("Exif".utf8) + [0, 0] + exifTIFF(fields, littleEndian: littleEndian)
    precondition(payload.count + 2 <= 0xFFFF, "an APP1 segment holds at most 64 KiB")
    let length = UInt16(payload.count + 2)
    return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
}

/// One field of a hand-made EXIF structure, in IFD0, the EXIF sub-IFD or the GPS sub-IFD.
struct ExifField {
    enum Directory { case ifd0, exif, gps }
    enum Value {
        case short(UInt16)
        case long(UInt32)
        /// Numerators and denominators.
        case rational([(UInt32, UInt32)])
        /// ASCII: the bytes as given, NUL added.
        case ascii([UInt8])
    }

    let tag: UInt16
    let value: Value
    let directory: Directory

    static func orientation(_ value: UInt16) -> ExifField { ExifField(tag: 0x0112, value: .short(value), directory: .ifd0) }
    static func dateTime(_ text: String) -> ExifField { .ascii(0x0132, text, in: .ifd0) }
    static func dateTimeOriginal(_ text: String) -> ExifField { .ascii(0x9003, text, in: .exif) }
    static func dateTimeDigitized(_ text: String) -> ExifField { .ascii(0x9004, text, in: .exif) }
    static func offsetTimeOriginal(_ text: String) -> ExifField { .ascii(0x9011, text, in: .exif) }
    static func subSecTimeOriginal(_ text: String) -> ExifField { .ascii(0x9291, text, in: .exif) }

    static func ascii(_ tag: UInt16, _ text: String, in directory: Directory) -> ExifField {
        ExifField(tag: tag, value: .ascii(Array(text.utf8)), directory: directory)
    }
}

/// The TIFF structure of an EXIF block: a header, IFD0 with `fields` in it, then the EXIF
/// and GPS sub-IFDs (pointed at from IFD0) when any field belongs there. Entries are sorted
/// by tag, values longer than four bytes follow their IFD.
func exifTIFF(_ fields: [ExifField], littleEndian: Bool = false) -> [UInt8] {
    func u16(_ v: UInt16) -> [UInt8] {
        littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
    }
    func u32(_ v: UInt32) -> [UInt8] {
        let big = bigEndian32(v)
        return littleEndian ? big.reversed() : big
    }
    /// An IFD starting at `offset` (from the TIFF header), with its values after it.
    func ifd(_ entries: [(tag: UInt16, value: ExifField.Value)], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var table = u16(UInt16(sorted.count))
        var data: [UInt8] = []
        let dataStart = offset + 2 + sorted.count * 12 + 4
        for (tag, value) in sorted {
            let type: UInt16, count: UInt32, bytes: [UInt8]
            switch value {
            case .short(let v): (type, count, bytes) = (3, 1, u16(v))
            case .long(let v): (type, count, bytes) = (4, 1, u32(v))
            case .rational(let parts): (type, count, bytes) = (5, UInt32(parts.count), parts.flatMap { u32($0.0) + u32($0.1) })
            case .ascii(let text): (type, count, bytes) = (2, UInt32(text.count + 1), text + [0])
            }
            table += u16(tag) + u16(type) + u32(count)
            if bytes.count <= 4 {
                table += bytes + Array(repeating: 0, count: 4 - bytes.count)
            } else {
                table += u32(UInt32(dataStart + data.count))
                data += bytes
                if data.count % 2 == 1 { data.append(0) }  // values start on word boundaries
            }
        }
        return table + [0, 0, 0, 0] + data  // no next IFD
    }

    func entries(_ directory: ExifField.Directory) -> [(tag: UInt16, value: ExifField.Value)] {
        fields.filter { $0.directory == directory }.map { (tag: $0.tag, value: $0.value) }
    }
    let header = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
    var ifd0 = entries(.ifd0)
    let exif = entries(.exif), gps = entries(.gps)
    // The pointers, measured with placeholders first: their values do not change the sizes.
    let exifPointer: UInt16 = 0x8769, gpsPointer: UInt16 = 0x8825
    if !exif.isEmpty { ifd0.append((tag: exifPointer, value: .long(0))) }
    if !gps.isEmpty { ifd0.append((tag: gpsPointer, value: .long(0))) }
    let ifd0Size = ifd(ifd0, at: 8).count
    let exifSize = exif.isEmpty ? 0 : ifd(exif, at: 8 + ifd0Size).count
    ifd0 = ifd0.map { entry in
        switch entry.tag {
        case exifPointer: return (tag: entry.tag, value: .long(UInt32(8 + ifd0Size)))
        case gpsPointer: return (tag: entry.tag, value: .long(UInt32(8 + ifd0Size + exifSize)))
        default: return entry
        }
    }
    var tiff = header + ifd(ifd0, at: 8)
    if !exif.isEmpty { tiff += ifd(exif, at: 8 + ifd0Size) }
    if !gps.isEmpty { tiff += ifd(gps, at: 8 + ifd0Size + exifSize) }
    return tiff
}

/// A 1000×700 picture of 50-pixel squares, each its own colour (owned: unref it); with
/// `detail`, a white pixel in each square too, which a reduction averages in.
func squaresPixbuf(detail: Bool = false) -> OpaquePointer {
    let pixbuf = makePixbuf(width: 1000, height: 700, rgba: 0x0000_00FF)
    for row in 0..<14 {
        for column in 0..<20 {
            let r = UInt32(column * 12 + 10), g = UInt32(row * 17 + 10), b = UInt32((column * 7 + row * 29) % 200 + 40)
            fill(pixbuf, x: column * 50, y: row * 50, width: 50, height: 50, rgba: r << 24 | g << 16 | b << 8 | 0xFF)
            if detail { fill(pixbuf, x: column * 50 + 3, y: row * 50 + 5, width: 1, height: 1, rgba: 0xFFFF_FFFF) }
        }
    }
    return pixbuf
}
