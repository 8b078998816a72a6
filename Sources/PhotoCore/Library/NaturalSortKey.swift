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
/// The first 16 bytes are held in two integers, most significant byte first and padded with
/// zeros, which no key byte is: two integer comparisons order most names, and a key of 16
/// bytes or fewer (`IMG_1234.JPG`'s is 14) keeps no array of its own, 64 bytes of heap a
/// photo less in a large folder.
public struct NaturalSortKey: Sendable, Hashable, Comparable {
    /// Bytes 0 to 7 and 8 to 15 of the key, big-endian, zero-padded.
    @usableFromInline let head0: UInt64
    @usableFromInline let head1: UInt64
    /// Bytes 16 and on (empty for most names: no allocation).
    @usableFromInline let tail: [UInt8]

    /// The key's bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + tail.count)
        for head in [head0, head1] {
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
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count + 4)
        // Lowercasing an ASCII name is a byte operation; any other goes through Unicode's rules.
        let isASCII = name.utf8.allSatisfy { $0 < 0x80 }
        let lowered = isASCII ? name : name.lowercased()
        var run = 0  // digits in the current run, leading zeros dropped
        var sawDigit = false

        func flushDigits() {
            guard sawDigit else { return }
            // The run's significant digits sit at the end of `out`: put the marker and the
            // count before them (a run of zeros alone is one "0").
            if run == 0 {
                out.append(Self.digitMarker)
                out.append(1)
                out.append(UInt8(ascii: "0"))
            } else {
                let start = out.count - run
                out.insert(contentsOf: [Self.digitMarker, UInt8(min(run, 255))], at: start)
            }
            run = 0
            sawDigit = false
        }

        for var byte in lowered.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                if run > 0 || byte != UInt8(ascii: "0") {
                    out.append(byte)
                    run += 1
                }
            } else {
                flushDigits()
                if isASCII, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 32 }
                if byte != 0 { out.append(byte) }
            }
        }
        flushDigits()
        func word(at start: Int) -> UInt64 {
            var word: UInt64 = 0
            for i in start..<start + 8 { word = word << 8 | UInt64(i < out.count ? out[i] : 0) }
            return word
        }
        head0 = word(at: 0)
        head1 = word(at: 8)
        tail = out.count > 16 ? Array(out[16...]) : []
    }

    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`.
    @inlinable public static func compare(_ lhs: NaturalSortKey, _ rhs: NaturalSortKey) -> Int {
        if lhs.head0 != rhs.head0 { return lhs.head0 < rhs.head0 ? -1 : 1 }
        if lhs.head1 != rhs.head1 { return lhs.head1 < rhs.head1 ? -1 : 1 }
        // The same first 16 bytes: a key of 16 bytes or fewer has no tail, and sorts first.
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
