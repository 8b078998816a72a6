import CGdkPixbuf
import CHeif
import PhotoCore

/// HEIC and AVIF through libheif (Debian 12: 1.15), in a decoder process: the primary image
/// with its transformations (irot, imir, clap) applied by libheif, once (the EXIF orientation
/// of such files says the same and is not applied again), converted to sRGB from its ICC
/// profile or its nclx colour description. Auxiliary images (depth, gain maps) are ignored;
/// sequences and collections show their primary image. When the primary image cannot be
/// decoded, or a thumbnail the file holds is as large as what is asked for, the thumbnail
/// is shown.
enum HeifDecoder {
    static func decode(_ bytes: [UInt8], fitting: PixelSize, maxPixels: Int) -> Result<OwnDecodedImage, DecodeFailure> {
        guard let heif = FormatLibraries.heif, let context = heif.heif_context_alloc() else { return .failure(DecodeFailure(.tooLarge, tr("The HEIF decoder could not start."))) }
        defer { heif.heif_context_free(context) }
        let format = bytes.count >= 12 && ["avif", "avis"].contains(String(decoding: bytes[8..<12], as: UTF8.self)) ? "avif" : "heif"
        return bytes.withUnsafeBytes { buffer -> Result<OwnDecodedImage, DecodeFailure> in
            let read = heif.heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil)
            guard read.code == heif_error_Ok else { return .failure(failure(read)) }
            var primary: OpaquePointer?
            let found = heif.heif_context_get_primary_image_handle(context, &primary)
            guard found.code == heif_error_Ok, let primary else { return .failure(failure(found)) }
            defer { heif.heif_image_handle_release(primary) }
            let size = PixelSize(width: Int(heif.heif_image_handle_get_width(primary)), height: Int(heif.heif_image_handle_get_height(primary)))
            let wanted = size.fitting(in: fitting)
            let thumbnail = largestThumbnail(heif, primary)
            if let thumbnail {
                defer { heif.heif_image_handle_release(thumbnail) }
                let thumbSize = PixelSize(width: Int(heif.heif_image_handle_get_width(thumbnail)), height: Int(heif.heif_image_handle_get_height(thumbnail)))
                if max(thumbSize.width, thumbSize.height) >= max(wanted.width, wanted.height),
                   case .success(let image) = decodeImage(heif, thumbnail, profileFrom: primary, sourceSize: nil, format: format, maxPixels: maxPixels) {
                    return .success(image)
                }
            }
            switch decodeImage(heif, primary, profileFrom: primary, sourceSize: nil, format: format, maxPixels: maxPixels) {
            case .success(let image): return .success(image)
            case .failure(let failure):
                // A file whose primary image libheif refuses (references it cannot follow):
                // its thumbnail, when it has one, rather than nothing.
                guard let again = largestThumbnail(heif, primary) else { return .failure(failure) }
                defer { heif.heif_image_handle_release(again) }
                return decodeImage(heif, again, profileFrom: primary, sourceSize: size, format: format, maxPixels: maxPixels).mapError { _ in failure }
            }
        }
    }

    private static func failure(_ error: heif_error) -> DecodeFailure {
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        if error.code == heif_error_Unsupported_filetype || error.code == heif_error_Unsupported_feature {
            return DecodeFailure(.notAnImage, tr("This HEIF image is not supported (%s).", message))
        }
        return DecodeFailure(.corrupt, tr("The image is damaged: %s", message))
    }

    /// The primary image's largest thumbnail (the caller releases it), if it has any.
    private static func largestThumbnail(_ heif: cheif_library, _ primary: OpaquePointer) -> OpaquePointer? {
        let count = Int(heif.heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif.heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var best: OpaquePointer?
        var bestPixels = 0
        for id in ids.prefix(listed) {
            var handle: OpaquePointer?
            guard heif.heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            let pixels = Int(heif.heif_image_handle_get_width(handle)) * Int(heif.heif_image_handle_get_height(handle))
            if pixels > bestPixels {
                if let best { heif.heif_image_handle_release(best) }
                best = handle
                bestPixels = pixels
            } else {
                heif.heif_image_handle_release(handle)
            }
        }
        return best
    }

    /// One image item decoded to 8-bit RGB(A) with its transformations, in sRGB.
    private static func decodeImage(_ heif: cheif_library, _ handle: OpaquePointer, profileFrom primary: OpaquePointer, sourceSize: PixelSize?, format: String,
                                    maxPixels: Int) -> Result<OwnDecodedImage, DecodeFailure> {
        let declared = PixelSize(width: Int(heif.heif_image_handle_get_width(handle)), height: Int(heif.heif_image_handle_get_height(handle)))
        guard declared.width > 0, declared.height > 0 else { return .failure(DecodeFailure(.corrupt, tr("The image could not be decoded."))) }
        if declared.pixels > maxPixels {
            return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(declared)")))
        }
        let alpha = heif.heif_image_handle_has_alpha_channel(handle) != 0
        var image: OpaquePointer?
        let decoded = heif.heif_decode_image(handle, &image, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, nil)
        guard decoded.code == heif_error_Ok, let image else { return .failure(failure(decoded)) }
        defer { heif.heif_image_release(image) }
        var stride: Int32 = 0
        let width = Int(heif.heif_image_get_width(image, heif_channel_interleaved)), height = Int(heif.heif_image_get_height(image, heif_channel_interleaved))
        guard let plane = heif.heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), width > 0, height > 0,
              Int(stride) >= width * (alpha ? 4 : 3),
              let pixbuf = OwnDecoders.pixbuf(width: width, height: height, channels: alpha ? 4 : 3, rowBytes: Int(stride), bytes: plane) else {
            return .failure(DecodeFailure(.corrupt, tr("The image could not be decoded.")))
        }
        convertToSRGB(heif, pixbuf, describedBy: primary)
        let upright = sourceSize ?? PixelSize(width: width, height: height)
        return .success(OwnDecodedImage(pixbuf: pixbuf, sourceSize: upright, format: format))
    }

    /// Converts `pixbuf` to sRGB from the colour profile or description of `handle`.
    private static func convertToSRGB(_ heif: cheif_library, _ pixbuf: OpaquePointer, describedBy handle: OpaquePointer) {
        let size = heif.heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0 {
            var icc = [UInt8](repeating: 0, count: size)
            if heif.heif_image_handle_get_raw_color_profile(handle, &icc).code == heif_error_Ok {
                ColourProfile.convertToSRGB(pixbuf, icc: icc)
                return
            }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return }
        defer { heif.heif_nclx_color_profile_free(nclx) }
        let n = nclx.pointee
        ColourProfile.convertToSRGB(pixbuf, description: ColourDescription(
            primaries: Int(n.color_primaries.rawValue), transfer: Int(n.transfer_characteristics.rawValue),
            red: (Double(n.color_primary_red_x), Double(n.color_primary_red_y)),
            green: (Double(n.color_primary_green_x), Double(n.color_primary_green_y)),
            blue: (Double(n.color_primary_blue_x), Double(n.color_primary_blue_y)),
            white: (Double(n.color_primary_white_x), Double(n.color_primary_white_y))))
    }
}
