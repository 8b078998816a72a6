/// Where one photo lies in the viewer: its zoom, pan and rotation in a viewport.
///
/// Everything is in device pixels (a widget's size times its scale factor). The scale is
/// device pixels per image pixel: 1 is 100%. Image coordinates are the image's own pixels
/// as decoded (after EXIF orientation, before the viewer's rotation); build the transform
/// from the image's full size (`DecodedImage.sourceSize`), never from a decoded copy's,
/// so that a sharper decode arriving later changes nothing here: draw whatever is decoded
/// into `imageRect`.
///
/// The state is kept valid by every operation:
/// - the scale stays within `minimumScale...maximumScale` (the fit scale up to 2000%);
/// - on an axis where the scaled image is no larger than the viewport it is centred; on an
///   axis where it is larger, the pan stops where an edge of the image meets the edge of
///   the viewport, so no gap opens and the image never drifts out of view.
///
/// ```swift
/// var view = ViewTransform(imageSize: PixelSize(width: 6000, height: 4000),
///                          viewport: ViewSize(width: 1280, height: 800))   // fitted: scale 0.2
/// view.toggleFitAndActualSize(at: ViewPoint(x: 640, y: 400))              // 100% around the centre
/// view.pan(by: ViewPoint(x: 30, y: 0))                                     // dragged 30 px right
/// view.rotate(by: 1)                                                       // a quarter turn clockwise
/// ```
public struct ViewTransform: Sendable, Equatable {
    /// The image's size in its own pixels, before the viewer's rotation.
    public let imageSize: PixelSize
    /// The viewport's size in device pixels.
    public private(set) var viewport: ViewSize
    /// The viewer's rotation in clockwise quarter turns, 0...3.
    public private(set) var quarterTurns: Int
    /// Device pixels per image pixel: 1 is 100%.
    public private(set) var scale: Double
    /// How far the image's centre lies from the viewport's centre, in device pixels.
    public private(set) var pan: ViewPoint

    /// The image fitted in the viewport, centred.
    public init(imageSize: PixelSize, viewport: ViewSize, quarterTurns: Int = 0) {
        self.imageSize = imageSize
        self.viewport = viewport
        self.quarterTurns = ZoomGeometry.normalizedQuarterTurns(quarterTurns)
        self.scale = 1
        self.pan = .zero
        fit()
    }

    /// The image at `scale` with its centre `pan` from the viewport's centre, both clamped
    /// into the valid range (see the type's discussion).
    public init(imageSize: PixelSize, viewport: ViewSize, quarterTurns: Int, scale: Double, pan: ViewPoint) {
        self.imageSize = imageSize
        self.viewport = viewport
        self.quarterTurns = ZoomGeometry.normalizedQuarterTurns(quarterTurns)
        self.scale = 1
        self.pan = pan
        self.scale = clampedScale(scale)
        clampPan()
    }

    // MARK: - Scale

    /// The image's size turned by the viewer's rotation, in image pixels.
    public var rotatedImageSize: ViewSize {
        ZoomGeometry.rotatedSize(of: imageSize, quarterTurns: quarterTurns)
    }

    /// The scale that shows the whole rotated image, never above 1 (small images are shown
    /// at 100%, not blown up).
    public var fitScale: Double {
        ZoomGeometry.fitScale(imageSize: imageSize, viewport: viewport, quarterTurns: quarterTurns)
    }

    /// The smallest scale zooming out reaches: the fit scale (which is at most 1).
    public var minimumScale: Double { fitScale }

    /// The largest scale zooming in reaches: `ZoomGeometry.maximumScale`.
    public var maximumScale: Double { max(ZoomGeometry.maximumScale, fitScale) }

    /// Whether the image is at its fit scale (and so, centred).
    public var isFitted: Bool { abs(scale - fitScale) <= fitScale * 1e-9 }

    /// Whether the image is at 100%: one image pixel per device pixel.
    public var isActualSize: Bool { abs(scale - 1) <= 1e-9 }

    /// The rotation in degrees, clockwise, for drawing (`gtk_snapshot_rotate`).
    public var rotationDegrees: Double { Double(quarterTurns) * 90 }

    // MARK: - Mapping

    /// Where the scaled, rotated image lies in the viewport.
    ///
    /// To draw: translate to the rect's centre, rotate by `rotationDegrees`, scale by
    /// `scale` (times the image's size over the decoded copy's size, for a smaller copy),
    /// and draw the unrotated image centred on the origin.
    public var imageRect: ViewRect {
        let rotated = rotatedImageSize
        let size = ViewSize(width: rotated.width * scale, height: rotated.height * scale)
        let center = viewport.center + pan
        return ViewRect(origin: ViewPoint(x: center.x - size.width / 2, y: center.y - size.height / 2), size: size)
    }

    /// The image point (image pixels, before rotation) shown at `point` in the viewport.
    /// Points off the image give coordinates outside `0...width` × `0...height`.
    public func imagePoint(forViewportPoint point: ViewPoint) -> ViewPoint {
        let rect = imageRect
        let rotated = ViewPoint(x: (point.x - rect.minX) / scale, y: (point.y - rect.minY) / scale)
        let w = Double(imageSize.width), h = Double(imageSize.height)
        switch quarterTurns {
        case 1: return ViewPoint(x: rotated.y, y: h - rotated.x)
        case 2: return ViewPoint(x: w - rotated.x, y: h - rotated.y)
        case 3: return ViewPoint(x: w - rotated.y, y: rotated.x)
        default: return rotated
        }
    }

    /// Where the image point `point` (image pixels, before rotation) is in the viewport.
    public func viewportPoint(forImagePoint point: ViewPoint) -> ViewPoint {
        let w = Double(imageSize.width), h = Double(imageSize.height)
        let rotated: ViewPoint
        switch quarterTurns {
        case 1: rotated = ViewPoint(x: h - point.y, y: point.x)
        case 2: rotated = ViewPoint(x: w - point.x, y: h - point.y)
        case 3: rotated = ViewPoint(x: point.y, y: w - point.x)
        default: rotated = point
        }
        let rect = imageRect
        return ViewPoint(x: rect.minX + rotated.x * scale, y: rect.minY + rotated.y * scale)
    }

    // MARK: - Zoom and pan

    /// Fits the image in the viewport, centred.
    public mutating func fit() {
        scale = fitScale
        pan = .zero
    }

    /// Zooms to `newScale` (clamped to `minimumScale...maximumScale`) keeping the image
    /// point under `point` (viewport coordinates) where it is.
    ///
    /// The point stays put unless the clamping of the pan moves it: zooming out near an
    /// edge, or to a size where the image is centred on an axis, keeps the image in view
    /// instead. Zooming in never moves it when the image already covers the viewport.
    public mutating func zoom(to newScale: Double, around point: ViewPoint) {
        guard newScale.isFinite else { return }
        let target = clampedScale(newScale)
        let rect = imageRect
        // The point, in rotated image pixels from the image's top-left corner, stays under `point`.
        let anchor = ViewPoint(x: (point.x - rect.minX) / scale, y: (point.y - rect.minY) / scale)
        let rotated = rotatedImageSize
        let origin = ViewPoint(x: point.x - anchor.x * target, y: point.y - anchor.y * target)
        pan = ViewPoint(x: origin.x + rotated.width * target / 2 - viewport.width / 2,
                        y: origin.y + rotated.height * target / 2 - viewport.height / 2)
        scale = target
        clampPan()
    }

    /// Zooms by `factor` (2 doubles the scale) around `point`; see `zoom(to:around:)`.
    public mutating func zoom(by factor: Double, around point: ViewPoint) {
        zoom(to: scale * factor, around: point)
    }

    /// Moves the image by `delta` device pixels (positive: right and down, following a
    /// drag), as far as the clamping allows. A scroll wheel moves the view, so the image
    /// by the opposite delta.
    public mutating func pan(by delta: ViewPoint) {
        guard delta.x.isFinite, delta.y.isFinite else { return }
        pan = pan + delta
        clampPan()
    }

    /// A double click at `point`: from the fit to 100% keeping the image point under
    /// `point` where it is; from any other zoom back to the fit.
    ///
    /// An image no larger than the viewport is fitted at 100% already: it goes to 200%
    /// instead, so that a double click always does something.
    public mutating func toggleFitAndActualSize(at point: ViewPoint) {
        if isFitted {
            zoom(to: fitScale < 1 - 1e-9 ? 1 : 2, around: point)
        } else {
            fit()
        }
    }

    // MARK: - Rotation and resizing

    /// Turns the image by `quarterTurns` clockwise (negative: anticlockwise) about the
    /// viewport's centre, so the image point at the centre stays there.
    ///
    /// A fitted image is fitted again (its fit scale changes when width and height swap);
    /// any other keeps its scale, clamped to the new limits, and its pan is clamped.
    public mutating func rotate(by quarterTurns: Int) {
        let wasFitted = isFitted
        let turns = ZoomGeometry.normalizedQuarterTurns(quarterTurns)
        self.quarterTurns = ZoomGeometry.normalizedQuarterTurns(self.quarterTurns + turns)
        for _ in 0..<turns { pan = ViewPoint(x: -pan.y, y: pan.x) }
        if wasFitted {
            fit()
        } else {
            scale = clampedScale(scale)
            clampPan()
        }
    }

    /// This transform turned by `quarterTurns`; see `rotate(by:)`.
    public func rotated(by quarterTurns: Int) -> ViewTransform {
        var turned = self
        turned.rotate(by: quarterTurns)
        return turned
    }

    /// The viewport changed size (the window was resized, or went full screen).
    ///
    /// A fitted image is fitted again. Any other keeps the image point at the viewport's
    /// centre at the new centre and its scale, both clamped to the new limits.
    public mutating func resize(to newViewport: ViewSize) {
        let wasFitted = isFitted
        viewport = newViewport
        if wasFitted {
            fit()
        } else {
            scale = clampedScale(scale)
            clampPan()
        }
    }

    // MARK: - Decoding

    /// The size to decode the image at for showing it at `scale` (image orientation, before
    /// the viewer's rotation, for `DecodeRequest.fitting`).
    ///
    /// Two sizes only, so that zooming step by step does not decode at every step: at the
    /// fit scale (or below), the fitted size, about the viewport's; above it, the full
    /// resolution. Never larger than the image.
    public func decodeSize(for scale: Double) -> PixelSize {
        let fit = fitScale
        guard imageSize.width > 0, imageSize.height > 0, scale <= fit * (1 + 1e-9) else { return imageSize }
        func length(_ full: Int) -> Int { min(full, max(1, Int((Double(full) * fit).rounded()))) }
        return PixelSize(width: length(imageSize.width), height: length(imageSize.height))
    }

    /// Whether an image decoded at `decoded` is too small to show sharply at the current
    /// scale, so a larger decode (`decodeSize(for: scale)`) is worth asking for.
    ///
    /// A decode a pixel short of the exact size (rounding) is enough; one as large as the
    /// image always is.
    public func needsSharperImage(decoded: PixelSize) -> Bool {
        let wanted = min(scale, 1)
        return Double(decoded.width) + 1 < Double(imageSize.width) * wanted
            || Double(decoded.height) + 1 < Double(imageSize.height) * wanted
    }

    // MARK: - Clamping

    private func clampedScale(_ proposed: Double) -> Double {
        guard proposed.isFinite else { return fitScale }
        return min(max(proposed, minimumScale), maximumScale)
    }

    private mutating func clampPan() {
        let size = imageRect.size
        pan = ViewPoint(x: Self.clamped(pan.x, extent: size.width, viewport: viewport.width),
                        y: Self.clamped(pan.y, extent: size.height, viewport: viewport.height))
    }

    /// The pan on one axis: 0 (centred) when the image fits on it, else no further than
    /// where the image's edge meets the viewport's.
    private static func clamped(_ pan: Double, extent: Double, viewport: Double) -> Double {
        let slack = (extent - viewport) / 2
        guard slack > 0, pan.isFinite else { return 0 }
        return min(max(pan, -slack), slack)
    }
}
