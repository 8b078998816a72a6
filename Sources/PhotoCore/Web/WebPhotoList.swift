/// A web album's list as a decoder process read it: the photos a list in JSON, a folder's
/// listing page or a `text/uri-list` names, each address absolute (resolved against the
/// list's), and the list's albums.
///
/// The list itself is parsed in a decoder process; what crosses back to the browser is this
/// value, encoded (`encoded()`) in a sealed memory file and read strictly
/// (`init(decoding:)`), since a list can hold far more than a decoder message carries.
public struct WebPhotoList: Sendable, Equatable {
    public var title: String?
    /// The list's own photos, in its order.
    public var photos: [WebPhotoEntry]
    /// The list's albums ("albums" of a JSON list), in its order.
    public var albums: [WebPhotoAlbum]
    /// The list named more photos than `maxPhotos`: the rest were left out.
    public var isTruncated: Bool
    /// Entries that name no photo (not an address on the web, not a string or an object).
    public var skipped: Int

    public init(title: String? = nil, photos: [WebPhotoEntry] = [], albums: [WebPhotoAlbum] = [],
                isTruncated: Bool = false, skipped: Int = 0) {
        self.title = title
        self.photos = photos
        self.albums = albums
        self.isTruncated = isTruncated
        self.skipped = skipped
    }

    /// The most photos one list may give, its albums' included.
    public static let maxPhotos = 100_000
    public static let maxAlbums = 1_000
    /// The longest address and title kept, in UTF-8 bytes.
    public static let maxAddressBytes = 8_192
    public static let maxTitleBytes = 1_024

    /// Photos of the list and of its albums together.
    public var photoCount: Int { albums.reduce(photos.count) { $0 + $1.photos.count } }
}

/// One photo of a web album: its address, its thumbnail's (when the list gives one), its
/// title and when it was taken (µs since 1970, as `Photo.dateTaken`).
public struct WebPhotoEntry: Sendable, Equatable {
    public var url: String
    public var thumbnail: String?
    public var title: String?
    public var taken: Int64?

    public init(url: String, thumbnail: String? = nil, title: String? = nil, taken: Int64? = nil) {
        self.url = url
        self.thumbnail = thumbnail
        self.title = title
        self.taken = taken
    }
}

/// An album of a web album's list: a title and its photos.
public struct WebPhotoAlbum: Sendable, Equatable {
    public var title: String
    public var photos: [WebPhotoEntry]

    public init(title: String, photos: [WebPhotoEntry]) {
        self.title = title
        self.photos = photos
    }
}

// MARK: Crossing from the decoder process

extension WebPhotoList {
    /// Why bytes are not a list.
    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public init(reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    static let magic: [UInt8] = Array("GPWL".utf8)
    static let version: UInt8 = 1
    /// The most bytes an encoded list may have: `maxPhotos` entries of long addresses fit.
    public static let maxEncodedBytes = 256 << 20
    /// Dates a list may give: from the year 1800 to the year 9999.
    static let takenRange: ClosedRange<Int64> = -5_364_662_400_000_000...253_402_300_799_000_000

    /// The list's bytes, little-endian:
    ///
    ///     "GPWL" version:u8 truncated:u8 skipped:u32 title:opt-text
    ///     photos:group albumCount:u32 (title:text photos:group)*albumCount
    ///     group = count:u32 entry*count
    ///     entry = url:text flags:u8 [thumbnail:text] [title:text] [taken:i64]
    ///     text = length:u32 utf8;  opt-text = present:u8 [text]
    ///
    /// Values past the limits are cut to them (photos past `maxPhotos` and albums past
    /// `maxAlbums` left out, the list then marked truncated; titles cut at a character
    /// boundary; an entry whose address is too long skipped), so an encoded list always
    /// decodes.
    public func encoded() -> [UInt8] {
        var body: [UInt8] = []
        var left = Self.maxPhotos
        var cut = 0, tooLong = 0
        func text(_ value: String, limit: Int, into out: inout [UInt8]) {
            let bytes = DecoderMessage.truncatedUTF8(value, to: limit)
            Self.append(UInt32(bytes.count), to: &out)
            out += bytes
        }
        func group(_ entries: [WebPhotoEntry]) {
            let fits = entries.filter { entry in
                entry.url.utf8.count <= Self.maxAddressBytes && (entry.thumbnail?.utf8.count ?? 0) <= Self.maxAddressBytes
            }
            let kept = fits.prefix(left)
            tooLong += entries.count - fits.count
            cut += fits.count - kept.count
            left -= kept.count
            Self.append(UInt32(kept.count), to: &body)
            for entry in kept {
                text(entry.url, limit: Self.maxAddressBytes, into: &body)
                let taken = entry.taken.flatMap { Self.takenRange.contains($0) ? $0 : nil }
                body.append((entry.thumbnail == nil ? 0 : 1) | (entry.title == nil ? 0 : 2) | (taken == nil ? 0 : 4))
                if let thumbnail = entry.thumbnail { text(thumbnail, limit: Self.maxAddressBytes, into: &body) }
                if let title = entry.title { text(title, limit: Self.maxTitleBytes, into: &body) }
                if let taken { Self.append(UInt64(bitPattern: taken), to: &body) }
            }
        }
        group(photos)
        let albums = self.albums.prefix(Self.maxAlbums)
        Self.append(UInt32(albums.count), to: &body)
        for album in albums {
            text(album.title, limit: Self.maxTitleBytes, into: &body)
            group(album.photos)
        }

        var out = Self.magic
        out.append(Self.version)
        out.append(isTruncated || cut > 0 || self.albums.count > albums.count ? 1 : 0)
        Self.append(UInt32(clamping: skipped + tooLong), to: &out)
        if let title {
            out.append(1)
            text(title, limit: Self.maxTitleBytes, into: &out)
        } else {
            out.append(0)
        }
        return out + body
    }

    /// Reads a whole list from `bytes`, or says why they are not one: every count, length
    /// and address is checked (addresses must be http or https), nothing may be left over.
    public init(decoding bytes: UnsafeRawBufferPointer) throws(Malformed) {
        guard bytes.count <= Self.maxEncodedBytes else { throw Malformed(reason: "list too long (\(bytes.count) bytes)") }
        var reader = Reader(bytes)
        guard try reader.bytes(4).elementsEqual(Self.magic) else { throw Malformed(reason: "not a photo list") }
        let version = try reader.byte()
        guard version == Self.version else { throw Malformed(reason: "unknown version \(version)") }
        let truncated = try reader.byte()
        guard truncated <= 1 else { throw Malformed(reason: "bad truncation flag") }
        isTruncated = truncated == 1
        skipped = Int(try reader.uint32())
        switch try reader.byte() {
        case 0: title = nil
        case 1: title = try reader.text(limit: Self.maxTitleBytes)
        default: throw Malformed(reason: "bad title flag")
        }
        var left = Self.maxPhotos
        func group(_ reader: inout Reader) throws(Malformed) -> [WebPhotoEntry] {
            let count = Int(try reader.uint32())
            guard count <= left else { throw Malformed(reason: "too many photos") }
            left -= count
            var entries: [WebPhotoEntry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                var entry = WebPhotoEntry(url: try reader.address())
                let flags = try reader.byte()
                guard flags & ~7 == 0 else { throw Malformed(reason: "bad entry flags \(flags)") }
                if flags & 1 != 0 { entry.thumbnail = try reader.address() }
                if flags & 2 != 0 { entry.title = try reader.text(limit: Self.maxTitleBytes) }
                if flags & 4 != 0 {
                    let taken = Int64(bitPattern: try reader.uint64())
                    guard Self.takenRange.contains(taken) else { throw Malformed(reason: "date out of range") }
                    entry.taken = taken
                }
                entries.append(entry)
            }
            return entries
        }
        photos = try group(&reader)
        let albumCount = Int(try reader.uint32())
        guard albumCount <= Self.maxAlbums else { throw Malformed(reason: "too many albums (\(albumCount))") }
        albums = []
        for _ in 0..<albumCount {
            let title = try reader.text(limit: Self.maxTitleBytes)
            albums.append(WebPhotoAlbum(title: title, photos: try group(&reader)))
        }
        guard reader.isAtEnd else { throw Malformed(reason: "bytes after the list") }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    /// Bounds-checked reads.
    private struct Reader {
        let data: UnsafeRawBufferPointer
        var position = 0
        init(_ data: UnsafeRawBufferPointer) { self.data = data }
        var isAtEnd: Bool { position == data.count }

        mutating func bytes(_ n: Int) throws(Malformed) -> UnsafeRawBufferPointer {
            guard n >= 0, n <= data.count - position else { throw Malformed(reason: "list cut short") }
            defer { position += n }
            return UnsafeRawBufferPointer(rebasing: data[position..<position + n])
        }

        mutating func byte() throws(Malformed) -> UInt8 { try bytes(1)[0] }

        mutating func uint32() throws(Malformed) -> UInt32 {
            var value: UInt32 = 0
            for (i, byte) in try bytes(4).enumerated() { value |= UInt32(byte) << (8 * UInt32(i)) }
            return value
        }

        mutating func uint64() throws(Malformed) -> UInt64 {
            var value: UInt64 = 0
            for (i, byte) in try bytes(8).enumerated() { value |= UInt64(byte) << (8 * UInt64(i)) }
            return value
        }

        mutating func text(limit: Int) throws(Malformed) -> String {
            let length = Int(try uint32())
            guard length <= limit else { throw Malformed(reason: "text too long (\(length) bytes)") }
            guard let text = String(validating: try bytes(length), as: UTF8.self) else { throw Malformed(reason: "text is not UTF-8") }
            return text
        }

        /// An address on the web: http or https, no spaces or control characters.
        mutating func address() throws(Malformed) -> String {
            let text = try text(limit: WebPhotoList.maxAddressBytes)
            guard WebAddress.isWebAddress(text), text.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
                throw Malformed(reason: "not a web address")
            }
            return text
        }
    }
}
