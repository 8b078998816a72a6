import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// Videos in the decoder processes, for real: files made by tests/ui/made_videos.py with
/// GStreamer's tools, read by GStreamer inside the confined process.
@Suite(.serialized) struct VideoDecodingTests {
    private let folder = TempFolder()

    static let maker = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../tests/ui/made_videos.py").standardized.path
    static let canMake = FileManager.default.isExecutableFile(atPath: "/usr/bin/gst-launch-1.0")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    private func make(_ name: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.maker, folder.path(name)] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "made_videos.py \(name)")
    }

    private static func decoder(bubblewrap: Bool) -> IsolatedDecoder {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        settings.useBubblewrap = bubblewrap
        return IsolatedDecoder(settings: settings)
    }

    /// The pixel at (x, y) of an RGB(A) image.
    private func pixel(_ image: DecodedImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let at = image.pixels.bytes.advanced(by: y * image.stride + x * (image.hasAlpha ? 4 : 3)).assumingMemoryBound(to: UInt8.self)
        return (Int(at[0]), Int(at[1]), Int(at[2]))
    }

    @Test(.enabled(if: canMake, "gst-launch-1.0 or python3 is missing"), arguments: [true, false])
    func aRotatedVideosFrameIsUprightWithItsLengthAndDate(bubblewrap: Bool) throws {
        // Stored 320×192, red on the left and blue on the right, turned 90° clockwise: upright
        // it is 192×320, red at the top and blue at the bottom.
        try make("turned.mp4", ["--colours", "red,blue", "--rotate", "90", "--created", "2021-05-06T07:08:09Z", "--seconds", "3"])
        let isolated = Self.decoder(bubblewrap: bubblewrap)
        let image = try isolated.decode(DecodeRequest(uri: folder.uri("turned.mp4"), fitting: PixelSize(width: 256, height: 256)),
                                        cancellation: CancellationFlag()).get()
        #expect(image.sourceSize == PixelSize(width: 192, height: 320))
        #expect(image.size.height == 256 && image.size.width < 256)
        let top = pixel(image, image.size.width / 2, image.size.height / 5)
        let bottom = pixel(image, image.size.width / 2, image.size.height * 4 / 5)
        #expect(top.0 > 180 && top.2 < 90, "top \(top)")
        #expect(bottom.2 > 180 && bottom.0 < 90, "bottom \(bottom)")
        #expect((2900...3100).contains(image.videoDuration ?? 0), "length \(String(describing: image.videoDuration))")
        #expect(image.videoTurns == 1)
        #expect(isolated.status.contains("seccomp"), "\(isolated.status)")

        let dates = isolated.datesTaken(uris: [folder.uri("turned.mp4")], cancellation: CancellationFlag())
        #expect(dates == [.taken(1_620_284_889 * 1_000_000)])
    }

    @Test(.enabled(if: canMake, "gst-launch-1.0 or python3 is missing"))
    func aWebMVideoHasAFrameAndALength() throws {
        try make("green.webm", ["--colours", "lime", "--seconds", "2"])
        let image = try Self.decoder(bubblewrap: true).decode(DecodeRequest(uri: folder.uri("green.webm"), fitting: PixelSize(width: 128, height: 128)),
                                                              cancellation: CancellationFlag()).get()
        #expect(image.sourceSize == PixelSize(width: 320, height: 192))
        let middle = pixel(image, image.size.width / 2, image.size.height / 2)
        #expect(middle.1 > 180 && middle.0 < 90, "middle \(middle)")
        #expect((1900...2100).contains(image.videoDuration ?? 0), "length \(String(describing: image.videoDuration))")
    }

    @Test(.enabled(if: canMake, "gst-launch-1.0 or python3 is missing"))
    func aVideosLengthIsKeptWithItsCachedThumbnail() throws {
        try make("clip.mp4", ["--seconds", "2"])
        let cache = TempFolder()
        let provider = ThumbnailProvider(cacheHome: cache.path, decoder: Self.decoder(bubblewrap: true))
        var status = stat()
        #expect(stat(folder.path("clip.mp4"), &status) == 0)
        let request = ThumbnailRequest(uri: folder.uri("clip.mp4"), modifiedSeconds: Int64(status.st_mtim.tv_sec), fileSize: Int64(status.st_size), size: .normal)
        guard case .generated(let made, nil) = provider.outcome(for: request, cancellation: CancellationFlag()) else {
            Issue.record("no thumbnail made")
            return
        }
        guard case .cached(let cached) = provider.outcome(for: request, cancellation: CancellationFlag()) else {
            Issue.record("the thumbnail was not cached")
            return
        }
        #expect(made.videoDuration != nil)
        #expect(cached.videoDuration == made.videoDuration)
    }

    @Test(.enabled(if: canMake, "gst-launch-1.0 or python3 is missing"))
    func aVideoWhoseCodecHasNoDecoderSaysWhichPackageBringsOne() throws {
        try make("unknown.mp4", ["--fourcc", "zzzz"])
        let failure = Self.decoder(bubblewrap: true).decode(DecodeRequest(uri: folder.uri("unknown.mp4"), fitting: PixelSize(width: 64, height: 64)),
                                                            cancellation: CancellationFlag()).failure
        #expect(failure?.kind == .notAnImage)
        #expect(failure?.reason.contains("install gstreamer1.0-libav") == true, "\(String(describing: failure))")
    }

    @Test func videosAreToldFromPhotosByTheirFirstBytes() {
        #expect(StillFormat.sniff(Array("\0\0\0\u{18}ftypmp42\0\0\0\0".utf8), name: nil) == .video)
        #expect(StillFormat.sniff(Array("\0\0\0\u{14}ftypqt  \0\0\0\0".utf8), name: nil) == .video)
        #expect(StillFormat.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x9F], name: nil) == .video)
        #expect(StillFormat.sniff(Array("\0\0\0\u{18}ftypheic\0\0\0\0".utf8), name: nil) == .heif)
        #expect(StillFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0], name: nil) == .pixbuf)
    }
}
