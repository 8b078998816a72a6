/// A browser window's size and whether it is maximized, as the last window closed left it.
///
/// The size is the window's unmaximized size (GTK's default size), kept within
/// `minimum...maximum` so that a value from elsewhere can never open a window too small to
/// use or larger than any screen.
public struct WindowState: Sendable, Equatable {
    public static let minimumWidth = 360
    public static let minimumHeight = 300
    /// Larger than any screen, smaller than anything that would trouble a toolkit.
    public static let maximumEdge = 16384
    public static let standard = WindowState(width: 1024, height: 768, maximized: false)

    public let width: Int
    public let height: Int
    public let maximized: Bool

    public init(width: Int, height: Int, maximized: Bool) {
        self.width = min(max(width, Self.minimumWidth), Self.maximumEdge)
        self.height = min(max(height, Self.minimumHeight), Self.maximumEdge)
        self.maximized = maximized
    }
}
