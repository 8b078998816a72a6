import PhotoCore
import Testing

/// The frames of a GIF or WebP container, counted from its bytes as they arrive, without
/// decoding: what the animation decoder cuts the file after.
@Suite struct AnimationLayoutTests {
    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    private static func le24(_ v: Int) -> [UInt8] { le16(v) + [UInt8((v >> 16) & 0xFF)] }
    private static func le32(_ v: Int) -> [UInt8] { le16(v) + le16(v >> 16) }

    /// A GIF89a whose images hold `data` as their (undecoded) LZW bytes, in sub-blocks of at
    /// most 255 bytes, each after a graphic control extension of `delay` hundredths.
    static func gif(width: Int = 5, height: Int = 3, delays: [Int], loopCount: Int? = nil, localTable: Bool = false,
                    data: [UInt8] = [1, 2, 3]) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x81, 0, 0] + [UInt8](repeating: 7, count: 12)
        if let loopCount {
            bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(loopCount) + [0]
        }
        bytes += [0x21, 0xFE, 4] + Array("note".utf8) + [0]  // a comment, skipped
        for delay in delays {
            bytes += [0x21, 0xF9, 4, 0x04] + le16(delay) + [0, 0]
            bytes += [0x2C] + le16(0) + le16(0) + le16(width) + le16(height)
            bytes += localTable ? [0x80] + [UInt8](repeating: 9, count: 6) : [0]
            bytes += [2]
            var i = 0
            while i < data.count {
                let n = min(255, data.count - i)
                bytes += [UInt8(n)] + data[i..<i + n]
                i += n
            }
            bytes += [0]
        }
        return bytes + [0x3B]
    }

    static func chunk(_ kind: String, _ payload: [UInt8]) -> [UInt8] {
        Array(kind.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    /// An animated WebP container (VP8X with the animation flag, ANIM, one ANMF a frame of
    /// `durations` milliseconds each, holding a dummy image chunk of `frameBytes` bytes).
    static func webP(width: Int = 640, height: Int = 480, durations: [Int], loopCount: Int? = 0,
                     animated: Bool = true, frameBytes: Int = 11) -> [UInt8] {
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [animated ? 0x02 : 0, 0, 0, 0] + le24(width - 1) + le24(height - 1))
        if let loopCount { body += chunk("ANIM", [0, 0, 0, 0] + le16(loopCount)) }
        for duration in durations {
            let header = le24(0) + le24(0) + le24(width - 1) + le24(height - 1) + le24(duration) + [0]
            body += chunk("ANMF", header + chunk("VP8L", [UInt8](repeating: 0x2F, count: frameBytes)))
        }
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// `bytes` scanned as they arrive, `step` bytes at a time.
    static func scanned(_ bytes: [UInt8], format: AnimationLayout.Format, step: Int = 1) -> AnimationLayout {
        var layout = AnimationLayout(format: format)
        var end = 0
        while end < bytes.count {
            end = min(bytes.count, end + step)
            layout.scan(Array(bytes.prefix(end)))
        }
        return layout
    }

    // MARK: GIF

    @Test func gifFramesDelaysAndLoopsWhateverTheBytesArriveBy() {
        let bytes = Self.gif(delays: [10, 0, 655], loopCount: 2, data: [UInt8](repeating: 0x55, count: 600))
        for step in [1, 7, 256, bytes.count] {
            let layout = Self.scanned(bytes, format: .gif, step: step)
            #expect(layout.canvas == PixelSize(width: 5, height: 3))
            #expect(layout.frameEnds.count == 3)
            #expect(layout.frameEnds.last == bytes.count - 1)  // just before the trailer
            #expect(layout.gifDelays == [100, 0, 6550])
            #expect(layout.loopCount == 2)
            #expect(layout.isFinished && !layout.isStill)
            #expect(layout.loops == nil)  // gdk-pixbuf's iterator says, for GIF
            #expect(layout.framesWithin(milliseconds: 0) == 3)  // GIF: every frame counts
        }
    }

    @Test func gifLocalColourTablesAreSkipped() {
        let layout = Self.scanned(Self.gif(delays: [5, 5], localTable: true), format: .gif)
        #expect(layout.frameEnds.count == 2 && layout.isFinished)
    }

    @Test func gifWithoutTheLoopExtensionGivesNoCount() {
        let layout = Self.scanned(Self.gif(delays: [5, 5]), format: .gif)
        #expect(layout.loopCount == nil)
    }

    @Test func gifCutAfterAFrameEndsWithTheTrailer() {
        let bytes = Self.gif(delays: [1, 2, 3, 4])
        let layout = Self.scanned(bytes, format: .gif, step: 64)
        let cut = layout.cut(bytes, afterFrame: 2)
        #expect(cut.count == layout.frameEnds[1] + 1 && cut.last == 0x3B)
        let again = Self.scanned(cut, format: .gif)
        #expect(again.frameEnds == Array(layout.frameEnds.prefix(2)))
        #expect(again.isFinished)
    }

    @Test func gifCutShortCountsOnlyItsCompleteFrames() {
        let bytes = Self.gif(delays: [1, 2, 3])
        let layout = Self.scanned(bytes, format: .gif)
        let short = Self.scanned(Array(bytes.prefix(layout.frameEnds[1] + 3)), format: .gif)
        #expect(short.frameEnds.count == 2 && !short.isFinished)
        let headerOnly = Self.scanned(Array(bytes.prefix(12)), format: .gif)
        #expect(headerOnly.canvas == nil && headerOnly.frameEnds.isEmpty)
    }

    @Test func gifWithStrayBytesBetweenBlocksSkipsThem() {
        var bytes = Self.gif(delays: [1, 2])
        let first = Self.scanned(bytes, format: .gif).frameEnds[0]
        bytes.insert(contentsOf: [0x00, 0x99], at: first)
        #expect(Self.scanned(bytes, format: .gif).frameEnds.count == 2)
    }

    // MARK: WebP

    @Test func webPFramesDurationsAndLoops() {
        let bytes = Self.webP(durations: [100, 200, 300], loopCount: 0)
        for step in [1, 13, bytes.count] {
            let layout = Self.scanned(bytes, format: .webp, step: step)
            #expect(layout.canvas == PixelSize(width: 640, height: 480))
            #expect(layout.frameEnds.count == 3)
            #expect(layout.frameEnds.last == bytes.count)
            #expect(layout.loopCount == 0 && layout.loops == true)
            #expect(layout.isFinished && !layout.isStill)
            #expect(layout.framesWithin(milliseconds: 299) == 1)
            #expect(layout.framesWithin(milliseconds: 300) == 2)
            #expect(layout.framesWithin(milliseconds: 600) == 3)
        }
    }

    @Test func webPPlayingOnceDoesNotLoopAndWithoutANIMLoopsForever() {
        #expect(Self.scanned(Self.webP(durations: [1, 1], loopCount: 1), format: .webp).loops == false)
        #expect(Self.scanned(Self.webP(durations: [1, 1], loopCount: 3), format: .webp).loops == true)
        #expect(Self.scanned(Self.webP(durations: [1, 1], loopCount: nil), format: .webp).loops == true)
    }

    @Test func stillWebPsAreStill() {
        let extended = Self.scanned(Self.webP(durations: [], animated: false), format: .webp)
        #expect(extended.isStill)
        let simple = Array("RIFF".utf8) + Self.le32(4 + 8 + 10) + Array("WEBP".utf8) + Self.chunk("VP8 ", [UInt8](repeating: 1, count: 10))
        let layout = Self.scanned(simple, format: .webp)
        #expect(layout.isStill && layout.canvas == nil)
    }

    @Test func notAWebPContainerEndsTheScan() {
        let layout = Self.scanned(Array("RIFF\u{4}\0\0\0WAVEfmt ".utf8), format: .webp)
        #expect(layout.isFinished && layout.frameEnds.isEmpty)
    }

    @Test func webPCutRewritesTheRIFFSize() {
        let bytes = Self.webP(durations: [40, 40, 40, 40], frameBytes: 7)  // odd: padded chunks
        let layout = Self.scanned(bytes, format: .webp)
        let cut = layout.cut(bytes, afterFrame: 2)
        #expect(cut.count == layout.frameEnds[1])
        #expect(Array(cut[4..<8]) == Self.le32(cut.count - 8))
        let again = Self.scanned(cut, format: .webp)
        #expect(again.frameEnds == Array(layout.frameEnds.prefix(2)) && again.isFinished)
    }

    @Test func webPChunksPastTheRIFFEndAreNotRead() {
        var bytes = Self.webP(durations: [10, 10])
        bytes += Self.chunk("ANMF", [UInt8](repeating: 0, count: 30))  // after the RIFF's declared end
        let layout = Self.scanned(bytes, format: .webp)
        #expect(layout.frameEnds.count == 2 && layout.isFinished)
    }

    @Test func hostileBytesNeverTrapTheScan() {
        // Every prefix and every byte flipped of both containers: the scan ends, whatever it says.
        for bytes in [Self.gif(delays: [3, 4], loopCount: 1), Self.webP(durations: [5, 6])] {
            let format: AnimationLayout.Format = bytes.starts(with: Array("GIF".utf8)) ? .gif : .webp
            for i in 0..<bytes.count {
                for value: UInt8 in [0x00, 0xFF, 0x80] {
                    var broken = bytes
                    broken[i] = value
                    _ = Self.scanned(broken, format: format, step: 5)
                }
            }
        }
    }
}
