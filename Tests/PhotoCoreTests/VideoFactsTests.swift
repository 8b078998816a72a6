@testable import PhotoCore
import Testing

@Suite struct VideoFactsTests {
    @Test func lengthsReadAsATileShowsThem() {
        #expect(VideoFacts.durationText(milliseconds: 0) == "0:00")
        #expect(VideoFacts.durationText(milliseconds: 3_000) == "0:03")
        #expect(VideoFacts.durationText(milliseconds: 6_499) == "0:06")
        #expect(VideoFacts.durationText(milliseconds: 6_500) == "0:07")
        #expect(VideoFacts.durationText(milliseconds: 723_000) == "12:03")
        #expect(VideoFacts.durationText(milliseconds: 3_723_000) == "1:02:03")
        #expect(VideoFacts.durationText(milliseconds: -5) == "0:00")
    }

    @Test func aMissingDecoderNamesThePackageThatBringsIt() {
        #expect(VideoFacts.package(forCaps: "video/x-h265, stream-format=(string)hvc1") == "gstreamer1.0-libav")
        #expect(VideoFacts.package(forCaps: "video/x-h264") == "gstreamer1.0-libav")
        #expect(VideoFacts.package(forCaps: "video/x-vp9") == "gstreamer1.0-plugins-good")
        #expect(VideoFacts.package(forCaps: "video/x-av1, profile=(string)main") == "gstreamer1.0-plugins-bad")
    }

    @Test func videosAreToldByTheirContentTypes() {
        for type in ["video/mp4", "video/quicktime", "video/x-m4v", "video/webm", "video/x-matroska", "video/3gpp", "VIDEO/MP4"] {
            #expect(VideoFacts.isVideo(contentType: type), "\(type)")
        }
        #expect(!VideoFacts.isVideo(contentType: "image/jpeg"))
        let clip = Photo(id: "file:///a.mov", displayName: "a.mov", modified: 0, size: 1, contentType: "video/quicktime")
        #expect(clip.isVideo)
        #expect(SpokenPhotoName.of(clip) == "a.mov, video")
    }

    @Test func aVideosLengthCrossesTheProcessBoundaryAndTheCache() throws {
        var layout = PixelLayout(frames: PixelLayout.packed([(PixelSize(width: 10, height: 5), 0)], hasAlpha: false),
                                 hasAlpha: false, sourceSize: PixelSize(width: 10, height: 5), format: "video")
        layout.videoDuration = 7_250
        layout.videoTurns = 3
        let reply = try DecoderReply(DecoderMessage(decoding: DecoderReply(id: 3, outcome: .pixels(layout)).message.encoded()))
        #expect(reply.outcome == .pixels(layout))

        var attributes = ThumbnailAttributes(uri: "file:///a.mp4", modified: 1)
        attributes.movieLength = 7_250
        let written = Dictionary(uniqueKeysWithValues: attributes.entries.map { ($0.key, $0.value) })
        #expect(written["Thumb::Movie::Length"] == "7.25")
        #expect(ThumbnailAttributes { written[$0] }.movieLength == 7_250)
        #expect(ThumbnailAttributes { $0 == "Thumb::Movie::Length" ? "12" : nil }.movieLength == 12_000)
        #expect(ThumbnailAttributes { $0 == "Thumb::Movie::Length" ? "nan" : nil }.movieLength == nil)
    }
}
