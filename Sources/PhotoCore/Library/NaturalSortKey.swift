import Glibc

/// A sort key that orders file names as a person expects: case-insensitively, with runs of
/// digits compared by value, so `IMG_2` comes before `IMG_10`.
///
/// The key is a byte string compared lexicographically. Each digit run is encoded as a
/// marker byte below every printable character, the run's length without leading zeros,
/// then the digits; other characters are their lowercased UTF-8 bytes. Computing the key
/// once per file keeps a 100,000-file sort to plain byte comparisons.
public struct NaturalSortKey: Sendable, Hashable, Comparable {
    public let bytes: [UInt8]

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
                out.append(byte)
            }
        }
        flushDigits()
        bytes = out
    }

    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`.
    @inlinable public static func compare(_ lhs: NaturalSortKey, _ rhs: NaturalSortKey) -> Int {
        lhs.bytes.withUnsafeBufferPointer { a in
            rhs.bytes.withUnsafeBufferPointer { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : Int(memcmp(a.baseAddress!, b.baseAddress!, common))
                return order != 0 ? order : a.count - b.count
            }
        }
    }

    public static func < (lhs: NaturalSortKey, rhs: NaturalSortKey) -> Bool {
        // Byte order, as `lexicographicallyPrecedes` gives it, with one memcmp: sorting a
        // big folder spends most of its time here.
        compare(lhs, rhs) < 0
    }
}
