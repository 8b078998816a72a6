/// Finding a JPEG's EXIF block in its bytes: the APP1 segment whose payload starts with
/// "Exif\0\0", which holds the TIFF structure of the tags. Only the segments before the image
/// data are read, so the first 128 KiB of a file are enough (an APP1 segment is at most
/// 64 KiB, and cameras put it first).
///
/// What a marked-up copy keeps of its original (`BoardSaving` in PhotoIO takes these bytes).
public enum JPEGExif {
    /// The payload of the first EXIF APP1 segment of `jpeg` ("Exif\0\0" and the TIFF
    /// structure), or nil when there is none or the bytes are not a JPEG's.
    public static func block(in jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { return nil }
            let marker = jpeg[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill bytes
            // Markers without a length: TEM, RSTn. SOS or EOI: the headers are over.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            guard length >= 2, i + 2 + length <= jpeg.count else { return nil }
            let payload = jpeg[(i + 4)..<(i + 2 + length)]
            if marker == 0xE1, payload.starts(with: header) { return Array(payload) }
            i += 2 + length
        }
        return nil
    }

    /// What an EXIF APP1 payload starts with.
    public static let header: [UInt8] = Array("Exif".utf8) + [0, 0]
}
