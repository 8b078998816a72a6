import Foundation

/// Finds where the part of a progressive JPEG that a decode at 1/8 scale uses ends.
///
/// A JPEG decoded at 1/8 of its size (libjpeg's smallest shrink on load, which a thumbnail
/// of a photo of 2048 pixels or more gets) turns each 8×8 block into one pixel from the
/// block's DC coefficient alone. A progressive JPEG sends the DC coefficients of every
/// component first, in one scan or one per component, a few percent of the file; the rest of
/// the file (AC scans, and usually a late scan that refines the DC's lowest bit) changes
/// nothing at that scale but the lowest bit, yet libjpeg decodes all of it: 0.75 s of a 16 MB
/// wallpaper's 0.77 s. A decoder that stops after the first DC scans, and ends the image
/// there with an EOI marker, gets the same pixels within a level or two.
///
/// Feed the file's bytes in order with `scan`; it reads markers as they stream past and keeps
/// no bytes. It answers `.end(at:)` with the offset (from the file's start) of the first marker
/// after the DC scans of every component, or `.notApplicable` for anything else: a baseline
/// or arithmetic-coded JPEG, an AC scan before every component had its DC, an image that ends
/// first, bytes that are not a JPEG. It never reads past what it was given.
public struct ProgressiveJPEGPrefix: Sendable {
    public enum Finding: Sendable, Equatable {
        /// Not decided yet: feed more bytes.
        case needMore
        /// The DC scans of every component end at this offset, where the next marker starts.
        case end(at: Int)
        /// The whole file must be decoded.
        case notApplicable
    }

    /// The image's size, from its frame header (once read).
    public private(set) var size: PixelSize?
    public private(set) var finding = Finding.needMore

    private enum State {
        case start(seen: Int)
        /// Before a marker: 0xFF fill bytes, then the marker's code.
        case marker(sawFF: Bool)
        /// A segment's two length bytes.
        case length(code: UInt8, high: UInt8?)
        /// A segment's body: frame and scan headers are kept to be read, others skipped.
        case body(code: UInt8, remaining: Int)
        /// A scan's entropy-coded data, which ends at a 0xFF (and any fill 0xFFs) followed by
        /// a marker code; `marker` is where the last run of 0xFFs started.
        case entropy(marker: Int?)
    }

    private var state = State.start(seen: 0)
    /// Bytes consumed so far (the offset of the next byte).
    private var offset = 0
    private var segment: [UInt8] = []
    private var components: [UInt8] = []
    private var componentsWithDC = Set<UInt8>()

    public init() {}

    /// Whether a JPEG of `size` decoded to fit `box` is decoded at 1/8 scale: the loader
    /// shrinks by 8 when an eighth of the image still covers the size asked for.
    public static func decodesAtOneEighth(_ size: PixelSize, fitting box: PixelSize) -> Bool {
        let target = size.fitting(in: box)
        return size.width / 8 >= target.width && size.height / 8 >= target.height
    }

    /// Reads the next bytes of the file; returns the finding so far.
    @discardableResult
    public mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Finding {
        guard let base = bytes.baseAddress else { return finding }
        var i = 0
        while i < bytes.count, finding == .needMore {
            switch state {
            case .entropy(nil):
                // Most of a scan is entropy-coded data: skip to its next 0xFF at once.
                guard let found = memchr(base + i, 0xFF, bytes.count - i) else {
                    offset += bytes.count - i
                    return finding
                }
                let next = base.distance(to: UnsafeRawPointer(found))
                offset += next - i
                i = next
            case .body(let code, let remaining) where remaining > 1 && code != 0xC2 && code != 0xDA:
                // A segment that is not read (EXIF, a profile, tables): skipped at once, all but
                // its last byte, which ends it.
                let skipped = min(remaining - 1, bytes.count - i)
                state = .body(code: code, remaining: remaining - skipped)
                offset += skipped
                i += skipped
                continue
            default:
                break
            }
            step(bytes[i])
            offset += 1
            i += 1
        }
        return finding
    }

    /// Reads the next bytes of the file; returns the finding so far.
    @discardableResult
    public mutating func scan(_ bytes: [UInt8]) -> Finding {
        bytes.withUnsafeBytes { scan($0) }
    }

    private mutating func step(_ byte: UInt8) {
        switch state {
        case .start(let seen):
            let soi: [UInt8] = [0xFF, 0xD8]
            guard byte == soi[seen] else { return giveUp() }
            state = seen == 0 ? .start(seen: 1) : .marker(sawFF: false)

        case .marker(let sawFF):
            if byte == 0xFF {
                state = .marker(sawFF: true)
                return
            }
            guard sawFF else { return giveUp() }
            markerCode(byte)

        case .length(let code, .none):
            state = .length(code: code, high: byte)
        case .length(let code, .some(let high)):
            let length = Int(high) << 8 | Int(byte)
            guard length >= 2 else { return giveUp() }
            segment.removeAll(keepingCapacity: true)
            state = .body(code: code, remaining: length - 2)
            if length == 2 { segmentEnded(code) }

        case .body(let code, let remaining):
            // Only the frame (SOF2) and scan (SOS) headers are read; they are short.
            if code == 0xC2 || code == 0xDA { segment.append(byte) }
            state = .body(code: code, remaining: remaining - 1)
            if remaining == 1 { segmentEnded(code) }

        case .entropy(nil):
            if byte == 0xFF { state = .entropy(marker: offset) }
        case .entropy(let marker?):
            switch byte {
            case 0x00, 0xD0...0xD7: state = .entropy(marker: nil)  // a stuffed 0xFF, a restart marker
            case 0xFF: break                                        // fill before a marker
            default:
                // The scan has ended: a marker starts at the first 0xFF before this byte.
                if !components.isEmpty && componentsWithDC.isSuperset(of: components) {
                    finding = .end(at: marker)
                    return
                }
                markerCode(byte)
            }
        }
    }

    /// The whole file will be decoded.
    private mutating func giveUp() {
        finding = .notApplicable
    }

    private mutating func markerCode(_ code: UInt8) {
        switch code {
        case 0xD0...0xD7, 0x01:
            state = .marker(sawFF: false)  // standalone markers
        case 0xD8, 0xD9:
            giveUp()  // a second image start, or the end before the DC scans did
        case 0xC0, 0xC1, 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
            giveUp()  // baseline, lossless, hierarchical or arithmetic-coded
        default:
            state = .length(code: code, high: nil)
        }
    }

    private mutating func segmentEnded(_ code: UInt8) {
        state = .marker(sawFF: false)
        switch code {
        case 0xC2:
            // Precision, height, width, component count, then three bytes per component.
            guard components.isEmpty, segment.count >= 6 else { return giveUp() }
            let count = Int(segment[5])
            guard count > 0, segment.count >= 6 + 3 * count else { return giveUp() }
            size = PixelSize(width: Int(segment[3]) << 8 | Int(segment[4]), height: Int(segment[1]) << 8 | Int(segment[2]))
            components = (0..<count).map { segment[6 + 3 * $0] }
        case 0xDA:
            // Component count, two bytes per component, then Ss, Se and Ah/Al.
            guard !components.isEmpty, let count = segment.first.map(Int.init), count > 0,
                  segment.count >= 1 + 2 * count + 3 else { return giveUp() }
            let spectralStart = segment[1 + 2 * count], spectralEnd = segment[2 + 2 * count]
            let approximationHigh = segment[3 + 2 * count] >> 4
            // A first DC scan; anything else before every component has its DC is a layout
            // this does not know, and the whole file is decoded.
            guard spectralStart == 0, spectralEnd == 0, approximationHigh == 0 else { return giveUp() }
            for i in 0..<count { componentsWithDC.insert(segment[1 + 2 * i]) }
            state = .entropy(marker: nil)
        default:
            break
        }
    }
}
