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
func jpeg(_ jpeg: [UInt8], withOrientation orientation: UInt16) -> [UInt8] {
    precondition(jpeg.starts(with: [0xFF, 0xD8]))
    let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]  // "MM", 42, IFD at 8
        + [0x00, 0x01]                                                     // one entry
        + [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]                 // Orientation, SHORT, 1
        + [UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0x00, 0x00]
        + [0x00, 0x00, 0x00, 0x00]                                         // no next IFD
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = UInt16(payload.count + 2)
    let app1 = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
}
