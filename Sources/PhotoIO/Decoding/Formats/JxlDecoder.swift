import CGdkPixbuf
import CJxl
import PhotoCore

/// JPEG XL through libjxl's decoder API (Debian 12: 0.7), in a decoder process: a still
/// image, the first frame of an animation (composited), or the pixels of a JPEG
/// reconstruction container; upright by its orientation (libjxl turns it), in sRGB (libjxl
/// writes XYB images in sRGB; other images are converted from their profile with lcms2).
enum JxlDecoder {
    static func decode(_ bytes: [UInt8], maxPixels: Int, cancellation: CancellationFlag) -> Result<OwnDecodedImage, DecodeFailure> {
        guard let jxl = FormatLibraries.jxl, let decoder = jxl.JxlDecoderCreate(nil) else { return .failure(DecodeFailure(.tooLarge, tr("The JPEG XL decoder could not start."))) }
        defer { jxl.JxlDecoderDestroy(decoder) }
        let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
        guard jxl.JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS else {
            return .failure(DecodeFailure(.corrupt, tr("The image could not be decoded.")))
        }
        func damaged() -> DecodeFailure { DecodeFailure(.corrupt, tr("The JPEG XL image is damaged.")) }
        return bytes.withUnsafeBytes { buffer -> Result<OwnDecodedImage, DecodeFailure> in
            guard jxl.JxlDecoderSetInput(decoder, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count) == JXL_DEC_SUCCESS else {
                return .failure(damaged())
            }
            jxl.JxlDecoderCloseInput(decoder)
            var info = JxlBasicInfo()
            var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
            var pixels: [UInt8] = []
            var icc: [UInt8] = []
            var inSRGB = false
            while true {
                if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
                switch jxl.JxlDecoderProcessInput(decoder) {
                case JXL_DEC_BASIC_INFO:
                    guard jxl.JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else { return .failure(damaged()) }
                    let size = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
                    if size.pixels > maxPixels || size.width > 65_535 || size.height > 65_535 {
                        return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(size)")))
                    }
                    format.num_channels = info.alpha_bits > 0 ? 4 : 3
                case JXL_DEC_COLOR_ENCODING:
                    // XYB images are written in the colour space asked for: sRGB.
                    var sRGB = JxlColorEncoding()
                    sRGB.color_space = info.num_color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
                    sRGB.white_point = JXL_WHITE_POINT_D65
                    sRGB.primaries = JXL_PRIMARIES_SRGB
                    sRGB.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
                    sRGB.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL
                    _ = jxl.JxlDecoderSetPreferredColorProfile(decoder, &sRGB)
                    var encoded = JxlColorEncoding()
                    if jxl.JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoded) == JXL_DEC_SUCCESS {
                        inSRGB = encoded.primaries == JXL_PRIMARIES_SRGB && encoded.white_point == JXL_WHITE_POINT_D65
                            && encoded.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
                    }
                    var size = 0
                    if !inSRGB, jxl.JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS, size > 0, size < 4 << 20 {
                        icc = [UInt8](repeating: 0, count: size)
                        if jxl.JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &icc, size) != JXL_DEC_SUCCESS { icc = [] }
                    }
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    var size = 0
                    guard jxl.JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS,
                          size == Int(info.xsize) * Int(info.ysize) * Int(format.num_channels) else { return .failure(damaged()) }
                    pixels = [UInt8](repeating: 0, count: size)
                    let set = pixels.withUnsafeMutableBytes { jxl.JxlDecoderSetImageOutBuffer(decoder, &format, $0.baseAddress, size) }
                    guard set == JXL_DEC_SUCCESS else { return .failure(damaged()) }
                case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                    // The first frame is the still image, or the animation's first.
                    guard !pixels.isEmpty else { return .failure(damaged()) }
                    return finish(pixels, info: info, channels: Int(format.num_channels), icc: inSRGB ? [] : icc)
                case JXL_DEC_NEED_MORE_INPUT:
                    return .failure(DecodeFailure(.corrupt, tr("The JPEG XL image is cut short.")))
                case JXL_DEC_ERROR:
                    return .failure(damaged())
                default:
                    continue
                }
            }
        }
    }

    private static func finish(_ pixels: [UInt8], info: JxlBasicInfo, channels: Int, icc: [UInt8]) -> Result<OwnDecodedImage, DecodeFailure> {
        // libjxl turns the image upright: the pixels are the turned size.
        let turned = info.orientation.rawValue > 4
        let width = Int(turned ? info.ysize : info.xsize), height = Int(turned ? info.xsize : info.ysize)
        guard pixels.count >= width * height * channels,
              let pixbuf = pixels.withUnsafeBytes({ OwnDecoders.pixbuf(width: width, height: height, channels: channels, rowBytes: width * channels, bytes: $0.baseAddress!) }) else {
            return .failure(DecodeFailure(.corrupt, tr("The image could not be decoded.")))
        }
        if !icc.isEmpty { ColourProfile.convertToSRGB(pixbuf, icc: icc) }
        return .success(OwnDecodedImage(pixbuf: pixbuf, sourceSize: PixelSize(width: width, height: height), format: "jxl"))
    }
}
