/// Where a printed photo goes on its page: the page turned to the photo's shape, the photo
/// fitted inside the printable area and centred on the sheet, its aspect kept.
///
/// Lengths are in the print context's units (points for a PDF); what to decode is in pixels
/// at `dotsPerInch`.
///
/// ```swift
/// PrintLayout.orientation(for: PixelSize(width: 1600, height: 1000))   // .landscape
/// PrintLayout.placement(of: PixelSize(width: 1600, height: 1000), in: PageArea(width: 770, height: 523))
/// // PageRect(x: 0, y: 20.875, width: 770, height: 481.25)
/// ```
public enum PrintLayout {
    public enum Orientation: Sendable, Equatable {
        case portrait
        case landscape
    }

    /// How finely photos are printed: what the decoders are asked for.
    public static let dotsPerInch = 300.0

    /// A landscape page for a photo wider than tall, else portrait (a square one too).
    public static func orientation(for photo: PixelSize) -> Orientation {
        photo.width > photo.height ? .landscape : .portrait
    }

    /// The largest rectangle of the photo's shape inside `area`, centred in it. Small photos
    /// are enlarged to fill the page too: a print is seen at arm's length.
    public static func placement(of photo: PixelSize, in area: PageArea) -> PageRect {
        guard photo.width > 0, photo.height > 0, area.width > 0, area.height > 0 else {
            return PageRect(x: 0, y: 0, width: 0, height: 0)
        }
        let scale = min(area.width / Double(photo.width), area.height / Double(photo.height))
        let width = Double(photo.width) * scale, height = Double(photo.height) * scale
        return PageRect(x: (area.width - width) / 2, y: (area.height - height) / 2, width: width, height: height)
    }

    /// The photo fitted and centred on the sheet, not on its printable area: printers'
    /// margins are often uneven (more at one edge than the other), and a photo centred
    /// between them looks off-centre on the paper. It keeps inside the printable area by
    /// keeping the larger of each pair of margins on both sides. The rectangle is from the
    /// sheet's top left corner.
    public static func placement(of photo: PixelSize, onSheet sheet: PageArea, margins: PageMargins) -> PageRect {
        let across = max(margins.left, margins.right, 0), down = max(margins.top, margins.bottom, 0)
        let fitted = placement(of: photo, in: PageArea(width: sheet.width - 2 * across, height: sheet.height - 2 * down))
        guard fitted.width > 0 else { return fitted }
        return PageRect(x: across + fitted.x, y: down + fitted.y, width: fitted.width, height: fitted.height)
    }

    /// The box to decode a photo in for a printable area of `area` (whose units are
    /// `unitsPerInch` to the inch): the area at `dotsPerInch`, at most `limit` pixels a side.
    public static func decodeBox(for area: PageArea, unitsPerInch: Double, limit: Int = 8192) -> PixelSize {
        guard unitsPerInch > 0 else { return PixelSize(width: 1, height: 1) }
        func pixels(_ length: Double) -> Int { min(limit, max(1, Int((length / unitsPerInch * dotsPerInch).rounded(.up)))) }
        return PixelSize(width: pixels(area.width), height: pixels(area.height))
    }
}

/// A page's printable area, in the print context's units.
public struct PageArea: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// The unprintable edges of a page, in the print context's units.
public struct PageMargins: Sendable, Equatable {
    public var top: Double
    public var bottom: Double
    public var left: Double
    public var right: Double
    public init(top: Double, bottom: Double, left: Double, right: Double) {
        self.top = top
        self.bottom = bottom
        self.left = left
        self.right = right
    }
}

/// A rectangle on a page, from the printable area's top left corner.
public struct PageRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
