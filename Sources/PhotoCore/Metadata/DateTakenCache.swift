/// Dates taken already read, keyed by file (its path or URI) and valid only while the
/// file's modification time and size are what they were when the date was read.
///
/// Reading EXIF costs about 0.1 ms a file; a folder of 100,000 photos is seconds of
/// parsing. The cache makes the next visit instant. It is a value: `DateTakenReader` in
/// PhotoIO loads, updates and saves it.
///
/// ## File format (version 1)
/// All integers are unsigned LEB128 varints; signed ones are zigzag-encoded first.
/// ```
/// "GPBDATES"                      8 bytes, magic
/// version                         varint, 1
/// count                           varint, number of entries
/// count × entry, keys in ascending byte order:
///   shared                        varint, bytes shared with the previous key's start
///   suffixLength, suffix          varint, then the key's remaining UTF-8 bytes
///   modified                      zigzag varint, µs since the epoch
///   size                          zigzag varint, bytes
///   tag                           1 byte: 0 = no date, 1 = date follows
///   date                          zigzag varint, µs since the epoch (tag 1 only)
/// checksum                        8 bytes, FNV-1a 64 of everything before, little-endian
/// ```
/// Keys of one folder share a long prefix (`file:///home/…/Photos/IMG_`), so front coding
/// stores about 25 bytes an entry. Anything that does not read back exactly (a foreign
/// file, another version, a truncated or damaged one) yields an empty cache: the dates
/// are read again, nothing worse.
public struct DateTakenCache: Sendable, Equatable {
    /// What is known of one file's date.
    public enum Value: Sendable, Hashable {
        /// Taken at this time (µs since the epoch, see `ExifDate`).
        case taken(Int64)
        /// The file was read and records no date: do not read it again.
        case noDate

        /// The date, or nil for `.noDate`.
        public var dateTaken: Int64? {
            if case .taken(let date) = self { return date }
            return nil
        }

        public init(_ dateTaken: Int64?) {
            self = dateTaken.map(Value.taken) ?? .noDate
        }
    }

    struct Entry: Sendable, Equatable {
        var modified: Int64
        var size: Int64
        var value: Value
    }

    public static let formatVersion = 1
    static let magic: [UInt8] = Array("GPBDATES".utf8)

    private(set) var entries: [String: Entry] = [:]

    public init() {}

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// The value stored for `key`, or nil when there is none or the file changed since
    /// (another modification time or size).
    public func lookup(_ key: String, modified: Int64, size: Int64) -> Value? {
        guard let entry = entries[key], entry.modified == modified, entry.size == size else { return nil }
        return entry.value
    }

    /// Stores what was read from `key` when it had this modification time and size.
    public mutating func store(_ key: String, modified: Int64, size: Int64, value: Value) {
        entries[key] = Entry(modified: modified, size: size, value: value)
    }

    /// Forgets `key`.
    public mutating func remove(_ key: String) {
        entries[key] = nil
    }

    /// Adds every entry of `other`, replacing this cache's entries for the same keys.
    public mutating func merge(_ other: DateTakenCache) {
        entries.merge(other.entries) { _, theirs in theirs }
    }

    /// Keeps only the entries whose key satisfies `keep`.
    public mutating func filter(_ keep: (String) -> Bool) {
        entries = entries.filter { keep($0.key) }
    }

    // MARK: - Serialising

    /// The cache in the file format above.
    public func serialized() -> [UInt8] {
        // Sorted as they are (not as byte arrays made first: 100,000 keys would be as many
        // arrays), each key's bytes made in turn.
        let sorted = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return Self.serialize(count: sorted.count, sizeHint: sorted.count * 32) { put in
            for (string, entry) in sorted { put(Array(string.utf8), entry) }
        }
    }

    /// Reads a cache written by `serialized()`; anything else gives an empty cache.
    public init<Bytes: Collection>(serialized bytes: Bytes) where Bytes.Element == UInt8 {
        self = Self.parse(Array(bytes)) ?? DateTakenCache()
    }

    private static func parse(_ bytes: [UInt8]) -> DateTakenCache? {
        var cache = DateTakenCache()
        let whole = forEachEntry(inSerialized: bytes, expecting: { cache.entries.reserveCapacity($0) }) { key, entry in
            guard let string = String(validating: key, as: UTF8.self) else { return false }
            cache.entries[string] = entry
            return true
        }
        return whole ? cache : nil
    }

    /// The file `serialized` holds (the bytes of a cache written by `serialized()`, or
    /// anything else, taken as an empty cache) with `changes` stored into it, in the file
    /// format: the same as `DateTakenCache(serialized:)` merged with `changes` and
    /// serialized, without holding the file's entries (100,000 photos' entries take about
    /// 20 MiB, the file 3). `changes` is the smaller side.
    public static func serialized(merging serialized: [UInt8], with changes: DateTakenCache) -> [UInt8] {
        var out: [UInt8] = []
        _ = write(merging: serialized, with: changes, chunkSize: .max) { out.append(contentsOf: $0); return true }
        return out
    }

    /// The bytes `serialized(merging:with:)` makes, handed to `write` in pieces of about
    /// `chunkSize` bytes, in order, as they are made: a file is written without its new bytes
    /// all in memory (3 MB for 100,000 photos) beside the old ones. False as soon as `write`
    /// returns false (nothing more is handed to it).
    public static func write(merging serialized: [UInt8], with changes: DateTakenCache, chunkSize: Int = 64 << 10,
                             to write: ([UInt8]) -> Bool) -> Bool {
        let sorted = changes.entries.map { (key: Array($0.key.utf8), entry: $0.value) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
        // First the count, which the header holds before the entries; then the entries.
        var count = 0
        guard mergeEntries(serialized, sorted, { _, _ in count += 1 }) else {
            return DateTakenCache.serialize(count: sorted.count, sizeHint: sorted.count * 32, chunkSize: chunkSize, to: write) { put in
                for (key, entry) in sorted { put(key, entry) }
            }
        }
        return DateTakenCache.serialize(count: count, sizeHint: serialized.count + sorted.count * 32, chunkSize: chunkSize, to: write) { put in
            _ = mergeEntries(serialized, sorted, put)
        }
    }

    /// Hands `emit` the entries of `serialized` and of `sorted` (in key order), in key order,
    /// an entry of `sorted` in place of the file's with the same key; false when
    /// `serialized` is not a whole cache (then `emit` may have been called for some).
    private static func mergeEntries(_ serialized: [UInt8], _ sorted: [(key: [UInt8], entry: Entry)],
                                     _ emit: ([UInt8], Entry) -> Void) -> Bool {
        var next = 0
        let whole = serialized.isEmpty || forEachEntry(inSerialized: serialized) { key, entry in
            while next < sorted.count, sorted[next].key.lexicographicallyPrecedes(key) {
                emit(sorted[next].key, sorted[next].entry)
                next += 1
            }
            if next < sorted.count, sorted[next].key == key { return true }  // replaced: emitted next
            emit(key, entry)
            return true
        }
        guard whole else { return false }
        for change in sorted[next...] { emit(change.key, change.entry) }
        return true
    }

    /// The file format around `count` entries that `entries` hands to `put` in key order.
    private static func serialize(count: Int, sizeHint: Int, _ entries: ((_ put: ([UInt8], Entry) -> Void) -> Void)) -> [UInt8] {
        var out: [UInt8] = []
        _ = serialize(count: count, sizeHint: sizeHint, chunkSize: .max, to: { out = $0; return true }, entries)
        return out
    }

    /// The same, handed to `write` in pieces of about `chunkSize` bytes (all at once for
    /// `.max`); false once `write` returned false.
    private static func serialize(count: Int, sizeHint: Int, chunkSize: Int, to write: ([UInt8]) -> Bool,
                                  _ entries: ((_ put: ([UInt8], Entry) -> Void) -> Void)) -> Bool {
        var out = magic
        out.reserveCapacity(16 + min(sizeHint, chunkSize) + (chunkSize == .max ? 8 : 64))
        var checksum = fnv1aBasis
        var written = true
        putVarint(UInt64(formatVersion), into: &out)
        putVarint(UInt64(count), into: &out)
        var previous: [UInt8] = []
        // `write` is called from `entries`' `put` only while `entries` runs.
        withoutActuallyEscaping(write) { write in
            entries { key, entry in
                putEntry(key, entry, after: previous, into: &out)
                previous = key
                guard out.count >= chunkSize, written else { return }
                checksum = fnv1a(out[...], from: checksum)
                written = write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        guard written else { return false }
        checksum = fnv1a(out[...], from: checksum)
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: checksum >> UInt64(shift))) }
        return write(out)
    }

    private static func putEntry(_ key: [UInt8], _ entry: Entry, after previous: [UInt8], into out: inout [UInt8]) {
        var shared = 0
        let limit = min(previous.count, key.count)
        while shared < limit, previous[shared] == key[shared] { shared += 1 }
        putVarint(UInt64(shared), into: &out)
        putVarint(UInt64(key.count - shared), into: &out)
        out.append(contentsOf: key[shared...])
        putVarint(zigzag(entry.modified), into: &out)
        putVarint(zigzag(entry.size), into: &out)
        switch entry.value {
        case .noDate:
            out.append(0)
        case .taken(let date):
            out.append(1)
            putVarint(zigzag(date), into: &out)
        }
    }

    /// Calls `each` with each entry of a cache written by `serialized()`, in key order, one
    /// at a time (`expecting` first, with their count); false when the bytes are not a whole
    /// cache or `each` returned false (the checksum is checked before any entry).
    private static func forEachEntry(inSerialized bytes: [UInt8], expecting: (Int) -> Void = { _ in },
                                     _ each: ([UInt8], Entry) -> Bool) -> Bool {
        guard bytes.count >= magic.count + 2 + 8, bytes.starts(with: magic) else { return false }
        let body = bytes[..<(bytes.count - 8)]
        var stored: UInt64 = 0
        for (i, byte) in bytes[(bytes.count - 8)...].enumerated() { stored |= UInt64(byte) << UInt64(i * 8) }
        guard fnv1a(body) == stored else { return false }

        var reader = Reader(bytes: body, position: magic.count)
        guard let version = reader.varint(), version == UInt64(formatVersion),
              let count = reader.varint(), count <= UInt64(body.count) / 4 else { return false }
        expecting(Int(count))
        var previous: [UInt8] = []
        for _ in 0..<count {
            guard let shared = reader.varint(), shared <= UInt64(previous.count),
                  let suffixLength = reader.varint(), let suffix = reader.bytes(suffixLength),
                  let modified = reader.varint().map(unzigzag), let size = reader.varint().map(unzigzag),
                  let tag = reader.byte() else { return false }
            let value: Value
            switch tag {
            case 0: value = .noDate
            case 1:
                guard let date = reader.varint().map(unzigzag) else { return false }
                value = .taken(date)
            default:
                return false
            }
            let key = Array(previous[..<Int(shared)]) + suffix
            // Keys are written in strictly ascending order: anything else is damage.
            guard previous.isEmpty || previous.lexicographicallyPrecedes(key),
                  each(key, Entry(modified: modified, size: size, value: value)) else { return false }
            previous = key
        }
        return reader.isAtEnd
    }

    /// Calls `found` with the value stored in a cache written by `serialized()` for each of
    /// `keys` whose file is the same (modification time and size), without holding the
    /// file's entries; finds nothing in anything else.
    public static func lookUp(_ keys: [(key: String, modified: Int64, size: Int64)], inSerialized bytes: [UInt8],
                              _ found: (_ index: Int, _ value: Value) -> Void) {
        guard !bytes.isEmpty, !keys.isEmpty else { return }
        var wanted: [String: Int32] = [:]
        wanted.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() { wanted[key.key] = Int32(index) }
        var hits: [(index: Int, value: Value)] = []
        let whole = forEachEntry(inSerialized: bytes) { key, entry in
            let string = String(decoding: key, as: UTF8.self)
            if let index = wanted[string].map(Int.init), keys[index].modified == entry.modified, keys[index].size == entry.size {
                hits.append((index, entry.value))
            }
            return true
        }
        guard whole else { return }
        for hit in hits { found(hit.index, hit.value) }
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var position: Int

        var isAtEnd: Bool { position == bytes.endIndex }

        mutating func byte() -> UInt8? {
            guard position < bytes.endIndex else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard let byte = byte() else { return nil }
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte & 0x80 == 0 { return value }
            }
            return nil  // longer than any 64-bit number
        }

        mutating func bytes(_ count: UInt64) -> [UInt8]? {
            guard count <= UInt64(bytes.endIndex - position) else { return nil }
            defer { position += Int(count) }
            return Array(bytes[position..<(position + Int(count))])
        }
    }

    private static func putVarint(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    private static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    private static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    private static let fnv1aBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a 64 of `bytes`, continued from `hash` (the hash of the bytes before them).
    private static func fnv1a(_ bytes: ArraySlice<UInt8>, from hash: UInt64 = fnv1aBasis) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
