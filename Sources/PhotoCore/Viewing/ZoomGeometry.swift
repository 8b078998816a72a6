/// The zoom and rotation arithmetic that needs no particular view: limits, fit, snapping.
///
/// `ViewTransform` is one photo in one viewport and builds on these; they stand alone for
/// what is decided before a photo is shown (the size to decode a neighbour at, the quarter
/// turns a rotation gesture ends on).
///
/// Quarter turns are clockwise on screen: 1 turns the top edge to the right side.
public enum ZoomGeometry {
    /// The largest zoom: 2000%, one image pixel over 20×20 device pixels (as in Loupe).
    public static let maximumScale: Double = 20

    /// `quarterTurns` in 0...3 (-1 is 3, 5 is 1).
    public static func normalizedQuarterTurns(_ quarterTurns: Int) -> Int {
        ((quarterTurns % 4) + 4) % 4
    }

    /// The size of `image` turned by `quarterTurns`: width and height swap on odd turns.
    public static func rotatedSize(of image: PixelSize, quarterTurns: Int) -> ViewSize {
        normalizedQuarterTurns(quarterTurns) % 2 == 0
            ? ViewSize(image)
            : ViewSize(width: Double(image.height), height: Double(image.width))
    }

    /// The scale that shows the whole of `image`, turned by `quarterTurns`, in `viewport`.
    ///
    /// Never above 1: an image smaller than the viewport is shown at 100%, not blown up
    /// (as Loupe and Eye of GNOME do). 1 when either size is empty, so that a viewport not
    /// allocated yet gives nothing to divide by zero.
    public static func fitScale(imageSize: PixelSize, viewport: ViewSize, quarterTurns: Int) -> Double {
        let rotated = rotatedSize(of: imageSize, quarterTurns: quarterTurns)
        guard rotated.width > 0, rotated.height > 0, viewport.width > 0, viewport.height > 0 else { return 1 }
        return min(1, viewport.width / rotated.width, viewport.height / rotated.height)
    }

    /// The quarter turns nearest to a free rotation of `radians` (a rotation gesture's
    /// angle when it ends): 44° gives 0, 46° gives 1, -46° gives -1, 180° gives 2.
    ///
    /// Positive angles are clockwise on screen (y down, as GTK measures them). The result
    /// is not normalized, so it can be added to the current turns as it is; exactly 45°
    /// rounds away from 0. A NaN or infinite angle gives 0.
    public static func snappedQuarterTurns(forAngle radians: Double) -> Int {
        guard radians.isFinite else { return 0 }
        return Int((radians / (Double.pi / 2)).rounded())
    }

    /// The box to decode a photo of unknown size in so that it comes out at its fit size
    /// for `viewport` turned by `quarterTurns`: the viewport, in the image's orientation.
    ///
    /// For `DecodeRequest.fitting` when the image's size is not known yet (a neighbour
    /// loaded ahead): the decoder shrinks to fit the box and never enlarges, which is
    /// exactly the fit scale. At least 1×1.
    public static func fitDecodeBox(viewport: ViewSize, quarterTurns: Int) -> PixelSize {
        func pixels(_ length: Double) -> Int { length.isFinite ? max(1, Int(min(length, 1e9).rounded())) : 1 }
        let width = pixels(viewport.width), height = pixels(viewport.height)
        return normalizedQuarterTurns(quarterTurns) % 2 == 0
            ? PixelSize(width: width, height: height)
            : PixelSize(width: height, height: width)
    }
}
