/// What the browser knows of videos without reading one: which files are videos, how long
/// a duration reads on a tile, and which Debian package brings a decoder that is missing.
public enum VideoFacts {
    /// The content types listed as videos (GIO's names by extension: .mp4, .mov, .m4v,
    /// .webm, .mkv, .3gp, .3g2), beside the photos.
    public static let mimeTypes: Set<String> = [
        "video/mp4", "video/quicktime", "video/x-m4v", "video/webm", "video/x-matroska",
        "video/3gpp", "video/3gpp2",
    ]

    /// Whether a content type is a video's.
    public static func isVideo(contentType: String) -> Bool {
        mimeTypes.contains(contentType.lowercased())
    }

    /// A duration as a tile's badge shows it: "0:07", "12:03", "1:02:03" (whole seconds,
    /// rounded to the nearest).
    public static func durationText(milliseconds: Int) -> String {
        let total = max(0, (milliseconds + 500) / 1000)
        let hours = total / 3600, minutes = (total / 60) % 60, seconds = total % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }

    /// The Debian package that brings a decoder for a stream GStreamer describes by its caps
    /// ("video/x-h265, …"): FFmpeg's decoders (gstreamer1.0-libav) for H.264, HEVC, MPEG-4
    /// and most others; VP8 and VP9 in gstreamer1.0-plugins-good; AV1 in
    /// gstreamer1.0-plugins-bad (dav1d).
    public static func package(forCaps caps: String) -> String {
        let media = caps.split(separator: ",").first.map { String($0).trimmingSpaces.lowercased() } ?? ""
        switch media {
        case "video/x-vp8", "video/x-vp9": return "gstreamer1.0-plugins-good"
        case "video/x-av1": return "gstreamer1.0-plugins-bad"
        case "video/x-theora", "audio/x-vorbis": return "gstreamer1.0-plugins-base"
        default: return "gstreamer1.0-libav"
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}

extension Photo {
    /// Whether this photo is a video (`VideoFacts.mimeTypes`): its tile shows the duration,
    /// the viewer plays it.
    public var isVideo: Bool { VideoFacts.isVideo(contentType: contentType) }
}
