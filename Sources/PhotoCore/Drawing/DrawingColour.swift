/// A colour to draw with: 8-bit red, green, blue and alpha (straight, not premultiplied).
///
/// The board's document gives three presets, `red` (the pen's colour when a board opens),
/// `green` and `blue`; any other comes from the palette or the colour chooser
/// (`init(red:green:blue:alpha:)` from GdkRGBA's doubles).
public struct DrawingColour: Sendable, Hashable, CustomStringConvertible {
    /// Red, green and blue, 0...255.
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    /// 255 is opaque, 0 transparent.
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// A colour from components in 0...1 (GdkRGBA's), rounded to the nearest 8-bit value;
    /// values out of range are clamped, NaN is 0.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func byte(_ value: Double) -> UInt8 { value.isFinite ? UInt8((min(max(value, 0), 1) * 255).rounded()) : 0 }
        self.init(r: byte(red), g: byte(green), b: byte(blue), a: byte(alpha))
    }

    /// The colour written `#RRGGBB` or `#RRGGBBAA` (the `#` optional, any case); nil for
    /// anything else.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(r: UInt8(rgba >> 24), g: UInt8((rgba >> 16) & 0xFF), b: UInt8((rgba >> 8) & 0xFF), a: UInt8(rgba & 0xFF))
    }

    /// The document's red, #FC5C46: the pen's colour when a board opens.
    public static let red = DrawingColour(r: 0xFC, g: 0x5C, b: 0x46)
    /// The document's green, #3DC92A.
    public static let green = DrawingColour(r: 0x3D, g: 0xC9, b: 0x2A)
    /// The document's blue, #1994FC.
    public static let blue = DrawingColour(r: 0x19, g: 0x94, b: 0xFC)
    /// The three presets in the order the tools show them.
    public static let presets: [DrawingColour] = [.red, .green, .blue]

    /// White: a blank board's background.
    public static let white = DrawingColour(r: 255, g: 255, b: 255)
    /// Black.
    public static let black = DrawingColour(r: 0, g: 0, b: 0)

    /// Whether it hides what is under it completely.
    public var isOpaque: Bool { a == 255 }

    /// The same colour with `alpha` instead of its own.
    public func with(alpha: UInt8) -> DrawingColour {
        DrawingColour(r: r, g: g, b: b, a: alpha)
    }

    /// The components in 0...1, for cairo and GdkRGBA.
    public var components: (red: Double, green: Double, blue: Double, alpha: Double) {
        (Double(r) / 255, Double(g) / 255, Double(b) / 255, Double(a) / 255)
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var description: String {
        func hex(_ byte: UInt8) -> String { (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
        return "#" + hex(r) + hex(g) + hex(b) + (isOpaque ? "" : hex(a))
    }
}
