/// One message between the browser and a decoder process, as it crosses the socket.
///
/// The decoder process is where hostile bytes are parsed, so the browser treats everything
/// it sends as hostile too: a message is a short, flat list of tagged values with fixed
/// limits, read with bounds checks at every step and refused whole at the first thing out of
/// place (a wrong magic or version, an unknown kind or type, a length past the end, a
/// duplicate tag, text that is not UTF-8, a byte left over). Pixels never travel in a
/// message: they come in a sealed memfd passed beside it (see `PixelLayout`).
///
/// Wire format, little-endian:
///
///     "GPBM" version:u8 kind:u8 count:u16 field*count
///     field = tag:u8 type:u8 payload
///     payload = int: i64 | double: f64 bits | text: length:u16 utf8 | ints: count:u16 i64*count
public struct DecoderMessage: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        /// Decoder → browser, once after start: what confinement it put itself under.
        case ready = 1
        /// Browser → decoder: decode the file whose descriptor comes with the message.
        case request = 2
        /// Browser → decoder: nobody wants the running request's result any more.
        case cancel = 3
        /// Decoder → browser: the answer to one request.
        case reply = 4
    }

    public enum Value: Sendable, Equatable {
        case int(Int64)
        case double(Double)
        case text(String)
        case ints([Int64])
    }

    public var kind: Kind
    /// Values by tag; a tag's meaning belongs to the message kind (`DecoderRequest`,
    /// `DecoderReply`).
    public var fields: [UInt8: Value]

    public init(kind: Kind, fields: [UInt8: Value] = [:]) {
        self.kind = kind
        self.fields = fields
    }

    /// Why bytes are not a message.
    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public init(reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    public static let magic: [UInt8] = Array("GPBM".utf8)
    public static let version: UInt8 = 1
    /// The largest message either side sends or accepts.
    public static let maxSize = 64 * 1024
    public static let maxFields = 64
    public static let maxTextBytes = 4096
    public static let maxInts = 4096

    // MARK: Encoding

    /// The message's bytes. Values past the limits are cut to them (text at a character
    /// boundary, lists at `maxInts`), so an encoded message always decodes.
    public func encoded() -> [UInt8] {
        var out = Self.magic
        out.append(Self.version)
        out.append(kind.rawValue)
        let tags = fields.keys.sorted().prefix(Self.maxFields)
        append(UInt16(tags.count), to: &out)
        for tag in tags {
            out.append(tag)
            switch fields[tag]! {
            case .int(let value):
                out.append(0)
                append(UInt64(bitPattern: value), to: &out)
            case .double(let value):
                out.append(1)
                append(value.bitPattern, to: &out)
            case .text(let text):
                out.append(2)
                let bytes = Self.truncatedUTF8(text, to: Self.maxTextBytes)
                append(UInt16(bytes.count), to: &out)
                out += bytes
            case .ints(let values):
                out.append(3)
                let kept = values.prefix(Self.maxInts)
                append(UInt16(kept.count), to: &out)
                for value in kept { append(UInt64(bitPattern: value), to: &out) }
            }
        }
        return out
    }

    private func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    /// The longest prefix of `text`'s UTF-8 that fits in `limit` bytes and ends on a
    /// character boundary.
    static func truncatedUTF8(_ text: String, to limit: Int) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.count > limit else { return bytes }
        var end = limit
        while end > 0 && (bytes[end] & 0xC0) == 0x80 { end -= 1 }
        return Array(bytes[0..<end])
    }

    // MARK: Decoding

    /// Reads one whole message from `bytes`, or says why they are not one.
    public init(decoding bytes: some Collection<UInt8>) throws(Malformed) {
        var reader = Reader(Array(bytes))
        guard reader.count <= Self.maxSize else { throw Malformed(reason: "message too long (\(reader.count) bytes)") }
        guard Array(try reader.bytes(4)) == Self.magic else { throw Malformed(reason: "not a decoder message") }
        let version = try reader.byte()
        guard version == Self.version else { throw Malformed(reason: "unknown version \(version)") }
        let rawKind = try reader.byte()
        guard let kind = Kind(rawValue: rawKind) else { throw Malformed(reason: "unknown kind \(rawKind)") }
        let count = Int(try reader.uint16())
        guard count <= Self.maxFields else { throw Malformed(reason: "too many fields (\(count))") }
        var fields: [UInt8: Value] = [:]
        for _ in 0..<count {
            let tag = try reader.byte()
            let type = try reader.byte()
            let value: Value
            switch type {
            case 0: value = .int(Int64(bitPattern: try reader.uint64()))
            case 1: value = .double(Double(bitPattern: try reader.uint64()))
            case 2:
                let length = Int(try reader.uint16())
                guard length <= Self.maxTextBytes else { throw Malformed(reason: "text too long (\(length) bytes)") }
                let raw = try reader.bytes(length)
                guard let text = String(validating: raw, as: UTF8.self) else { throw Malformed(reason: "text is not UTF-8") }
                value = .text(text)
            case 3:
                let n = Int(try reader.uint16())
                guard n <= Self.maxInts else { throw Malformed(reason: "list too long (\(n))") }
                var values: [Int64] = []
                values.reserveCapacity(n)
                for _ in 0..<n { values.append(Int64(bitPattern: try reader.uint64())) }
                value = .ints(values)
            default:
                throw Malformed(reason: "unknown value type \(type)")
            }
            guard fields.updateValue(value, forKey: tag) == nil else { throw Malformed(reason: "tag \(tag) twice") }
        }
        guard reader.isAtEnd else { throw Malformed(reason: "\(reader.remaining) bytes after the message") }
        self.kind = kind
        self.fields = fields
    }

    /// Bounds-checked reads from a byte array.
    private struct Reader {
        let data: [UInt8]
        var position = 0
        init(_ data: [UInt8]) { self.data = data }
        var count: Int { data.count }
        var remaining: Int { data.count - position }
        var isAtEnd: Bool { position == data.count }

        mutating func bytes(_ n: Int) throws(Malformed) -> ArraySlice<UInt8> {
            guard n >= 0, n <= remaining else { throw Malformed(reason: "message cut short") }
            defer { position += n }
            return data[position..<position + n]
        }

        mutating func byte() throws(Malformed) -> UInt8 { try bytes(1).first! }

        mutating func uint16() throws(Malformed) -> UInt16 {
            let b = try bytes(2)
            return UInt16(b[b.startIndex]) | UInt16(b[b.startIndex + 1]) << 8
        }

        mutating func uint64() throws(Malformed) -> UInt64 {
            let b = try bytes(8)
            var value: UInt64 = 0
            for (i, byte) in b.enumerated() { value |= UInt64(byte) << (8 * UInt64(i)) }
            return value
        }
    }

    // MARK: Typed access

    public func int(_ tag: UInt8) -> Int64? {
        if case .int(let value)? = fields[tag] { return value }
        return nil
    }

    public func double(_ tag: UInt8) -> Double? {
        if case .double(let value)? = fields[tag] { return value }
        return nil
    }

    public func text(_ tag: UInt8) -> String? {
        if case .text(let value)? = fields[tag] { return value }
        return nil
    }

    public func ints(_ tag: UInt8) -> [Int64]? {
        if case .ints(let value)? = fields[tag] { return value }
        return nil
    }

    /// An int field that must be present and within `range`.
    func int(_ tag: UInt8, in range: ClosedRange<Int64>) throws(Malformed) -> Int {
        guard let value = int(tag) else { throw Malformed(reason: "field \(tag) missing") }
        guard range.contains(value) else { throw Malformed(reason: "field \(tag) out of range (\(value))") }
        return Int(value)
    }
}
