import Foundation

/// Tells whether a JPEG's bytes reach the end of its image (the EOI marker after its scans).
///
/// A JPEG cut short (a copy or download that stopped, a card pulled out) decodes without an
/// error in gdk-pixbuf: the rows it has, and grey below them, or for a progressive JPEG a
/// blurred image; its loader reports nothing, or words about libjpeg's state. The file's own
/// markers say it: an image ends with EOI after its last scan, and no 0xFF 0xD9 can occur
/// inside a scan's entropy-coded data (a 0xFF there is followed by 0x00 or a restart marker).
///
/// Feed the file's bytes in order with `scan`; it reads markers as they stream past, skipping
/// segments (an EXIF thumbnail's own EOI inside APP1 is not taken for the image's) and keeps
/// no bytes. `endMissing` is true only for bytes that began as a JPEG, had a scan, and ended
/// before the EOI after it; anything it does not follow says nothing (false).
public struct JPEGEndWatch: Sendable {
    private enum State {
        case start(seen: Int)
        /// Before a marker: bytes up to a 0xFF (libjpeg skips stray ones too), fill 0xFFs,
        /// then the marker's code.
        case marker(sawFF: Bool)
        case length(code: UInt8, high: UInt8?)
        case body(code: UInt8, remaining: Int)
        /// A scan's entropy-coded data; `sawFF`: the last byte was a 0xFF.
        case entropy(sawFF: Bool)
        /// The image's EOI was read, or the bytes are not followed (not a JPEG).
        case done
    }

    private var state = State.start(seen: 0)
    private var isJPEG = false
    private var sawScan = false
    /// The EOI after the image's scans was read.
    public private(set) var reachedEnd = false

    public init() {}

    /// Whether the bytes fed so far, taken as the whole file, are a JPEG cut short.
    public var endMissing: Bool { isJPEG && sawScan && !reachedEnd }

    /// Reads the next bytes of the file.
    public mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var i = 0
        while i < bytes.count {
            switch state {
            case .done:
                return
            case .entropy(sawFF: false):
                // Most of the file is entropy-coded data: to its next 0xFF at once.
                guard let found = memchr(base + i, 0xFF, bytes.count - i) else { return }
                i = base.distance(to: UnsafeRawPointer(found))
            case .body(let code, let remaining) where remaining > 1:
                // Segments are skipped, whatever they hold.
                let skipped = min(remaining - 1, bytes.count - i)
                state = .body(code: code, remaining: remaining - skipped)
                i += skipped
                continue
            default:
                break
            }
            step(bytes[i])
            i += 1
        }
    }

    /// Reads the next bytes of the file.
    public mutating func scan(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { scan($0) }
    }

    private mutating func step(_ byte: UInt8) {
        switch state {
        case .start(let seen):
            let soi: [UInt8] = [0xFF, 0xD8]
            guard byte == soi[seen] else { state = .done; return }
            if seen == 1 { isJPEG = true }
            state = seen == 0 ? .start(seen: 1) : .marker(sawFF: false)
        case .marker(let sawFF):
            if byte == 0xFF {
                state = .marker(sawFF: true)
            } else if sawFF {
                markerCode(byte)
            }
        case .length(let code, .none):
            state = .length(code: code, high: byte)
        case .length(let code, .some(let high)):
            let length = Int(high) << 8 | Int(byte)
            guard length >= 2 else { state = .done; return }
            if length == 2 { segmentEnded(code) } else { state = .body(code: code, remaining: length - 2) }
        case .body(let code, _):
            segmentEnded(code)  // its last byte
        case .entropy(false):
            if byte == 0xFF { state = .entropy(sawFF: true) }
        case .entropy(true):
            switch byte {
            case 0x00, 0xD0...0xD7: state = .entropy(sawFF: false)  // a stuffed 0xFF, a restart marker
            case 0xFF: break                                        // fill before a marker
            default: markerCode(byte)                               // the scan ended
            }
        case .done:
            break
        }
    }

    private mutating func markerCode(_ code: UInt8) {
        switch code {
        case 0xD9:
            reachedEnd = sawScan
            state = .done
        case 0xD0...0xD7, 0x01, 0xD8:
            state = .marker(sawFF: false)  // standalone markers
        default:
            state = .length(code: code, high: nil)
        }
    }

    private mutating func segmentEnded(_ code: UInt8) {
        if code == 0xDA {
            sawScan = true
            state = .entropy(sawFF: false)
        } else {
            state = .marker(sawFF: false)
        }
    }
}
