import CGdkPixbuf
import CLcms
import CJpeg
import Glibc
import PhotoCore

/// CMYK JPEGs that carry their CMYK profile (what print workflows and Photoshop write): the
/// inks decoded as they are stored (libjpeg-turbo) and converted to sRGB
/// with Little CMS through that profile, in a decoder process. gdk-pixbuf's loader turns
/// CMYK into RGB by a formula that knows no profile, so such photos go to this decoder
/// instead; a CMYK JPEG without a profile stays with gdk-pixbuf.
enum CmykJpegDecoder {
    /// Whether the open file is a JPEG whose frame has four components (CMYK, YCCK) and
    /// which holds a CMYK profile: only its segments' headers are read, up to the frame's.
    static func wants(descriptor: Int32) -> Bool {
        func read(_ offset: Int, _ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return n == count ? bytes : nil
        }
        guard read(0, 2) == [0xFF, 0xD8] else { return false }
        let iccHeader = Array("ICC_PROFILE".utf8) + [0]
        var offset = 2, cmykProfile = false
        for _ in 0..<512 {
            guard let head = read(offset, 4), head[0] == 0xFF else { return false }
            let marker = head[1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return false }
            let length = Int(head[2]) << 8 | Int(head[3])
            guard length >= 2 else { return false }
            if marker == 0xE2, let payload = read(offset + 4, iccHeader.count + 2 + 20), payload.starts(with: iccHeader),
               Array(payload[(iccHeader.count + 2 + 16)...]) == Array("CMYK".utf8) {
                cmykProfile = true
            }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let frame = read(offset + 4, 6) else { return false }
                return frame[5] == 4 && cmykProfile
            }
            offset += 2 + length
        }
        return false
    }

    /// Decodes the JPEG behind `descriptor` (which `wants`) at the smallest of libjpeg's scales
    /// that still covers `fitting`, upright by its EXIF orientation, in sRGB.
    static func decode(descriptor: Int32, fitting: PixelSize, maxPixels: Int,
                       cancellation: CancellationFlag) -> Result<OwnDecodedImage, DecodeFailure> {
        func damaged() -> DecodeFailure { DecodeFailure(.corrupt, tr("The photo is damaged and cannot be shown.")) }
        guard let file = StdioStream.reopen(descriptor) else { return .failure(StdioStream.unreadable) }
        defer { fclose(file) }
        let context = UnsafeMutablePointer<gpb_jpeg>.allocate(capacity: 1)
        defer { context.deallocate() }
        guard gpb_jpeg_create(context, file) == 0 else { return .failure(damaged()) }
        defer { gpb_jpeg_destroy(context) }
        context.pointee.info.mem.pointee.max_memory_to_use = JPEGRegionDecoder.memoryLimit
        guard gpb_jpeg_read_header(context) == 0 else { return .failure(damaged()) }
        let size = PixelSize(width: Int(context.pointee.info.image_width), height: Int(context.pointee.info.image_height))
        guard size.width > 0, size.height > 0 else { return .failure(damaged()) }
        if size.pixels > maxPixels {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(size)")))
        }
        guard context.pointee.info.num_components == 4 else { return .failure(damaged()) }
        let (orientation, icc) = JPEGRegionDecoder.markers(context)
        guard let icc else { return .failure(damaged()) }
        let inverted = context.pointee.info.saw_Adobe_marker != 0
        context.pointee.info.out_color_space = JCS_CMYK
        context.pointee.info.scale_num = UInt32(eighths(size, toCover: fitting))
        context.pointee.info.scale_denom = 8
        guard gpb_jpeg_start(context) == 0, context.pointee.info.output_components == 4 else { return .failure(damaged()) }
        let width = Int(context.pointee.info.output_width), height = Int(context.pointee.info.output_height)
        var cmyk = [UInt8](repeating: 0, count: width * height * 4)
        let read = cmyk.withUnsafeMutableBufferPointer { buffer -> Bool in
            for row in 0..<height {
                if row % 64 == 0, cancellation.isCancelled { return false }
                var rows: [JSAMPROW?] = [buffer.baseAddress! + row * width * 4]
                guard rows.withUnsafeMutableBufferPointer({ gpb_jpeg_read_rows(context, $0.baseAddress, 1) }) == 1 else { return false }
            }
            return true
        }
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        guard read else { return .failure(damaged()) }
        guard let rgb = toSRGB(cmyk, width: width, height: height, icc: icc, inverted: inverted) else {
            return .failure(DecodeFailure(.corrupt, tr("The photo’s colour profile cannot be read.")))
        }
        var upright = rgb
        if let turned = EmbeddedPreview.turned(rgb, orientation: orientation.value) {
            unref(rgb)
            upright = turned
        }
        let source = orientation.value >= 5 ? PixelSize(width: size.height, height: size.width) : size
        return .success(OwnDecodedImage(pixbuf: upright, sourceSize: source, format: "jpeg"))
    }

    /// libjpeg's scale, in eighths, for a decode covering `box` (either way up): the smallest
    /// whose shorter and longer sides are still at least the box's (or the photo's own).
    static func eighths(_ size: PixelSize, toCover box: PixelSize) -> Int {
        let short = min(min(box.width, box.height), min(size.width, size.height))
        let long = min(max(box.width, box.height), max(size.width, size.height))
        for eighths in 1...8 {
            let w = (size.width * eighths + 7) / 8, h = (size.height * eighths + 7) / 8
            if min(w, h) >= short && max(w, h) >= long { return eighths }
        }
        return 8
    }

    /// The inks converted to sRGB through the profile (perceptual), in a new RGB pixbuf.
    private static func toSRGB(_ cmyk: [UInt8], width: Int, height: Int, icc: [UInt8], inverted: Bool) -> OpaquePointer? {
        guard let profile = icc.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else { return nil }
        defer { cmsCloseProfile(profile) }
        guard cmsGetColorSpace(profile) == cmsSigCmykData, let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        guard let transform = cmsCreateTransform(profile, inverted ? gpb_TYPE_CMYK_8_REV : gpb_TYPE_CMYK_8, sRGB, gpb_TYPE_RGB_8,
                                                 cmsUInt32Number(INTENT_PERCEPTUAL), 0) else { return nil }
        defer { cmsDeleteTransform(transform) }
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else { return nil }
        let stride = gdk_pixbuf_get_rowstride(pixbuf)
        cmyk.withUnsafeBytes { source in
            cmsDoTransformLineStride(transform, source.baseAddress, gdk_pixbuf_get_pixels(pixbuf), cmsUInt32Number(width),
                                     cmsUInt32Number(height), cmsUInt32Number(width * 4), cmsUInt32Number(stride), 0, 0)
        }
        return pixbuf
    }
}
