/// Saving a rotation into a JPEG without touching its image data: only the EXIF segment
/// (APP1) changes, its orientation tag set, and every other byte of the file stays as it was.
///
/// A decoder process reads the photo's bytes and answers an `OrientationEdit`: where the
/// EXIF segment lies in the file (or where a new one goes), the orientation it holds, and
/// the new segment's payload. The browser only splices bytes at those offsets (`spliced`)
/// and checks the file it wrote against the original (`onlySegmentDiffers`).
public struct OrientationEdit: Sendable, Equatable {
    /// The orientation the file holds (upright when it has none).
    public var found: ExifOrientation
    /// The bytes of the file the new segment replaces, its marker included; empty when the
    /// file has no EXIF segment and one is inserted there.
    public var segment: Range<Int>
    /// The new segment's payload ("Exif\0\0" and the TIFF structure); nil when the decoder
    /// was only asked what the file holds.
    public var payload: [UInt8]?

    public init(found: ExifOrientation, segment: Range<Int>, payload: [UInt8]?) {
        self.found = found
        self.segment = segment
        self.payload = payload
    }

    /// The most bytes an APP1 segment's payload holds (its length field counts itself).
    public static let maximumPayload = 0xFFFF - 2

    /// The APP1 segment holding `payload`: marker, length, payload.
    public static func app1(_ payload: [UInt8]) -> [UInt8]? {
        guard !payload.isEmpty, payload.count <= maximumPayload else { return nil }
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// `original` with `segment` replaced by the APP1 segment of `payload`; nil when the
    /// offsets are not inside the file, or the payload does not fit a segment.
    public static func spliced(_ original: [UInt8], replacing segment: Range<Int>, withPayload payload: [UInt8]) -> [UInt8]? {
        guard segment.lowerBound >= 2, segment.upperBound <= original.count, let app1 = app1(payload) else { return nil }
        return Array(original[..<segment.lowerBound]) + app1 + Array(original[segment.upperBound...])
    }

    /// Whether `written` is `original` with only `segment` replaced by `newSegmentLength`
    /// bytes: the same bytes before it, and the same bytes after it, to the last.
    public static func onlySegmentDiffers(original: [UInt8], written: [UInt8], segment: Range<Int>, newSegmentLength: Int) -> Bool {
        guard segment.lowerBound >= 0, segment.upperBound <= original.count, newSegmentLength >= 0 else { return false }
        let tail = original.count - segment.upperBound
        guard written.count == segment.lowerBound + newSegmentLength + tail else { return false }
        return written[..<segment.lowerBound] == original[..<segment.lowerBound]
            && written[(segment.lowerBound + newSegmentLength)...] == original[segment.upperBound...]
    }
}

extension JPEGExif {
    /// Where a JPEG's EXIF segment is: the bytes of the first APP1 segment whose payload is
    /// EXIF (marker included), or an empty range where one goes (after the SOI marker and a
    /// JFIF APP0 segment right after it). nil when the bytes are not a JPEG's, or its headers
    /// end before the image data or the file's end says where the segment is.
    public static func segment(in jpeg: [UInt8]) -> Range<Int>? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var insertion = 2
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { return nil }
            let marker = jpeg[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return insertion..<insertion }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            guard length >= 2, i + 2 + length <= jpeg.count else { return nil }
            let payload = jpeg[(i + 4)..<(i + 2 + length)]
            if marker == 0xE1, payload.starts(with: header) { return i..<(i + 2 + length) }
            // A JFIF APP0 must come first: a new EXIF segment goes after it.
            if marker == 0xE0, i == 2 { insertion = i + 2 + length }
            i += 2 + length
        }
        return nil
    }
}

/// The orientation tag in an EXIF block's first directory (IFD0), read and set in place:
/// the block's other bytes, maker notes and offsets included, stay as they are.
public enum TIFFOrientation {
    /// The position of the tag's value (a SHORT) in `block` ("Exif\0\0" and the TIFF
    /// structure), and the block's byte order; nil when IFD0 has no orientation SHORT.
    static func location(in block: [UInt8]) -> (offset: Int, bigEndian: Bool)? {
        let base = JPEGExif.header.count
        guard block.starts(with: JPEGExif.header), block.count >= base + 8 else { return nil }
        let bigEndian: Bool
        switch (block[base], block[base + 1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= block.count else { return nil }
            return bigEndian ? Int(block[at]) << 8 | Int(block[at + 1]) : Int(block[at + 1]) << 8 | Int(block[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(bigEndian ? at : at + 2), let low = u16(bigEndian ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard u16(base + 2) == 42, let ifd0 = u32(base + 4), let count = u16(base + ifd0) else { return nil }
        for entry in 0..<count {
            let at = base + ifd0 + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2), let components = u32(at + 4) else { return nil }
            if tag == 0x0112 {
                // SHORT (3), one of them: the value sits in the entry itself.
                guard type == 3, components == 1, at + 10 <= block.count else { return nil }
                return (at + 8, bigEndian)
            }
        }
        return nil
    }

    /// The orientation IFD0 holds; nil when it holds none, or one outside 1–8.
    public static func read(_ block: [UInt8]) -> ExifOrientation? {
        guard let (offset, bigEndian) = location(in: block) else { return nil }
        let value = bigEndian ? Int(block[offset]) << 8 | Int(block[offset + 1]) : Int(block[offset + 1]) << 8 | Int(block[offset])
        return ExifOrientation(value)
    }

    /// `block` with IFD0's orientation set to `orientation`, every other byte as it was; nil
    /// when IFD0 has no orientation tag to set.
    public static func patched(_ block: [UInt8], to orientation: ExifOrientation) -> [UInt8]? {
        guard let (offset, bigEndian) = location(in: block) else { return nil }
        var patched = block
        patched[offset] = bigEndian ? 0 : UInt8(orientation.value)
        patched[offset + 1] = bigEndian ? UInt8(orientation.value) : 0
        return patched
    }
}
