import Glibc
import PhotoCore

/// Which decoder reads a file, told from its first bytes (not its name): the formats
/// gdk-pixbuf reads go to `PixbufDecoder`, the others to a decoder of ours over a library
/// (LibRaw, libheif, libjxl).
enum StillFormat: Equatable {
    /// JPEG, PNG, GIF, WebP, TIFF, SVG…: gdk-pixbuf's loaders.
    case pixbuf
    /// A camera's RAW file (LibRaw).
    case raw
    /// HEIF: HEIC, AVIF (libheif).
    case heif
    /// JPEG XL, a bare codestream or the ISO container (libjxl).
    case jxl
    /// A CMYK JPEG with a CMYK profile (libjpeg-turbo and Little CMS: `CmykJpegDecoder`).
    case cmykJpeg
    /// A video: MP4, QuickTime, 3GP (ISO media files of other brands), WebM and Matroska
    /// (GStreamer: `VideoDecoder`).
    case video

    /// MIME types of the formats our own decoders read, for the folder listing.
    static let mimeTypes: Set<String> = VideoFacts.mimeTypes.union([
        "image/heif", "image/heic", "image/heif-sequence", "image/heic-sequence", "image/avif",
        "image/jxl",
        // RAW: shared-mime-info's parent type, and the types that are not its kind.
        "image/x-dcraw", "image/x-adobe-dng", "image/x-canon-cr2", "image/x-canon-cr3", "image/x-canon-crw",
        "image/x-nikon-nef", "image/x-nikon-nrw", "image/x-sony-arw", "image/x-sony-sr2", "image/x-sony-srf",
        "image/x-fuji-raf", "image/x-olympus-orf", "image/x-panasonic-rw2", "image/x-panasonic-raw2",
        "image/x-pentax-pef", "image/x-kodak-kdc", "image/x-kodak-dcr", "image/x-kodak-k25",
        "image/x-samsung-srw", "image/x-sigma-x3f", "image/x-minolta-mrw", "image/x-gopro-gpr",
    ])

    /// Extensions of RAW files that are TIFF files inside (NEF, ARW, DNG, PEF, KDC…): their
    /// bytes alone do not always tell them from a TIFF photo.
    static let tiffRawExtensions: Set<String> = [
        "nef", "nrw", "arw", "sr2", "srf", "dng", "pef", "kdc", "dcr", "k25", "3fr", "erf", "mef", "mos", "srw", "gpr", "iiq", "rwl",
    ]

    /// The decoder for a file whose first bytes are `head`; `name` only tells a TIFF photo
    /// from a RAW file that is a TIFF inside and says nothing about itself.
    static func sniff(_ head: [UInt8], name: String?) -> StillFormat {
        func bytes(_ offset: Int, _ text: String) -> Bool {
            let expected = Array(text.utf8)
            return head.count >= offset + expected.count && Array(head[offset..<offset + expected.count]) == expected
        }
        // ISO base media files: HEIF brands, and Canon's CR3.
        if bytes(4, "ftyp") && head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if brand == "crx " { return .raw }
            let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis", "mif2"]
            if heif.contains(brand) { return .heif }
            if brand == "jxl " { return .jxl }
            // Any other brand is a video's, unless a compatible brand says HEIF.
            let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            let compatible = stride(from: 16, to: min(size, head.count) - 3, by: 4).map { String(decoding: head[$0..<$0 + 4], as: UTF8.self) }
            return compatible.contains(where: heif.contains) ? .heif : .video
        }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .video }  // EBML: WebM, Matroska
        // QuickTime files older than the ftyp box start with one of these atoms.
        if bytes(4, "moov") || bytes(4, "mdat") || bytes(4, "wide") { return .video }
        if head.count >= 2 && head[0] == 0xFF && head[1] == 0x0A { return .jxl }  // a bare JPEG XL codestream
        if head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jxl }  // the container
        if bytes(0, "FUJIFILMCCD-RAW") { return .raw }
        if bytes(6, "HEAPCCDR") { return .raw }  // Canon CRW
        if bytes(0, "IIRO") || bytes(0, "IIRS") || bytes(0, "MMOR") { return .raw }  // Olympus ORF
        if bytes(0, "IIU\0") { return .raw }  // Panasonic RW2
        if bytes(0, "\0MRM") { return .raw }  // Minolta MRW
        if bytes(0, "FOVb") { return .raw }  // Sigma X3F
        if bytes(0, "II*\0") || bytes(0, "MM\0*") {
            if bytes(8, "CR") { return .raw }  // Canon CR2
            if TIFFDirectory.looksLikeRaw(head) { return .raw }
            if let name, let dot = name.lastIndex(of: "."),
               tiffRawExtensions.contains(name[name.index(after: dot)...].lowercased()) { return .raw }
        }
        return .pixbuf
    }
}

/// The first directory of a TIFF file, read far enough to tell a RAW file from a photo.
enum TIFFDirectory {
    /// Whether the first directory names a DNG version, or holds sub-directories beside a
    /// camera's make (where RAW files keep their raw data and previews).
    static func looksLikeRaw(_ head: [UInt8]) -> Bool {
        guard head.count >= 8 else { return false }
        let little = head[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= head.count else { return nil }
            return little ? Int(head[at]) | Int(head[at + 1]) << 8 : Int(head[at]) << 8 | Int(head[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
            return low | high << 16
        }
        guard let first = u32(4), let count = u16(first), count < 1_000 else { return false }
        var tags = Set<Int>()
        for index in 0..<count {
            guard let tag = u16(first + 2 + index * 12) else { break }
            tags.insert(tag)
        }
        if tags.contains(0xC612) { return true }  // DNGVersion
        return tags.contains(0x014A) && tags.contains(0x010F)  // SubIFDs and Make
    }
}

extension StillFormat {
    /// The decoder for the open file: `sniff` of its first bytes, and for a JPEG whether it
    /// holds CMYK inks described by a profile (gdk-pixbuf would ignore the profile).
    static func of(descriptor: Int32, name: String?) -> StillFormat {
        let format = sniff(head(of: descriptor), name: name)
        return format == .pixbuf && CmykJpegDecoder.wants(descriptor: descriptor) ? .cmykJpeg : format
    }

    /// The first bytes of an open file (enough for `sniff`), read without moving its offset.
    static func head(of descriptor: Int32) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: 4096)
        let n = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return n > 0 ? Array(head[0..<n]) : []
    }
}
