import CGdkPixbuf
import CLcms
import Foundation
import Synchronization

/// A colour description without an ICC profile (HEIF's and AVIF's nclx, H.273 code points):
/// the primaries' chromaticities and the transfer characteristics.
struct ColourDescription {
    var primaries: Int
    var transfer: Int
    var red: (x: Double, y: Double)
    var green: (x: Double, y: Double)
    var blue: (x: Double, y: Double)
    var white: (x: Double, y: Double)

    /// BT.709 primaries (sRGB's) with an sRGB-like curve: nothing to convert.
    var isSRGB: Bool { [1, 2].contains(primaries) && [1, 2, 6, 13, 14, 15].contains(transfer) }
    /// SMPTE ST 2084 (PQ) or ARIB STD-B67 (HLG): high dynamic range, tone-mapped to SDR.
    var isHDR: Bool { transfer == 16 || transfer == 18 }
}

/// Colour management with Little CMS (lcms2) in the decoder processes: pixels described by
/// an embedded ICC profile or an nclx description are converted to sRGB in place, with the
/// perceptual intent. Pixels without either are left untouched (no work at all).
enum ColourProfile {
    /// Converts an 8-bit RGB(A) pixbuf in place from the ICC profile `icc` to sRGB. A
    /// profile that is not an RGB one (a CMYK JPEG's: gdk-pixbuf gave RGB already), cannot be
    /// read, or is sRGB itself leaves the pixels as they are. True when converted.
    @discardableResult
    static func convertToSRGB(_ pixbuf: OpaquePointer, icc: [UInt8]) -> Bool {
        guard !icc.isEmpty, gdk_pixbuf_get_bits_per_sample(pixbuf) == 8 else { return false }
        guard let transform = transformToSRGB(icc: icc, alpha: gdk_pixbuf_get_has_alpha(pixbuf) != 0) else { return false }
        return transform.apply(to: pixbuf)
    }

    /// The transforms from the last few profiles met (nil: nothing to convert), newest first.
    /// A phone's photos all carry the same profile (Display P3), and making a transform costs
    /// more than applying it to a thumbnail (see docs/benchmarks.md: thumbnails of JPEGs with
    /// a profile took 5% less CPU time once transforms were kept).
    private static let recentTransforms = Mutex<[(icc: [UInt8], alpha: Bool, transform: SRGBTransform?)]>([])
    private static let keptTransforms = 4

    private static func transformToSRGB(icc: [UInt8], alpha: Bool) -> SRGBTransform? {
        if let known = recentTransforms.withLock({ recent in recent.first { $0.icc == icc && $0.alpha == alpha } }) {
            return known.transform
        }
        var made: SRGBTransform?
        if let profile = icc.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) {
            if cmsGetColorSpace(profile) == cmsSigRgbData, !isSRGB(profile) { made = SRGBTransform(from: profile, alpha: alpha) }
            cmsCloseProfile(profile)
        }
        recentTransforms.withLock { recent in
            recent.removeAll { $0.icc == icc && $0.alpha == alpha }
            recent.insert((icc, alpha, made), at: 0)
            if recent.count > keptTransforms { recent.removeLast() }
        }
        return made
    }

    /// The same from a colour description (nclx), HDR transfers tone-mapped to SDR.
    @discardableResult
    static func convertToSRGB(_ pixbuf: OpaquePointer, description: ColourDescription) -> Bool {
        guard !description.isSRGB, description.white.y > 0 else { return false }
        var white = cmsCIExyY(x: description.white.x, y: description.white.y, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: description.red.x, y: description.red.y, Y: 1),
            Green: cmsCIExyY(x: description.green.x, y: description.green.y, Y: 1),
            Blue: cmsCIExyY(x: description.blue.x, y: description.blue.y, Y: 1))
        guard let curve = toneCurve(transfer: description.transfer) else { return false }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { return false }
        defer { cmsCloseProfile(profile) }
        return SRGBTransform(from: profile, alpha: gdk_pixbuf_get_has_alpha(pixbuf) != 0)?.apply(to: pixbuf) ?? false
    }

    /// Whether a profile is sRGB by its description (as cameras, phones and editors name it).
    private static func isSRGB(_ profile: cmsHPROFILE) -> Bool {
        var text = [CChar](repeating: 0, count: 128)
        let n = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &text, cmsUInt32Number(text.count))
        guard n > 0 else { return false }
        let name = String(cString: text).lowercased()
        return name.hasPrefix("srgb") || name == "srgb iec61966-2.1" || name == "srgb iec61966-2-1"
    }

    /// The transfer function from code values to linear light for an H.273 transfer
    /// characteristic; PQ and HLG end in a tone map that keeps SDR white near 1 and rolls
    /// highlights off to the display's white.
    private static func toneCurve(transfer: Int) -> OpaquePointer? {
        switch transfer {
        case 8:  // linear
            return cmsBuildGamma(nil, 1.0)
        case 4:  // BT.470 M: gamma 2.2
            return cmsBuildGamma(nil, 2.2)
        case 5:  // BT.470 BG: gamma 2.8
            return cmsBuildGamma(nil, 2.8)
        case 1, 6, 14, 15:  // BT.709 and its kin
            var parameters: [cmsFloat64Number] = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
            return cmsBuildParametricToneCurve(nil, 4, &parameters)
        case 16, 18:
            var table = [cmsFloat32Number](repeating: 0, count: 4096)
            for i in table.indices {
                let v = Double(i) / Double(table.count - 1)
                let relative = transfer == 16 ? pqNits(v) / 203 : hlgNits(v) / 203
                table[i] = cmsFloat32Number(toneMap(relative))
            }
            return cmsBuildTabulatedToneCurveFloat(nil, cmsUInt32Number(table.count), &table)
        default:  // sRGB (13), unspecified: sRGB's curve
            var parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            return cmsBuildParametricToneCurve(nil, 4, &parameters)
        }
    }

    /// SMPTE ST 2084: a code value to nits.
    static func pqNits(_ v: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(v, 0), 1 / m2)
        return 10_000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// ARIB STD-B67 on a 1,000-nit display (system gamma 1.2): a code value to nits.
    static func hlgNits(_ v: Double) -> Double {
        let a = 0.17883277, b = 0.28466892, c = 0.55991073
        let scene = v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12
        return 1_000 * pow(scene, 1.2)
    }

    /// Linear light relative to SDR white (1) into 0…1: untouched up to 0.8, then rolled off
    /// smoothly so that highlights keep their detail instead of clipping.
    static func toneMap(_ l: Double) -> Double {
        guard l > 0.8 else { return max(l, 0) }
        return 0.8 + 0.2 * (1 - exp(-(l - 0.8) / 0.2))
    }

    /// Converts a pixbuf gdk-pixbuf decoded in place, from the profile its loader found
    /// (the `icc-profile` option, base64: JPEG, PNG, TIFF), if any.
    @discardableResult
    static func convertToSRGB(_ pixbuf: OpaquePointer, loaderOptionsOf loaded: OpaquePointer) -> Bool {
        guard let option = gdk_pixbuf_get_option(loaded, "icc-profile") else { return false }
        var length: gsize = 0
        guard let decoded = g_base64_decode(option, &length) else { return false }
        defer { g_free(decoded) }
        let icc = [UInt8](UnsafeBufferPointer(start: decoded, count: Int(length)))
        return convertToSRGB(pixbuf, icc: icc)
    }
}

/// A Little CMS transform from one profile to sRGB (perceptual), for 8-bit RGB or RGBA
/// pixels. Made without lcms's one-pixel cache (`cmsFLAGS_NOCACHE`), which is what would make
/// applying it on two threads at once unsafe: the decoder process's threads share it.
private final class SRGBTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM

    init?(from source: cmsHPROFILE, alpha: Bool) {
        guard let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        let type = alpha ? gpb_TYPE_RGBA_8 : gpb_TYPE_RGB_8
        let flags = cmsUInt32Number(cmsFLAGS_NOCACHE) | (alpha ? cmsUInt32Number(cmsFLAGS_COPY_ALPHA) : 0)
        guard let handle = cmsCreateTransform(source, type, sRGB, type, cmsUInt32Number(INTENT_PERCEPTUAL), flags) else { return nil }
        self.handle = handle
    }

    deinit { cmsDeleteTransform(handle) }

    /// Transforms the pixbuf's pixels in place (8 bits a sample, with alpha as it was made for).
    func apply(to pixbuf: OpaquePointer) -> Bool {
        let width = gdk_pixbuf_get_width(pixbuf), height = gdk_pixbuf_get_height(pixbuf), stride = gdk_pixbuf_get_rowstride(pixbuf)
        guard let pixels = gdk_pixbuf_get_pixels(pixbuf) else { return false }
        cmsDoTransformLineStride(handle, pixels, pixels, cmsUInt32Number(width), cmsUInt32Number(height),
                                 cmsUInt32Number(stride), cmsUInt32Number(stride), 0, 0)
        return true
    }
}
