/// The frames of a GIF or WebP file as its container lays them out, read from the bytes as
/// they arrive (each call to `scan` goes on where the last one stopped), without decoding.
/// It follows the structure as gdk-pixbuf's GIF loader and libwebp's demuxer do, so that the
/// file can be cut after any complete frame and still be read the same up to there.
public struct AnimationLayout: Sendable {
    public enum Format: Sendable { case gif, webp }

    public let format: Format
    /// The canvas the frames are drawn on, once the header has been read.
    public private(set) var canvas: PixelSize?
    /// The offset just past each complete frame (a GIF image, a WebP ANMF chunk).
    public private(set) var frameEnds: [Int] = []
    /// Whether the header says the file animates (WebP); GIF says so by having frames.
    public private(set) var isAnimated = true
    /// The loop count the file gives (0: forever), if it gives one.
    public private(set) var loopCount: Int?
    /// Whether the container's end has been reached.
    public private(set) var isFinished = false
    /// The time from the start to each complete frame's end, in milliseconds, where the file
    /// gives frame durations (WebP; a GIF frame lasts at most 655.35 s).
    private var durationEnds: [Int] = []
    /// Each complete GIF frame's delay as the file gives it, in milliseconds. gdk-pixbuf
    /// plays 10 ms as 20 ms, where browsers play anything under 20 ms as 100 ms.
    public private(set) var gifDelays: [Int] = []
    /// The delay the last graphic control extension gave, in hundredths of a second: as in
    /// gdk-pixbuf's loader, it holds for every later image until another one changes it.
    private var gifDelay = 0

    private var offset = 0
    private var state = State.header

    private enum State {
        case header
        case top
        /// Inside a GIF block's data sub-blocks: `label` 0x2C for an image, or the extension's.
        case subBlocks(label: UInt8, index: Int, loopExtension: Bool)
        case done
    }

    public init(format: Format) {
        self.format = format
    }

    /// A file known to be still: a WebP without the animation flag. (A GIF is still when it
    /// ends with fewer than two frames.)
    public var isStill: Bool { format == .webp && !isAnimated }

    /// Whether the animation starts over after its last frame, as the file says; nil when
    /// gdk-pixbuf's own iterator should say (GIF, whose loader honours the loop count).
    public var loops: Bool? {
        guard format == .webp else { return nil }
        // libwebp's default, with no ANIM chunk, is forever; the WebP loader ignores it.
        return (loopCount ?? 0) != 1
    }

    /// How many of the complete frames end within `milliseconds` of the start.
    public func framesWithin(milliseconds: Int) -> Int {
        guard format == .webp else { return frameEnds.count }
        return durationEnds.prefix { $0 <= milliseconds }.count
    }

    /// Reads what `data` (the file's first bytes, more each call) adds.
    public mutating func scan(_ data: [UInt8]) {
        switch format {
        case .gif: scanGIF(data)
        case .webp: scanWebP(data)
        }
    }

    /// `data` cut after its first `frames` frames, ended so that a reader sees a whole file.
    public func cut(_ data: [UInt8], afterFrame frames: Int) -> [UInt8] {
        let end = frameEnds[frames - 1]
        switch format {
        case .gif:
            return Array(data[0..<end]) + [0x3B]  // the trailer
        case .webp:
            var result = Array(data[0..<end])
            let size = UInt32(end - 8)
            result.replaceSubrange(4..<8, with: [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)])
            return result
        }
    }

    private static func le16(_ data: [UInt8], _ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 }
    private static func le24(_ data: [UInt8], _ i: Int) -> Int { le16(data, i) | Int(data[i + 2]) << 16 }
    private static func le32(_ data: [UInt8], _ i: Int) -> Int { le16(data, i) | le16(data, i + 2) << 16 }

    private mutating func scanGIF(_ data: [UInt8]) {
        while true {
            switch state {
            case .done:
                return
            case .header:
                // Signature, logical screen descriptor, global colour table.
                guard data.count >= 13 else { return }
                let flags = data[10]
                let table = flags & 0x80 != 0 ? 3 * (2 << Int(flags & 0x07)) : 0
                guard data.count >= 13 + table else { return }
                canvas = PixelSize(width: Self.le16(data, 6), height: Self.le16(data, 8))
                offset = 13 + table
                state = .top
            case .top:
                guard offset < data.count else { return }
                switch data[offset] {
                case 0x3B:  // trailer
                    isFinished = true
                    state = .done
                case 0x21:  // extension
                    guard offset + 2 <= data.count else { return }
                    state = .subBlocks(label: data[offset + 1], index: 0, loopExtension: false)
                    offset += 2
                case 0x2C:  // image descriptor, local colour table, LZW code size
                    guard offset + 10 <= data.count else { return }
                    let flags = data[offset + 9]
                    let table = flags & 0x80 != 0 ? 3 * (2 << Int(flags & 0x07)) : 0
                    guard offset + 10 + table + 1 <= data.count else { return }
                    offset += 10 + table + 1
                    state = .subBlocks(label: 0x2C, index: 0, loopExtension: false)
                default:
                    offset += 1  // not a block: the loader skips it too
                }
            case .subBlocks(let label, let index, let loopExtension):
                guard offset < data.count else { return }
                let length = Int(data[offset])
                if length == 0 {
                    offset += 1
                    if label == 0x2C {
                        frameEnds.append(offset)
                        gifDelays.append(gifDelay * 10)
                    }
                    state = .top
                    continue
                }
                guard offset + 1 + length <= data.count else { return }
                let block = offset + 1
                var isLoop = loopExtension
                if label == 0xF9 && index == 0 && length >= 3 {
                    gifDelay = Self.le16(data, block + 1)
                } else if label == 0xFF && index == 0 && length >= 11 {
                    let identifier = String(decoding: data[block..<block + 11], as: UTF8.self)
                    isLoop = identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0"
                } else if isLoop && index > 0 && length >= 3 && data[block] == 0x01 {
                    loopCount = Self.le16(data, block + 1)
                }
                offset = block + length
                state = .subBlocks(label: label, index: index + 1, loopExtension: isLoop)
            }
        }
    }

    private mutating func scanWebP(_ data: [UInt8]) {
        while true {
            switch state {
            case .done:
                return
            case .header:
                guard data.count >= 12 else { return }
                guard data[0..<4].elementsEqual("RIFF".utf8), data[8..<12].elementsEqual("WEBP".utf8) else {
                    state = .done  // not a WebP container: the loader will say so
                    isFinished = true
                    return
                }
                offset = 12
                state = .top
            case .top:
                let riffEnd = 8 + Self.le32(data, 4)
                guard offset + 8 <= riffEnd else {
                    isFinished = true
                    state = .done
                    return
                }
                guard offset + 8 <= data.count else { return }
                let kind = String(decoding: data[offset..<offset + 4], as: UTF8.self)
                let size = Self.le32(data, offset + 4)
                let payload = offset + 8
                let end = payload + size + (size & 1)
                switch kind {
                case "VP8 ", "VP8L":
                    if canvas == nil {
                        isAnimated = false  // a simple (lossy or lossless) still WebP
                        state = .done
                        return
                    }
                case "VP8X":
                    guard payload + 10 <= data.count else { return }
                    isAnimated = data[payload] & 0x02 != 0
                    canvas = PixelSize(width: 1 + Self.le24(data, payload + 4), height: 1 + Self.le24(data, payload + 7))
                    if !isAnimated {
                        state = .done
                        return
                    }
                case "ANIM":
                    guard payload + 6 <= data.count else { return }
                    loopCount = Self.le16(data, payload + 4)
                default:
                    break
                }
                if kind == "ANMF" {
                    guard payload + 16 <= data.count else { return }
                    guard end <= data.count else { return }
                    frameEnds.append(end)
                    durationEnds.append((durationEnds.last ?? 0) + Self.le24(data, payload + 12))
                }
                guard end <= data.count else { return }
                offset = end
            case .subBlocks:
                state = .done
            }
        }
    }
}
