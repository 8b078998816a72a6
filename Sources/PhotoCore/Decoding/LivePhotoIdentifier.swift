/// The identifier an iPhone gives both files of a Live Photo: the still (HEIC or JPEG) and its
/// movie (MOV) carry the same one, whatever they are named after an export or a copy. Apple
/// calls it the content identifier (earlier, the media group UUID).
///
/// - In the still, it is the Apple maker note's tag 0x0011, a string: the EXIF's maker note
///   (tag 0x927C of the EXIF directory) starts "Apple iOS\0", two bytes of version and the
///   byte order ("MM"), and its directory follows at byte 14, its offsets counted from the
///   maker note's start.
/// - In the movie, it is the QuickTime metadata item `com.apple.quicktime.content.identifier`:
///   the movie's `moov` holds a `meta` box (QuickTime's: no version and flags before its
///   children; ISO's has them), whose `keys` box lists the items' names (each a size, the
///   namespace `mdta` and the name) and whose `ilst` box holds the values, each in a box whose
///   type is its key's number (from 1), in a `data` box (a type, 1 for UTF-8, and a locale
///   before the value).
///
/// These are parsers of bytes from outside: every size and offset is checked against what
/// was read, and an identifier is taken only when it looks like one (`normalized`). The
/// bytes are read in a decoder process only.
public enum LivePhotoIdentifier {
    /// The key of the movie's metadata item holding the identifier.
    public static let movieKey = "com.apple.quicktime.content.identifier"
    /// The Apple maker note's tag holding the identifier.
    static let makerNoteTag: UInt16 = 0x0011

    /// An identifier as read, checked and in upper case: letters, digits and dashes, 8 to 48
    /// of them (a UUID's 36 in practice: a decoder's reply holds 64 of them in one text); nil
    /// for anything else.
    public static func normalized(_ text: String) -> String? {
        let trimmed = text.trimmingNulsAndSpaces()
        guard (8...48).contains(trimmed.utf8.count),
              trimmed.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D })
        else { return nil }
        return trimmed.uppercased()
    }

    // MARK: The still's EXIF

    /// The identifier in a TIFF structure (an EXIF block from its byte-order mark on, as a
    /// JPEG's APP1 holds it after "Exif\0\0" and a HEIF's EXIF item after its offset).
    public static func fromTIFF(_ tiff: [UInt8]) -> String? {
        guard tiff.count >= 8 else { return nil }
        let big: Bool
        if tiff[0] == 0x4D, tiff[1] == 0x4D { big = true } else if tiff[0] == 0x49, tiff[1] == 0x49 { big = false } else { return nil }
        let reader = ByteReader(bytes: tiff, bigEndian: big)
        guard reader.u16(2) == 42, let first = reader.u32(4),
              let exifIFD = reader.entry(0x8769, inDirectoryAt: Int(first))?.value,
              let makerNote = reader.entry(0x927C, inDirectoryAt: Int(exifIFD)) else { return nil }
        guard let data = reader.bytes(of: makerNote, base: 0) else { return nil }
        return fromMakerNote(data)
    }

    /// The identifier in an Apple maker note, or nil when it is not Apple's or holds none.
    static func fromMakerNote(_ note: [UInt8]) -> String? {
        let signature = Array("Apple iOS".utf8) + [0]
        guard note.count >= 16, note.starts(with: signature) else { return nil }
        let big: Bool
        if note[12] == 0x4D, note[13] == 0x4D { big = true } else if note[12] == 0x49, note[13] == 0x49 { big = false } else { return nil }
        let reader = ByteReader(bytes: note, bigEndian: big)
        // Strings only (type 2, ASCII; 7, undefined, as some writers store it).
        guard let entry = reader.entry(makerNoteTag, inDirectoryAt: 14), entry.type == 2 || entry.type == 7,
              let text = reader.bytes(of: entry, base: 0) else { return nil }
        return normalized(String(decoding: text.prefix { $0 != 0 }, as: UTF8.self))
    }

    // MARK: The movie's metadata

    /// The identifier in a QuickTime (or ISO media) movie of `size` bytes that
    /// `read(offset, count)` reads (fewer bytes at the end of the file, none on an error).
    /// Reads only box headers on the way to the movie's `meta` boxes, and their `keys` and
    /// `ilst` (at most 1 MiB each).
    public static func fromMovie(size: Int64, read: (Int64, Int) -> [UInt8]) -> String? {
        guard let moov = children(of: 0..<size, read: read).first(where: { $0.type == "moov" }) else { return nil }
        let inMoov = children(of: moov.content, read: read)
        // The movie's own metadata first; a user-data or a track's metadata after it.
        var metas = inMoov.filter { $0.type == "meta" }
        for udta in inMoov where udta.type == "udta" {
            metas += children(of: udta.content, read: read).filter { $0.type == "meta" }
        }
        for meta in metas {
            if let identifier = fromMeta(meta.content, read: read) { return identifier }
        }
        return nil
    }

    /// The biggest `keys` or `ilst` box read.
    static let maxListBytes = 1 << 20

    private static func fromMeta(_ content: Range<Int64>, read: (Int64, Int) -> [UInt8]) -> String? {
        // QuickTime's meta holds its children at once; ISO's starts with a version and flags.
        var boxes = children(of: content, read: read)
        if !boxes.contains(where: { $0.type == "keys" }), content.count > 4 {
            boxes = children(of: (content.lowerBound + 4)..<content.upperBound, read: read)
        }
        guard let keys = boxes.first(where: { $0.type == "keys" }), let list = boxes.first(where: { $0.type == "ilst" }),
              keys.content.count <= maxListBytes, list.content.count <= maxListBytes,
              let number = keyNumber(read(keys.content.lowerBound, Int(keys.content.count))) else { return nil }
        return value(ofKey: number, in: read(list.content.lowerBound, Int(list.content.count)))
    }

    /// The number (from 1) of the identifier's key in a `keys` box's content.
    static func keyNumber(_ keys: [UInt8]) -> UInt32? {
        let reader = ByteReader(bytes: keys, bigEndian: true)
        guard let count = reader.u32(4) else { return nil }
        var at = 8
        var number: UInt32 = 1
        let wanted = Array(movieKey.utf8)
        while number <= count, let size = reader.u32(at), size >= 8, at + Int(size) <= keys.count {
            if keys[(at + 8)..<(at + Int(size))].elementsEqual(wanted) { return number }
            at += Int(size)
            number += 1
        }
        return nil
    }

    /// The UTF-8 value of the item numbered `number` in an `ilst` box's content.
    static func value(ofKey number: UInt32, in list: [UInt8]) -> String? {
        let reader = ByteReader(bytes: list, bigEndian: true)
        var at = 0
        while let size = reader.u32(at), size >= 8, at + Int(size) <= list.count {
            if reader.u32(at + 4) == number {
                // The item's `data` box: its size, "data", a type (1: UTF-8), a locale, the value.
                var inner = at + 8
                while let dataSize = reader.u32(inner), dataSize >= 16, inner + Int(dataSize) <= at + Int(size) {
                    if list[(inner + 4)..<(inner + 8)].elementsEqual("data".utf8), reader.u32(inner + 8) == 1 {
                        return normalized(String(decoding: list[(inner + 16)..<(inner + Int(dataSize))], as: UTF8.self))
                    }
                    inner += Int(dataSize)
                }
            }
            at += Int(size)
        }
        return nil
    }

    /// A box: its type and where its content lies in the file.
    struct Box {
        var type: String
        var content: Range<Int64>
    }

    /// The boxes one after another in `range` of the file (at most 4096; a box that does not
    /// fit ends the list).
    static func children(of range: Range<Int64>, read: (Int64, Int) -> [UInt8]) -> [Box] {
        var boxes: [Box] = []
        var at = range.lowerBound
        while boxes.count < 4096, at + 8 <= range.upperBound {
            let header = read(at, 16)
            guard header.count >= 8 else { break }
            let reader = ByteReader(bytes: header, bigEndian: true)
            var size = Int64(reader.u32(0) ?? 0), headerSize: Int64 = 8
            if size == 1 {
                guard let high = reader.u32(8), let low = reader.u32(12) else { break }
                size = Int64(bitPattern: UInt64(high) << 32 | UInt64(low))
                headerSize = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= headerSize, size <= range.upperBound - at else { break }
            boxes.append(Box(type: String(decoding: header[4..<8], as: UTF8.self), content: (at + headerSize)..<(at + size)))
            at += size
        }
        return boxes
    }
}

/// Numbers read from bytes from outside, in either byte order; nil past the end.
private struct ByteReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    func u16(_ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let a = UInt16(bytes[at]), b = UInt16(bytes[at + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        let a = UInt32(bytes[at]), b = UInt32(bytes[at + 1]), c = UInt32(bytes[at + 2]), d = UInt32(bytes[at + 3])
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }

    /// A directory entry: its type, count, and value (or offset), as stored.
    struct Entry {
        var type: UInt16
        var count: UInt32
        var value: UInt32
        /// Where the value field lies (values of four bytes or fewer are there).
        var at: Int
    }

    /// The entry of `tag` in the TIFF directory at `offset`.
    func entry(_ tag: UInt16, inDirectoryAt offset: Int) -> Entry? {
        guard let count = u16(offset) else { return nil }
        for n in 0..<Int(count) {
            let at = offset + 2 + n * 12
            guard let found = u16(at), let type = u16(at + 2), let number = u32(at + 4), let value = u32(at + 8) else { return nil }
            if found == tag { return Entry(type: type, count: number, value: value, at: at + 8) }
        }
        return nil
    }

    /// The bytes of an entry of one-byte values (ASCII, undefined), inline or at its offset
    /// from `base`; nil when they lie outside the bytes, or are over 64 KiB.
    func bytes(of entry: Entry, base: Int) -> [UInt8]? {
        let count = Int(entry.count)
        guard count <= 1 << 16 else { return nil }
        let start = count <= 4 ? entry.at : base + Int(entry.value)
        guard start >= 0, start + count <= bytes.count else { return nil }
        return Array(bytes[start..<(start + count)])
    }
}

private extension String {
    func trimmingNulsAndSpaces() -> String {
        var scalars = Substring(self)
        while let last = scalars.last, last == "\0" || last == " " || last == "\n" || last == "\r" || last == "\t" { scalars.removeLast() }
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        return String(scalars)
    }
}
