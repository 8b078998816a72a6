import Glibc

/// A sort key that orders file names as a person expects: case-insensitively, with runs of
/// digits compared by value, so `IMG_2` comes before `IMG_10`.
///
/// The key is a byte string compared lexicographically. Each digit run is encoded as a
/// marker byte below every printable character, the run's length without leading zeros,
/// then the digits; other characters are their lowercased UTF-8 bytes (a NUL character,
/// which no file name holds, is left out). Computing the key once per file keeps a
/// 100,000-file sort to plain byte comparisons.
///
/// The first 24 bytes are held in three integers, most significant byte first and padded
/// with zeros, which no key byte is: two or three integer comparisons order most names, and
/// a key of 24 bytes or fewer (`IMG_1234.JPG`'s is 14, `holiday-2024-0123.jpg`'s 23) keeps
/// no array of its own, 64 bytes of heap a photo less in a large folder.
public struct NaturalSortKey: Sendable, Hashable, Comparable {
    /// Bytes 0 to 7, 8 to 15 and 16 to 23 of the key, big-endian, zero-padded.
    @usableFromInline let head0: UInt64
    @usableFromInline let head1: UInt64
    @usableFromInline let head2: UInt64
    /// Bytes 24 and on (empty for most names: no allocation).
    @usableFromInline let tail: [UInt8]

    /// The key's bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(24 + tail.count)
        for head in [head0, head1, head2] {
            for shift in stride(from: 56, through: 0, by: -8) {
                let byte = UInt8(truncatingIfNeeded: head >> UInt64(shift))
                guard byte != 0 else { return out }
                out.append(byte)
            }
        }
        return out + tail
    }

    private static let digitMarker: UInt8 = 0x01

    public init(_ name: String) {
        // Lowercasing an ASCII name is a byte operation; any other goes through Unicode's rules.
        // The key is made from the name's UTF-8 bytes in place, in a buffer on the stack: a
        // folder of 100,000 photos makes 100,000 keys while it is listed.
        var text = name
        let ascii = text.withUTF8 { bytes -> Parts? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return Self.parts(of: bytes, foldingASCII: true)
        }
        var lowered = ascii == nil ? name.lowercased() : ""
        (head0, head1, head2, tail) = ascii ?? lowered.withUTF8 { Self.parts(of: $0, foldingASCII: false) }
    }

    /// The key of the name held in `utf8` (valid UTF-8).
    init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            self.init(parts: Self.parts(of: bytes, foldingASCII: true))
        } else {
            self.init(String(decoding: bytes, as: UTF8.self))
        }
    }

    private init(parts: Parts) {
        (head0, head1, head2, tail) = parts
    }

    /// A key's three first words and the rest.
    private typealias Parts = (UInt64, UInt64, UInt64, [UInt8])

    /// The key of `bytes` (lowercased already, or ASCII to lowercase when `foldingASCII`), as
    /// its first three words and the rest.
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>, foldingASCII: Bool) -> Parts {
        // A digit run of n bytes becomes at most n + 2 (a lone "0" becomes 3), any other byte
        // stays one: three times the name's length always holds the key.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count * 3, 24)) { out in
            // The words' bytes past the key's end are zeros: nothing is written past its end.
            let words = UnsafeMutableRawPointer(out.baseAddress!)
            words.initializeMemory(as: UInt8.self, repeating: 0, count: 24)
            var count = 0
            var runStart = -1  // where the current digit run's marker goes, -1 outside a run
            var run = 0  // digits in the current run, leading zeros dropped

            func endRun() {
                // Room for the marker and the count was left before the run's significant
                // digits (a run of zeros alone is one "0").
                out[runStart] = digitMarker
                if run == 0 {
                    out[runStart + 1] = 1
                    out[runStart + 2] = UInt8(ascii: "0")
                    count = runStart + 3
                } else {
                    out[runStart + 1] = UInt8(min(run, 255))
                }
                run = 0
                runStart = -1
            }

            for var byte in bytes {
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    if runStart < 0 {
                        runStart = count
                        count += 2
                    }
                    if run > 0 || byte != UInt8(ascii: "0") {
                        out[count] = byte
                        count += 1
                        run += 1
                    }
                } else {
                    if runStart >= 0 { endRun() }
                    if foldingASCII, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 32 }
                    if byte != 0 {
                        out[count] = byte
                        count += 1
                    }
                }
            }
            if runStart >= 0 { endRun() }
            func word(at start: Int) -> UInt64 { UInt64(bigEndian: words.loadUnaligned(fromByteOffset: start, as: UInt64.self)) }
            let tail = count > 24 ? Array(UnsafeBufferPointer(rebasing: out[24..<count])) : []
            return (word(at: 0), word(at: 8), word(at: 16), tail)
        }
    }

    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`.
    @inlinable public static func compare(_ lhs: NaturalSortKey, _ rhs: NaturalSortKey) -> Int {
        if lhs.head0 != rhs.head0 { return lhs.head0 < rhs.head0 ? -1 : 1 }
        if lhs.head1 != rhs.head1 { return lhs.head1 < rhs.head1 ? -1 : 1 }
        if lhs.head2 != rhs.head2 { return lhs.head2 < rhs.head2 ? -1 : 1 }
        // The same first 24 bytes: a key of 24 bytes or fewer has no tail, and sorts first.
        guard !lhs.tail.isEmpty || !rhs.tail.isEmpty else { return 0 }
        return lhs.tail.withUnsafeBufferPointer { a in
            rhs.tail.withUnsafeBufferPointer { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : Int(memcmp(a.baseAddress!, b.baseAddress!, common))
                return order != 0 ? order : a.count - b.count
            }
        }
    }

    public static func < (lhs: NaturalSortKey, rhs: NaturalSortKey) -> Bool {
        // Byte order, as `lexicographicallyPrecedes` gives it: sorting a big folder spends
        // most of its time here.
        compare(lhs, rhs) < 0
    }
}
