/// An animation (animated GIF or WebP) decoded into frames for the viewer to play: each frame
/// the full canvas as it is to be shown, shrunk to fit the box it was decoded for.
public struct DecodedAnimation: Sendable {
    /// The frames in playing order; at least two (a file with one frame is a still image).
    public let frames: [Frame]
    /// Whether the animation starts over after its last frame; when not, the last frame stays.
    public let loops: Bool

    public struct Frame: Sendable {
        public let image: DecodedImage
        /// How long the frame shows, in milliseconds: at least 20.
        public let duration: Int

        public init(image: DecodedImage, duration: Int) {
            self.image = image
            self.duration = max(duration, Self.minimumDuration)
        }

        /// The shortest duration a frame is shown for.
        public static let minimumDuration = 20

        /// The duration to show a frame whose file asks for `delay` milliseconds: a delay below
        /// 20 ms (0 in most such files) counts as 100 ms, as browsers do.
        public static func duration(forDelay delay: Int) -> Int {
            delay < minimumDuration ? 100 : delay
        }
    }

    public init(frames: [Frame], loops: Bool) {
        self.frames = frames
        self.loops = loops
    }

    /// The time one pass through the frames takes, in milliseconds.
    public var totalDuration: Int { frames.reduce(0) { $0 + $1.duration } }

    /// The bytes the frames' pixels take.
    public var byteCount: Int { frames.reduce(0) { $0 + $1.image.pixels.count } }
}

/// An image as the viewer shows it: a still image, or an animation's frames.
public enum DecodedPicture: Sendable {
    case still(DecodedImage)
    case animation(DecodedAnimation)

    /// The still image, or the animation's first frame.
    public var firstImage: DecodedImage {
        switch self {
        case .still(let image): image
        case .animation(let animation): animation.frames[0].image
        }
    }
}
