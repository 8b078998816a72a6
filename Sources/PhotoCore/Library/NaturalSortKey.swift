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
        var digits: [UInt8] = []

        func flushDigits() {
            guard !digits.isEmpty else { return }
            let significant = digits.drop { $0 == UInt8(ascii: "0") }
            let run = significant.isEmpty ? [UInt8(ascii: "0")] : Array(significant)
            out.append(Self.digitMarker)
            out.append(UInt8(min(run.count, 255)))
            out.append(contentsOf: run)
            digits.removeAll(keepingCapacity: true)
        }

        for byte in name.lowercased().utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits.append(byte)
            } else {
                flushDigits()
                out.append(byte)
            }
        }
        flushDigits()
        bytes = out
    }

    public static func < (lhs: NaturalSortKey, rhs: NaturalSortKey) -> Bool {
        // Byte order, as `lexicographicallyPrecedes` gives it, with one memcmp: sorting a
        // big folder spends most of its time here.
        lhs.bytes.withUnsafeBufferPointer { a in
            rhs.bytes.withUnsafeBufferPointer { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
    }
}
