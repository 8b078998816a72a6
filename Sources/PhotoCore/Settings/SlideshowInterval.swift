/// How long a slideshow shows each photo, in whole seconds, from 1 to 60.
public struct SlideshowInterval: Sendable, Hashable, Comparable {
    public static let shortest = 1
    public static let longest = 60
    public static let standard = SlideshowInterval(seconds: 5)

    /// Seconds a photo stays, within `shortest...longest`.
    public let seconds: Int

    /// An interval of `seconds`, brought into the range.
    public init(seconds: Int) {
        self.seconds = min(max(seconds, Self.shortest), Self.longest)
    }

    public static func < (a: SlideshowInterval, b: SlideshowInterval) -> Bool { a.seconds < b.seconds }
}
