import CGdkPixbuf
import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

@Suite struct AnimationDecoderTests {
    private let folder = TempFolder()

    private static let red: UInt32 = 0xFF0000, green: UInt32 = 0x00FF00, blue: UInt32 = 0x0000FF, white: UInt32 = 0xFFFFFF

    private func decode(_ name: String, fitting box: Int = 100, decoder: AnimationDecoder = AnimationDecoder(),
                        cancellation: CancellationFlag = CancellationFlag()) -> Result<DecodedAnimation?, DecodeFailure> {
        decode(uri: folder.uri(name), fitting: box, decoder: decoder, cancellation: cancellation)
    }

    private func decode(uri: String, fitting box: Int = 100, decoder: AnimationDecoder = AnimationDecoder(),
                        cancellation: CancellationFlag = CancellationFlag()) -> Result<DecodedAnimation?, DecodeFailure> {
        decoder.decode(DecodeRequest(uri: uri, fitting: PixelSize(width: box, height: box)), cancellation: cancellation)
    }

    /// The three-frame GIF of the brief: red 100 ms, green 200 ms, blue 50 ms, looping.
    private func threeFrames(_ name: String = "three.gif", loopCount: Int? = 0) {
        folder.file(name, bytes: handMadeGIF(palette: [Self.red, Self.green, Self.blue, Self.white],
                                     frames: [(0, 10), (1, 20), (2, 5)], loopCount: loopCount))
    }

    @Test func threeFrameGIFGivesItsFramesColoursAndDurations() throws {
        threeFrames()
        let animation = try #require(try decode("three.gif").get())
        #expect(animation.frames.count == 3)
        #expect(animation.frames.map(\.duration) == [100, 200, 50])
        #expect(animation.loops)
        for (frame, colour) in zip(animation.frames, [Self.red, Self.green, Self.blue]) {
            #expect(frame.image.size == PixelSize(width: 4, height: 4))
            #expect(frame.image.sourceSize == PixelSize(width: 4, height: 4))
            #expect(frame.image.format == "gif")
            for (x, y) in [(0, 0), (3, 0), (1, 2), (3, 3)] {
                #expect(frame.image.pixel(x, y, isNear: colour << 8 | 0xFF), "pixel (\(x), \(y)) is \(frame.image.rgb(x, y))")
            }
        }
    }

    @Test func gifWithoutALoopExtensionPlaysOnce() throws {
        threeFrames("once.gif", loopCount: nil)
        let animation = try #require(try decode("once.gif").get())
        #expect(animation.frames.count == 3)
        #expect(!animation.loops)
    }

    @Test func gifLoopingTwiceStillLoops() throws {
        threeFrames("twice.gif", loopCount: 2)
        let animation = try #require(try decode("twice.gif").get())
        #expect(animation.frames.count == 3)
        #expect(animation.loops)
    }

    @Test func framesShrinkToFitTheBox() throws {
        folder.file("wide.gif", bytes: handMadeGIF(width: 40, height: 20, palette: [Self.red, Self.green], frames: [(0, 10), (1, 10)]))
        let animation = try #require(try decode("wide.gif", fitting: 10).get())
        #expect(animation.frames.count == 2)
        for (frame, colour) in zip(animation.frames, [Self.red, Self.green]) {
            #expect(frame.image.size == PixelSize(width: 10, height: 5))
            #expect(frame.image.sourceSize == PixelSize(width: 40, height: 20))
            #expect(frame.image.pixel(5, 2, isNear: colour << 8 | 0xFF), "pixel is \(frame.image.rgb(5, 2))")
        }
    }

    @Test func delaysBelowTwentyMillisecondsCountAsOneHundred() throws {
        // 0 and 10 ms, as browsers play them; 20 ms is fast but allowed.
        folder.file("fast.gif", bytes: handMadeGIF(palette: [Self.red, Self.green, Self.blue, Self.white],
                                           frames: [(0, 0), (1, 1), (2, 2), (3, 3)]))
        let animation = try #require(try decode("fast.gif").get())
        #expect(animation.frames.map(\.duration) == [100, 100, 20, 30])
    }

    @Test func stillGIFIsNil() throws {
        folder.file("still.gif", bytes: handMadeGIF(palette: [Self.red, Self.green], frames: [(0, 10)], loopCount: nil))
        #expect(try decode("still.gif").get() == nil)
        // A loop extension does not make one frame an animation.
        folder.file("still-loop.gif", bytes: handMadeGIF(palette: [Self.red, Self.green], frames: [(1, 10)]))
        #expect(try decode("still-loop.gif").get() == nil)
    }

    @Test func pngIsNil() throws {
        folder.image("a.png", width: 20, height: 10)
        #expect(try decode("a.png").get() == nil)
        folder.image("b.jpg", width: 20, height: 10, type: "jpeg")
        #expect(try decode("b.jpg").get() == nil)
    }

    @Test func textNamedLikeAGIFIsNotAnImage() throws {
        folder.file("x.gif", text: "These are notes, not an animation.\n")
        #expect(try #require(decode("x.gif").failure).kind == .notAnImage)
    }

    @Test func missingFileIsUnreadable() throws {
        #expect(try #require(decode("gone.gif").failure).kind == .unreadable)
    }

    @Test func maxFramesKeepsTheFirstFrames() throws {
        threeFrames()
        let two = try #require(try decode("three.gif", decoder: AnimationDecoder(maxFrames: 2)).get())
        #expect(two.frames.count == 2)
        #expect(two.frames.map(\.duration) == [100, 200])
        #expect(two.frames[1].image.pixel(0, 0, isNear: Self.green << 8 | 0xFF))
        #expect(two.loops)
        // Room for one frame only: a still image.
        #expect(try decode("three.gif", decoder: AnimationDecoder(maxFrames: 1)).get() == nil)
    }

    @Test func maxBytesKeepsTheFramesThatFit() throws {
        threeFrames()
        let all = try #require(try decode("three.gif").get())
        let frameBytes = all.frames[0].image.pixels.count
        let capped = try #require(try decode("three.gif", decoder: AnimationDecoder(maxBytes: frameBytes * 2 + frameBytes / 2)).get())
        #expect(capped.frames.count == 2)
        #expect(capped.byteCount <= frameBytes * 2 + frameBytes / 2)
        #expect(try decode("three.gif", decoder: AnimationDecoder(maxBytes: frameBytes)).get() == nil)
    }

    @Test func longAnimationStopsAtMaxFrames() throws {
        let colours: [UInt32] = [Self.red, Self.green, Self.blue, Self.white]
        folder.file("long.gif", bytes: handMadeGIF(palette: colours, frames: (0..<400).map { ($0 % 4, 4) }))
        let animation = try #require(try decode("long.gif").get())
        #expect(animation.frames.count == 300)
        #expect(animation.loops)
        for (i, frame) in animation.frames.enumerated() where i % 37 == 0 {
            #expect(frame.image.pixel(1, 1, isNear: colours[i % 4] << 8 | 0xFF), "frame \(i) is \(frame.image.rgb(1, 1))")
        }
    }

    @Test func thousandsOfLongFramesDoNotOverflowTheLoadersClock() throws {
        // 5,000 frames of 655.35 s: more than gdk-pixbuf's GIF clock (ms in an int) can add up,
        // which makes its iterator abort the process. Only the frames kept reach the loader.
        folder.file("endless.gif", bytes: handMadeGIF(palette: [Self.red, Self.green], frames: (0..<5_000).map { ($0 % 2, 65_535) }))
        let animation = try #require(try decode("endless.gif", decoder: AnimationDecoder(maxFrames: 100_000)).get())
        #expect(animation.frames.count == AnimationDecoder.gifFrameCeiling)
        #expect(animation.frames.allSatisfy { $0.duration == 655_350 })
    }

    @Test func gifDeclaringAHugeCanvasIsRefused() throws {
        folder.file("huge.gif", bytes: handMadeGIF(width: 30_000, height: 30_000, image: (4, 4), palette: [Self.red, Self.green], frames: [(0, 10), (1, 10)]))
        #expect(try #require(decode("huge.gif").failure).kind == .tooLarge)
    }

    @Test func cancelledBeforeDecodingReturnsCancelled() throws {
        threeFrames()
        let flag = CancellationFlag()
        flag.cancel()
        #expect(try #require(decode("three.gif", cancellation: flag).failure).kind == .cancelled)
    }

    @Test func truncatedGIFPlaysTheFramesItHasOrFails() throws {
        let whole = handMadeGIF(palette: [Self.red, Self.green, Self.blue, Self.white], frames: (0..<8).map { ($0 % 4, 10) })
        for length in stride(from: 1, to: whole.count, by: 7) {
            folder.file("cut.gif", bytes: Array(whole.prefix(length)))
            switch decode("cut.gif") {
            case .success(let animation?):
                #expect((2...8).contains(animation.frames.count), "\(length) bytes")
            case .success(nil):
                break
            case .failure(let failure):
                #expect(failure.kind == .corrupt || failure.kind == .notAnImage, "\(length) bytes: \(failure)")
            }
        }
    }

    // MARK: - Layout

    @Test func layoutCountsGIFFramesAsTheyArrive() throws {
        let bytes = handMadeGIF(palette: [Self.red, Self.green, Self.blue, Self.white], frames: [(0, 10), (1, 20), (2, 5)], loopCount: 3)
        var layout = AnimationLayout(format: .gif)
        for end in 1...bytes.count { layout.scan(Array(bytes.prefix(end))) }
        #expect(layout.canvas == PixelSize(width: 4, height: 4))
        #expect(layout.frameEnds.count == 3)
        #expect(layout.frameEnds.last == bytes.count - 1)  // before the trailer
        #expect(layout.gifDelays == [100, 200, 50])
        #expect(layout.loopCount == 3)
        #expect(layout.isFinished)
        let cut = layout.cut(bytes, afterFrame: 2)
        #expect(cut.count == layout.frameEnds[1] + 1 && cut.last == 0x3B)
    }

    // MARK: - The shared corpus

    private static var formats: String { SharedCorpus.root + "/formats" }

    @Test(.enabled(if: SharedCorpus.has("formats/pillow/iss634.webp"), SharedCorpus.missing("formats/pillow/iss634.webp")))
    func animatedWebPFromTheCorpusPlays() throws {
        let path = Self.formats + "/pillow/iss634.webp"
        // 42 frames of 245×245 on a looping canvas; the first lasts 0 ms, the others 60 or 70.
        let animation = try #require(try decode(uri: fileURI(path), fitting: 1000).get())
        #expect(animation.frames.count == 42)
        #expect(animation.loops)
        #expect(animation.frames[0].duration == 100)
        #expect(animation.frames.dropFirst().allSatisfy { $0.duration == 60 || $0.duration == 70 })
        for frame in animation.frames {
            #expect(frame.image.size == PixelSize(width: 245, height: 245))
            #expect(frame.image.format == "webp")
        }
        // Not every frame is the same picture.
        let distinct = Set(animation.frames.map { Data(bytes: $0.image.pixels.bytes, count: $0.image.pixels.count) })
        #expect(distinct.count > 10)

        let small = try #require(try decode(uri: fileURI(path), fitting: 50).get())
        #expect(small.frames.count == 42)
        #expect(small.frames.allSatisfy { $0.image.size == PixelSize(width: 50, height: 50) && $0.image.sourceSize == PixelSize(width: 245, height: 245) })
    }

    @Test(.enabled(if: SharedCorpus.has("formats/pillow/iss634.webp"), SharedCorpus.missing("formats/pillow/iss634.webp")))
    func animatedWebPIsCutToThePixelBudget() throws {
        let path = Self.formats + "/pillow/iss634.webp"
        // The WebP loader decodes every frame it is given at full canvas size: it is given 3.
        let canvas = 245 * 245
        let three = try #require(try decode(uri: fileURI(path), decoder: AnimationDecoder(maxDecodedPixels: canvas * 3)).get())
        #expect(three.frames.count == 3)
        #expect(three.loops)
        let refused = try #require(decode(uri: fileURI(path), decoder: AnimationDecoder(maxDecodedPixels: canvas * 3 / 2)).failure)
        #expect(refused.kind == .tooLarge)
        // maxFrames cuts the file too.
        let five = try #require(try decode(uri: fileURI(path), decoder: AnimationDecoder(maxFrames: 5)).get())
        #expect(five.frames.count == 5)
    }

    @Test(.enabled(if: SharedCorpus.has("formats/pillow/iss634.webp"), SharedCorpus.missing("formats/pillow/iss634.webp")))
    func webPPlayingOnceDoesNotLoop() throws {
        let path = Self.formats + "/pillow/iss634.webp"
        var bytes = try #require(FileManager.default.contents(atPath: path).map(Array.init))
        // The ANIM chunk's loop count (after a 4-byte background colour), set to 1: play once.
        let anim = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("ANIM".utf8) })
        bytes[anim + 12] = 1
        bytes[anim + 13] = 0
        folder.file("once.webp", bytes: bytes)
        let animation = try #require(try decode("once.webp", decoder: AnimationDecoder(maxFrames: 4)).get())
        #expect(animation.frames.count == 4)
        #expect(!animation.loops)
    }

    private static let stillWebPs = ["formats/pillow/hopper.webp", "formats/webp/libwebp/test.webp"]

    @Test(.enabled(if: stillWebPs.contains(where: SharedCorpus.has), SharedCorpus.missing("formats/pillow/hopper.webp")))
    func stillWebPsAreNil() throws {
        let paths = Self.stillWebPs.filter(SharedCorpus.has).map { SharedCorpus.root + "/" + $0 }
        for path in paths {
            #expect(try decode(uri: fileURI(path)).get() == nil, "\(path)")
        }
    }

    @Test(.enabled(if: SharedCorpus.has("formats/gdk-pixbuf/gif-test-suite"), SharedCorpus.missing("formats/gdk-pixbuf/gif-test-suite")))
    func gifTestSuiteAnimationsMatchTheirReferenceFrames() throws {
        let suite = Self.formats + "/gdk-pixbuf/gif-test-suite"
        // The suite's animations whose frames are the file's images one for one, as
        // gdk-pixbuf plays them (in others, images without a delay combine into one frame).
        // Each .conf lists the frames: reference pixels (RGBA) and delays in hundredths.
        for name in ["animation", "animation-speed", "animation-zero-delays", "animation-no-delays",
                     "dispose-keep", "dispose-none", "dispose-restore-background"] {
            let conf = try GIFSuiteConfiguration(path: suite + "/\(name).conf")
            let animation = try #require(try decode(uri: fileURI(suite + "/" + conf.input)).get(), "\(name)")
            #expect(animation.frames.count == conf.frames.count, "\(name)")
            #expect(animation.frames.map(\.duration) == conf.frames.map { DecodedAnimation.Frame.duration(forDelay: $0.delay * 10) }, "\(name)")
            #expect(animation.loops == conf.loopsForever, "\(name)")
            for (i, (frame, want)) in zip(animation.frames, conf.frames).enumerated() {
                let reference = try #require(FileManager.default.contents(atPath: suite + "/" + want.pixels))
                #expect(frame.image.size == conf.size, "\(name)")
                #expect(frame.image.hasAlpha)
                for y in 0..<conf.size.height {
                    for x in 0..<conf.size.width {
                        let o = (y * conf.size.width + x) * 4
                        let p = frame.image.pixels.bytes.advanced(by: y * frame.image.stride + x * 4).assumingMemoryBound(to: UInt8.self)
                        let got = [p[0], p[1], p[2], p[3]], expected = Array(reference[o..<o + 4])
                        // A transparent pixel's colour means nothing.
                        #expect(got == expected || (got[3] == 0 && expected[3] == 0), "\(name) frame \(i) pixel (\(x), \(y)): \(got) for \(expected)")
                    }
                }
            }
        }
    }

    private static let hostileFolders = ["formats/gdk-pixbuf/gif-test-suite", "bad"]

    @Test(.enabled(if: hostileFolders.contains(where: SharedCorpus.has), SharedCorpus.missing("bad")))
    func everyFileOfTheGIFSuiteAndTheBadCorpusDecodesOrFails() throws {
        let folders = Self.hostileFolders.filter(SharedCorpus.has).map { SharedCorpus.root + "/" + $0 }
        let decoder = AnimationDecoder(maxFrames: 50)
        var animations = 0
        for folder in folders {
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() {
                let path = folder + "/" + file
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                let result = runOnThread { decoder.decode(DecodeRequest(uri: fileURI(path), fitting: PixelSize(width: 256, height: 256)), cancellation: CancellationFlag()) }
                let finished = try #require(result, "decoding \(file) hung")
                if case .success(let animation?) = finished {
                    animations += 1
                    #expect((2...50).contains(animation.frames.count), "\(file)")
                    #expect(animation.frames.allSatisfy { $0.duration >= 20 && $0.image.size.width <= 256 && $0.image.size.height <= 256 }, "\(file)")
                }
            }
        }
        if FileManager.default.fileExists(atPath: folders[0] + "/animation.gif") {
            #expect(animations >= 5)
        }
    }
}

// MARK: - The GIF test suite's descriptions

/// One of the GIF test suite's .conf files (a key file): the canvas, the loop count and, for
/// each frame, its reference pixels (a file of RGBA bytes) and delay in hundredths of a second.
private struct GIFSuiteConfiguration {
    let input: String
    let size: PixelSize
    let loopsForever: Bool
    let frames: [(pixels: String, delay: Int)]

    init(path: String) throws {
        var sections: [String: [String: String]] = [:]
        var section = ""
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { sections[section, default: [:]][parts[0]] = parts[1] }
        }
        let config = sections["config"] ?? [:]
        input = config["input"] ?? ""
        size = PixelSize(width: Int(config["width"] ?? "") ?? 0, height: Int(config["height"] ?? "") ?? 0)
        loopsForever = config["loop-count"] == "infinite"
        frames = (config["frames"] ?? "").split(separator: ",").map { name in
            let frame = sections[String(name)] ?? [:]
            return (frame["pixels"] ?? "", Int(frame["delay"] ?? "") ?? 0)
        }
    }
}

// MARK: - Hand-made GIFs

/// A GIF89a of `width`×`height` whose frames each fill the canvas with one colour of `palette`
/// (0xRRGGBB, at most 4 colours), each with a graphic control extension giving its delay in
/// hundredths of a second. A NETSCAPE2.0 extension gives `loopCount` (0: forever), when given.
/// The images cover the canvas unless `image` gives a smaller size (drawn at the top left).
func handMadeGIF(width: Int = 4, height: Int = 4, image: (width: Int, height: Int)? = nil, palette: [UInt32],
                 frames: [(colour: Int, delay: Int)], loopCount: Int? = 0) -> [UInt8] {
    precondition(palette.count <= 4)
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    var bytes = Array("GIF89a".utf8) + le16(width) + le16(height)
    bytes += [0x81, 0, 0]  // a global colour table of 4 entries
    for i in 0..<4 {
        let c = i < palette.count ? palette[i] : 0
        bytes += [UInt8(c >> 16), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF)]
    }
    if let loopCount {
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(loopCount) + [0]
    }
    for frame in frames {
        // Graphic control extension: disposal 1 (leave in place), no transparency.
        bytes += [0x21, 0xF9, 4, 0x04] + le16(frame.delay) + [0, 0]
        let size = image ?? (width, height)
        bytes += [0x2C] + le16(0) + le16(0) + le16(size.width) + le16(size.height) + [0]
        bytes += [2]  // LZW minimum code size
        let codes = lzwSolid(index: frame.colour, count: size.width * size.height)
        var i = 0
        while i < codes.count {
            let n = min(255, codes.count - i)
            bytes += [UInt8(n)] + codes[i..<i + n]
            i += n
        }
        bytes += [0]
    }
    return bytes + [0x3B]
}

/// LZW data (minimum code size 2) for `count` pixels of colour `index`: literal codes only,
/// with a clear code before every pair, so that the codes stay 3 bits wide.
private func lzwSolid(index: Int, count: Int) -> [UInt8] {
    var codes: [Int] = []
    for i in 0..<count {
        if i % 2 == 0 { codes.append(4) }  // clear
        codes.append(index)
    }
    codes.append(5)  // end of information
    var bytes: [UInt8] = []
    var bits = 0, bitCount = 0
    for code in codes {
        bits |= code << bitCount
        bitCount += 3
        while bitCount >= 8 {
            bytes.append(UInt8(bits & 0xFF))
            bits >>= 8
            bitCount -= 8
        }
    }
    if bitCount > 0 { bytes.append(UInt8(bits & 0xFF)) }
    return bytes
}
