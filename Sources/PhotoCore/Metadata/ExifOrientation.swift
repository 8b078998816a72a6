/// A photo's EXIF orientation (tag 0x0112): how the stored pixels are turned and mirrored
/// to show the photo upright, one of the eight values 1–8.
///
/// Each value is a mirror (or none) followed by clockwise quarter turns: 1 upright, 6 a
/// quarter turn clockwise, 3 a half turn, 8 three quarters; 2, 7, 4 and 5 the same after
/// mirroring left to right. Turning a shown photo further adds quarter turns and keeps the
/// mirror, so the viewer's rotation (R, Shift+R) saved into the file is `rotated(by:)`.
public struct ExifOrientation: Sendable, Hashable, CustomStringConvertible {
    /// The tag's value, 1–8.
    public let value: Int

    /// nil for a value the EXIF standard does not define.
    public init?(_ value: Int) {
        guard (1...8).contains(value) else { return nil }
        self.value = value
    }

    /// Upright: the pixels as stored.
    public static let upright = ExifOrientation(1)!

    // The values by mirroring, then clockwise quarter turns 0...3.
    private static let plain = [1, 6, 3, 8]
    private static let mirrored = [2, 7, 4, 5]

    public init(mirrored: Bool, clockwiseQuarterTurns turns: Int) {
        let turns = ((turns % 4) + 4) % 4
        value = (mirrored ? Self.mirrored : Self.plain)[turns]
    }

    /// Whether the stored pixels are mirrored left to right before they are turned.
    public var isMirrored: Bool { Self.mirrored.contains(value) }

    /// The clockwise quarter turns (0...3) after the mirror.
    public var clockwiseQuarterTurns: Int {
        (Self.plain.firstIndex(of: value) ?? Self.mirrored.firstIndex(of: value))!
    }

    /// The orientation that shows the photo as this one does, then turned by `quarterTurns`
    /// clockwise (negative: anticlockwise).
    public func rotated(by quarterTurns: Int) -> ExifOrientation {
        ExifOrientation(mirrored: isMirrored, clockwiseQuarterTurns: clockwiseQuarterTurns + quarterTurns)
    }

    public var description: String { "\(value)" }
}
