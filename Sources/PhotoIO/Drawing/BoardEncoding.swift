import Bridge
import CGdkPixbuf
import PhotoCore

extension BoardSaving {
    /// Encodes `image` as `format` with gdk-pixbuf's saver, putting `exif` (an EXIF block a
    /// decoder process rewrote for the saved copy: `IsolatedDecoder.savedExif`) into the
    /// stream as it is, and hands the bytes to `write` as they come (false from it stops the
    /// encoding).
    static func encode(_ image: PremultipliedImage, format: SaveFormat, exif: [UInt8]?,
                       write: @escaping ([UInt8]) -> Bool) -> Result<Void, FileOperationFailure> {
        let rewritten = exif.flatMap { $0.starts(with: JPEGExif.header) && $0.count <= SavedExif.maximumBytes ? $0 : nil }
        let insertion: ExifInsertion? = switch format {
        case .jpeg: rewritten.map { .jpeg(segment: app1Segment($0)) }
        case .png: rewritten.map { .png(chunk: pngChunk("eXIf", Array($0.dropFirst(JPEGExif.header.count)))) }
        case .webp: nil
        }
        let pixbuf = rgbPixbuf(image)
        defer { unref(pixbuf) }
        let sink = EncodedBytes(insertion: insertion, write: write)
        let data = CallbackBox.retain(sink)
        defer { CallbackBox.release(data) }
        let save: GdkPixbufSaveFunc = { buffer, count, _, data in
            guard let buffer, let data else { return 0 }
            let sink = CallbackBox.value(data, as: EncodedBytes.self)
            return sink.take(UnsafeRawBufferPointer(start: buffer, count: Int(count))) ? 1 : 0
        }
        var keys = format.options.map { strdup($0.key) }
        var values = format.options.map { strdup($0.value) }
        defer { (keys + values).forEach { free($0) } }
        keys.append(nil)
        values.append(nil)
        var error: UnsafeMutablePointer<GError>?
        let saved = gdk_pixbuf_save_to_callbackv(pixbuf, save, data, format.pixbufType, &keys, &values, &error) != 0
        if saved, sink.finish() { return .success(()) }
        let reason = error.map { String(cString: $0.pointee.message) } ?? tr("the file could not be written")
        if let error { g_error_free(error) }
        return .failure(FileOperationFailure(.other, tr("The image could not be saved as %1$s: %2$s", format.fileExtension.uppercased(), reason)))
    }

    /// An RGB pixbuf of `image`'s pixels (the board is opaque; any alpha is undone).
    private static func rgbPixbuf(_ image: PremultipliedImage) -> OpaquePointer {
        let width = image.size.width, height = image.size.height
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let out = gdk_pixbuf_get_pixels(pixbuf)!
        let source = image.pixels.bytes.assumingMemoryBound(to: UInt32.self)
        let words = image.stride / 4
        for y in 0..<height {
            let row = source + y * words, line = out + y * stride
            for x in 0..<width {
                let pixel = row[x]
                let a = pixel >> 24
                var r = (pixel >> 16) & 0xFF, g = (pixel >> 8) & 0xFF, b = pixel & 0xFF
                if a != 255 && a != 0 { r = min(255, (r * 255 + a / 2) / a); g = min(255, (g * 255 + a / 2) / a); b = min(255, (b * 255 + a / 2) / a) }
                line[3 * x] = UInt8(r); line[3 * x + 1] = UInt8(g); line[3 * x + 2] = UInt8(b)
            }
        }
        return pixbuf
    }

    /// A JPEG APP1 segment around an EXIF block.
    private static func app1Segment(_ block: [UInt8]) -> [UInt8] {
        let length = block.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + block
    }

    /// A PNG chunk: length, type, data and CRC.
    private static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// PNG's CRC-32 (the zlib polynomial), by bits: chunks here are a few KiB.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }
}

/// Where the EXIF goes in an encoder's output.
enum ExifInsertion {
    /// After SOI, and after the JFIF APP0 segment when the encoder writes one first.
    case jpeg(segment: [UInt8])
    /// After the signature and the IHDR chunk, before the image data.
    case png(chunk: [UInt8])
}

/// The bytes an encoder hands out, passed on with the EXIF put in: the first bytes are held
/// until where it goes is known.
final class EncodedBytes {
    private var insertion: ExifInsertion?
    private var held: [UInt8] = []
    private let write: ([UInt8]) -> Bool

    init(insertion: ExifInsertion?, write: @escaping ([UInt8]) -> Bool) {
        self.insertion = insertion
        self.write = write
    }

    /// The encoder's next bytes; false once writing failed.
    func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard insertion != nil else { return write(Array(bytes)) }
        held.append(contentsOf: bytes)
        guard let (offset, extra) = insertionPoint() else { return true }
        insertion = nil
        let out = Array(held[..<offset]) + extra + Array(held[offset...])
        held = []
        return write(out)
    }

    /// The encoding ended: writes what is still held (a stream too short to hold the EXIF
    /// goes out without it). False when writing failed.
    func finish() -> Bool {
        guard !held.isEmpty else { return true }
        defer { held = [] }
        return write(held)
    }

    /// Where the EXIF goes in what is held, once that is known.
    private func insertionPoint() -> (Int, [UInt8])? {
        switch insertion {
        case .jpeg(let segment):
            guard held.count >= 4 else { return nil }
            guard held[2] == 0xFF, held[3] == 0xE0 else { return (2, segment) }
            guard held.count >= 6 else { return nil }
            let end = 4 + (Int(held[4]) << 8 | Int(held[5]))
            return held.count >= end ? (end, segment) : nil
        case .png(let chunk):
            // Signature (8), then IHDR: length (4), type (4), 13 bytes, CRC (4).
            guard held.count >= 33 else { return nil }
            return held[12..<16].elementsEqual("IHDR".utf8) ? (33, chunk) : (held.count, [])
        case nil:
            return nil
        }
    }
}
