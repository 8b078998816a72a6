import Foundation
import FoundationXML
import Glibc
import PhotoCore

/// Finds the movie of a motion photo: a phone's still (JPEG or HEIC) with a few seconds of
/// MP4 in the same file, as Google's and Samsung's cameras write them.
///
/// - Google's Motion Photo format: the JPEG's XMP says `GCamera:MotionPhoto="1"` and lists
///   the files appended after the image in a `Container:Directory`, the movie the item of
///   semantic `MotionPhoto`, with its length; older files say `GCamera:MicroVideo="1"` and
///   `GCamera:MicroVideoOffset`, the movie's length counted from the end of the file.
/// - Samsung's: the movie follows a `MotionPhoto_Data` record, listed in the `SEFH`
///   directory that the file's last bytes (`SEFT`) point to.
/// - A HEIC holds it in a top-level `mpvd` box.
///
/// A place found is taken only when an MP4 starts there (its `ftyp` box): tags pointing at no
/// movie make the photo a plain still. The file's bytes are from outside: this runs in a
/// decoder process only.
public enum MotionPhotoReader {
    static let camera = "http://ns.google.com/photos/1.0/camera/"
    static let container = "http://ns.google.com/photos/1.0/container/"
    static let item = "http://ns.google.com/photos/1.0/container/item/"
    /// The most header segments of a JPEG read for its XMP.
    static let maxSegments = 1024

    /// The movie in the file open on `descriptor`, if it is a motion photo whose movie is there.
    public static func find(descriptor: Int32) -> EmbeddedMovie? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 16 else { return nil }
        let size = Int64(status.st_size)
        let read = { (offset: Int64, count: Int) -> [UInt8] in FileBytes.read(descriptor, offset: offset, count: count) }
        return find(size: size, read: read)
    }

    /// The movie in a file of `size` bytes that `read(offset, count)` reads.
    public static func find(size: Int64, read: (Int64, Int) -> [UInt8]) -> EmbeddedMovie? {
        let head = read(0, 12)
        let found: EmbeddedMovie?
        if head.starts(with: [0xFF, 0xD8]) {
            found = jpegXMP(read: read).flatMap { fromXMP($0, size: size) } ?? fromSamsungTrailer(size: size, read: read)
        } else if head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) {
            found = fromMpvdBox(size: size, read: read)
        } else {
            found = nil
        }
        guard let found, found.offset >= 0, found.length > 16, found.offset + found.length <= size,
              read(found.offset + 4, 4).elementsEqual("ftyp".utf8) else { return nil }
        return found
    }

    // MARK: Google's XMP

    /// A JPEG's first XMP packet, read a header segment at a time from its start: each
    /// segment's marker and length, the first bytes of an APP1 to tell whether it is XMP, and
    /// then the packet alone, never the EXIF, profiles or previews in the other segments. The
    /// XMP of a motion photo comes before the image's frame: the walk stops at the first SOF
    /// (or SOS), as at anything out of place.
    static func jpegXMP(read: (Int64, Int) -> [UInt8]) -> [UInt8]? {
        let header = EmbeddedMarkSegments.xmpHeader
        var at: Int64 = 2
        for _ in 0..<maxSegments {
            let segment = read(at, 4)
            guard segment.count == 4, segment[0] == 0xFF else { return nil }
            let marker = segment[1]
            if marker == 0xFF { at += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }  // no length
            // The scan, the end, or a frame (SOF0 to SOF15, but DHT, JPG and DAC): the header is over.
            if marker == 0xDA || marker == 0xD9 || ((0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)) {
                return nil
            }
            let length = Int(segment[2]) << 8 | Int(segment[3])
            guard length >= 2 else { return nil }
            if marker == 0xE1, length - 2 > header.count, read(at + 4, header.count) == header {
                let packet = read(at + 4 + Int64(header.count), length - 2 - header.count)
                return packet.count == length - 2 - header.count ? packet : nil
            }
            at += 2 + Int64(length)
        }
        return nil
    }

    static func fromXMP(_ xmp: [UInt8], size: Int64) -> EmbeddedMovie? {
        guard contains(xmp, "MotionPhoto") || contains(xmp, "MicroVideo"),
              let document = XMPMarks.parse(xmp), let root = document.rootElement() else { return nil }
        var isMotion = false
        var microVideoOffset: Int64?
        for description in XMPMarks.descriptions(in: root) {
            for name in ["MotionPhoto", "MicroVideo"] where number(XMPMarks.value(of: name, camera, in: description)) == 1 {
                isMotion = true
            }
            if let offset = number(XMPMarks.value(of: "MicroVideoOffset", camera, in: description)) { microVideoOffset = offset }
        }
        guard isMotion else { return nil }
        // The directory's items, in the order they lie in the file.
        var items: [(semantic: String, length: Int64, padding: Int64)] = []
        for element in XMPMarks.descendants(of: root, named: "Item", container) {
            // The item's fields: attributes of the Container:Item, or of an rdf:Description in it.
            let holders = [element] + XMPMarks.descriptions(in: element)
            func field(_ name: String) -> String? { holders.lazy.compactMap { XMPMarks.value(of: name, item, in: $0) }.first }
            items.append((field("Semantic") ?? "", number(field("Length")) ?? 0, number(field("Padding")) ?? 0))
        }
        if let index = items.firstIndex(where: { $0.semantic == "MotionPhoto" }), items[index].length > 0 {
            // What lies after the movie. Lengths below zero or past the file's size are not of
            // this file: no movie (added up as they are, they would overflow).
            var after: Int64 = 0
            for item in items[(index + 1)...] {
                guard (0...size).contains(item.length), (0...size).contains(item.padding) else { return nil }
                after += item.length + item.padding
                guard after <= size else { return nil }
            }
            guard items[index].length <= size - after else { return nil }
            let end = size - after
            return EmbeddedMovie(offset: end - items[index].length, length: items[index].length)
        }
        if let length = microVideoOffset, length > 0, length < size {
            return EmbeddedMovie(offset: size - length, length: length)
        }
        return nil
    }

    // MARK: Samsung's trailer

    static func fromSamsungTrailer(size: Int64, read: (Int64, Int) -> [UInt8]) -> EmbeddedMovie? {
        let tail = read(size - 8, 8)
        guard tail.count == 8, tail[4..<8].elementsEqual("SEFT".utf8) else { return nil }
        let directoryLength = Int64(littleEndian32(tail, 0))
        let directoryStart = size - 8 - directoryLength
        guard directoryLength >= 12, directoryLength <= 1 << 20, directoryStart > 0 else { return nil }
        let directory = read(directoryStart, Int(directoryLength))
        guard directory.count == Int(directoryLength), directory.starts(with: Array("SEFH".utf8)) else { return nil }
        let count = Int(littleEndian32(directory, 8))
        guard count <= (directory.count - 12) / 12 else { return nil }
        for entry in 0..<count {
            let at = 12 + entry * 12
            let back = Int64(littleEndian32(directory, at + 4)), length = Int64(littleEndian32(directory, at + 8))
            let start = directoryStart - back
            guard start >= 0, length > 8, start + length <= directoryStart else { continue }
            let header = read(start, 8)
            guard header.count == 8 else { continue }
            let nameLength = Int64(littleEndian32(header, 4))
            guard nameLength > 0, nameLength < 256, 8 + nameLength < length,
                  read(start + 8, Int(nameLength)).elementsEqual("MotionPhoto_Data".utf8) else { continue }
            return EmbeddedMovie(offset: start + 8 + nameLength, length: length - 8 - nameLength)
        }
        return nil
    }

    // MARK: HEIC's mpvd box

    static func fromMpvdBox(size: Int64, read: (Int64, Int) -> [UInt8]) -> EmbeddedMovie? {
        var at: Int64 = 0
        for _ in 0..<4096 {
            guard at + 8 <= size else { return nil }
            let header = read(at, 16)
            guard header.count >= 8 else { return nil }
            var boxSize = Int64(bigEndian32(header, 0)), headerSize: Int64 = 8
            if boxSize == 1 {
                guard header.count == 16 else { return nil }
                boxSize = Int64(bitPattern: UInt64(bigEndian32(header, 8)) << 32 | UInt64(bigEndian32(header, 12)))
                headerSize = 16
            } else if boxSize == 0 {
                boxSize = size - at
            }
            guard boxSize >= headerSize, boxSize <= size - at else { return nil }
            if header[4..<8].elementsEqual("mpvd".utf8) {
                return EmbeddedMovie(offset: at + headerSize, length: boxSize - headerSize)
            }
            at += boxSize
        }
        return nil
    }

    // MARK: -

    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return bytes.withUnsafeBytes { haystack in
            guard let base = haystack.baseAddress, let first = needle.first, haystack.count >= needle.count else { return false }
            let last = haystack.count - needle.count  // the last place the text can start
            var at = 0
            while at <= last, let found = memchr(base + at, Int32(first), last - at + 1) {
                if memcmp(found, needle, needle.count) == 0 { return true }
                at = base.distance(to: UnsafeRawPointer(found)) + 1
            }
            return false
        }
    }

    private static func number(_ text: String?) -> Int64? {
        text.flatMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
