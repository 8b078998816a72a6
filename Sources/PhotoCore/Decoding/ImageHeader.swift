/// The pixel size an image file declares in its first bytes, read before any decoder runs.
///
/// Some gdk-pixbuf loaders (GIF, TIFF, BMP, TGA, ICO) buffer the whole file and decode it
/// when it is closed, allocating the declared canvas whatever size was asked for: a 519-byte
/// GIF that declares 58739×25907 pixels takes 6 GB. Reading the declared size first lets the
/// decoder refuse such a file before a loader sees it. Formats that shrink on load (JPEG)
/// or render at the size asked for (SVG) are not read here: their loaders honour the size.
public struct ImageHeader: Sendable, Equatable {
    public let format: String
    public let size: PixelSize

    public init(format: String, size: PixelSize) {
        self.format = format
        self.size = size
    }

    /// The declared size, when `bytes` (the start of a file) is a format this knows.
    public static func read(_ bytes: [UInt8]) -> ImageHeader? {
        func le16(_ i: Int) -> Int? { i + 2 <= bytes.count ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : nil }
        func le32(_ i: Int) -> Int? {
            guard let lo = le16(i), let hi = le16(i + 2) else { return nil }
            return lo | hi << 16
        }
        func be16(_ i: Int) -> Int? { i + 2 <= bytes.count ? Int(bytes[i]) << 8 | Int(bytes[i + 1]) : nil }
        func be32(_ i: Int) -> Int? {
            guard let hi = be16(i), let lo = be16(i + 2) else { return nil }
            return hi << 16 | lo
        }
        func starts(_ magic: [UInt8]) -> Bool { bytes.count >= magic.count && Array(bytes[0..<magic.count]) == magic }
        func header(_ format: String, _ width: Int?, _ height: Int?) -> ImageHeader? {
            guard let width, let height else { return nil }
            return ImageHeader(format: format, size: PixelSize(width: width, height: height))
        }

        if starts(Array("GIF8".utf8)) { return header("gif", le16(6), le16(8)) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return header("png", be32(16), be32(20)) }
        if starts(Array("BM".utf8)), let headerSize = le32(14) {
            if headerSize == 12 { return header("bmp", le16(18), le16(20)) }
            guard let width = le32(18), let rawHeight = le32(22) else { return nil }
            let height = rawHeight > Int(Int32.max) ? (1 << 32) - rawHeight : rawHeight  // top-down BMPs
            return header("bmp", width, height)
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) { return tiff(bytes, littleEndian: true) }
        if starts([0x4D, 0x4D, 0x00, 0x2A]) { return tiff(bytes, littleEndian: false) }
        if starts([0x00, 0x00, 0x01, 0x00]) || starts([0x00, 0x00, 0x02, 0x00]) {
            // ICO/CUR: each entry's size is a byte (0 meaning 256); the PNG or BMP inside may
            // claim more, which the loader checks against the entry.
            return header("ico", 256, 256)
        }
        return nil
    }

    /// The first image's ImageWidth and ImageLength tags.
    private static func tiff(_ bytes: [UInt8], littleEndian: Bool) -> ImageHeader? {
        func u16(_ i: Int) -> Int? {
            guard i >= 0, i + 2 <= bytes.count else { return nil }
            return littleEndian ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let b = u16(i + 2) else { return nil }
            return littleEndian ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let entries = u16(ifd) else { return nil }
        var width: Int?, height: Int?
        for n in 0..<min(entries, 512) {
            let entry = ifd + 2 + n * 12
            guard let tag = u16(entry), let type = u16(entry + 2) else { break }
            let value = type == 3 ? u16(entry + 8) : u32(entry + 8)
            if tag == 256 { width = value }
            if tag == 257 { height = value }
        }
        guard let width, let height else { return nil }
        return ImageHeader(format: "tiff", size: PixelSize(width: width, height: height))
    }
}
