import CConfinement
import CExif
import CGdkPixbuf
import Glibc
import PhotoCore

/// The preview a camera embeds in a JPEG's EXIF (IFD1's JPEG thumbnail), read with libexif
/// from the start of the file and decoded with gdk-pixbuf like any photo, then turned as the
/// EXIF orientation of the photo says (the preview itself records none). In a decoder
/// process: these are the photo's bytes.
enum EmbeddedPreview {
    /// The largest preview read: cameras embed 160×120 (a few KiB) up to a screen's size.
    static let maxBytes = 64 << 10

    /// The embedded preview's JPEG and the photo's orientation (1 to 8), from the file at
    /// `descriptor` (the caller closes it); nil when the photo has none. `cutShort` when the
    /// file ended within its EXIF (the first bytes of a photo on another machine).
    static func read(descriptor: Int32) -> (preview: (jpeg: [UInt8], orientation: Int)?, cutShort: Bool) {
        var parser = PhotoMetadata.ExifParser()
        var wantsMore = true
        guard PhotoMetadata.readStart(descriptor: descriptor, { wantsMore = parser.feed($0); return wantsMore }) else { return (nil, false) }
        let cutShort = wantsMore && parser.sawJPEG
        let preview = parser.finish { data -> (jpeg: [UInt8], orientation: Int)? in
            guard let data, let bytes = data.pointee.data, data.pointee.size > 3, Int(data.pointee.size) <= maxBytes else { return nil }
            let jpeg = Array(UnsafeBufferPointer(start: bytes, count: Int(data.pointee.size)))
            guard jpeg.starts(with: [0xFF, 0xD8]) else { return nil }
            return (jpeg, orientation(in: data))
        } ?? nil
        return (preview, cutShort)
    }

    /// IFD0's orientation (1 when absent or out of range).
    private static func orientation(in data: UnsafeMutablePointer<ExifData>) -> Int {
        guard let entry = exif_content_get_entry(data.pointee.ifd.0, EXIF_TAG_ORIENTATION), let bytes = entry.pointee.data,
              entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.size >= 2 else { return 1 }
        let value = Int(exif_get_short(bytes, exif_data_get_byte_order(data)))
        return (1...8).contains(value) ? value : 1
    }

    /// Decodes the preview of the file at `descriptor` to fit `fitting`, upright, and hands
    /// the pixbuf, its size and format to `output` (as `PixbufDecoder.decode` does).
    static func decode<Output>(descriptor: Int32, fitting: PixelSize, cancellation: CancellationFlag,
                               output: (OpaquePointer, PixelSize, String) -> Result<Output, DecodeFailure>) -> Result<Output, DecodeFailure> {
        let found = read(descriptor: descriptor)
        guard let (jpeg, orientation) = found.preview else {
            return .failure(found.cutShort ? DecodeFailure(.cutShort, "The photo's first bytes end within its EXIF.")
                                           : DecodeFailure(.notAnImage, "The photo holds no preview."))
        }
        let memory = cconf_memfd_create("gphotobrowse-preview", cconf_MFD_CLOEXEC)
        guard memory >= 0, jpeg.withUnsafeBytes({ write(memory, $0.baseAddress, $0.count) }) == jpeg.count,
              lseek(memory, 0, SEEK_SET) == 0 else {
            if memory >= 0 { close(memory) }
            return .failure(DecodeFailure(.unreadable, "The preview could not be read."))
        }
        let source = ByteSource(descriptor: memory, name: "preview.jpg")
        defer { source.close() }
        return PixbufDecoder().decode(source, fitting: fitting, cancellation: cancellation) { pixbuf, size, format, _ in
            guard let upright = turned(pixbuf, orientation: orientation) else { return output(pixbuf, size, format) }
            defer { unref(upright) }
            let swaps = orientation >= 5
            return output(upright, swaps ? PixelSize(width: size.height, height: size.width) : size, format)
        }
    }

    /// `pixbuf` turned as EXIF orientation `orientation` says (as
    /// `gdk_pixbuf_apply_embedded_orientation` does); nil for 1 (nothing to do).
    static func turned(_ pixbuf: OpaquePointer, orientation: Int) -> OpaquePointer? {
        func rotated(_ source: OpaquePointer, _ angle: GdkPixbufRotation) -> OpaquePointer? { gdk_pixbuf_rotate_simple(source, angle) }
        func flipped(_ source: OpaquePointer?) -> OpaquePointer? {
            guard let source else { return nil }
            defer { unref(source) }
            return gdk_pixbuf_flip(source, 1)
        }
        switch orientation {
        case 2: return gdk_pixbuf_flip(pixbuf, 1)
        case 3: return rotated(pixbuf, GDK_PIXBUF_ROTATE_UPSIDEDOWN)
        case 4: return gdk_pixbuf_flip(pixbuf, 0)
        case 5: return flipped(rotated(pixbuf, GDK_PIXBUF_ROTATE_CLOCKWISE))
        case 6: return rotated(pixbuf, GDK_PIXBUF_ROTATE_CLOCKWISE)
        case 7: return flipped(rotated(pixbuf, GDK_PIXBUF_ROTATE_COUNTERCLOCKWISE))
        case 8: return rotated(pixbuf, GDK_PIXBUF_ROTATE_COUNTERCLOCKWISE)
        default: return nil
        }
    }
}

extension PixbufDecoder: EmbeddedPreviewReading {
    /// The embedded preview, read in this process (see `EmbeddedPreview`).
    /// A file on another machine: from the copy of its first bytes (`RemoteFileCopies`).
    public func embeddedPreview(_ request: DecodeRequest, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure> {
        EmbeddedPreview.fromFirstBytes(of: request.uri) { reach in
            IsolatedDecoder.open(uri: request.uri, reach: reach, cancellation: cancellation).flatMap { file in
                defer { close(file.fd) }
                return EmbeddedPreview.decode(descriptor: file.fd, fitting: request.fitting, cancellation: cancellation) { pixbuf, size, format in
                    .success(PixbufImage.copy(pixbuf, sourceSize: size, format: format))
                }
            }
        }
    }
}

extension EmbeddedPreview {
    /// `read` given the first 16 KiB of the photo, then, when its EXIF goes on past them and
    /// the photo is on another machine, the first 128 KiB.
    static func fromFirstBytes(of uri: String, _ read: (RemoteFileCopies.Reach) -> Result<DecodedImage, DecodeFailure>)
        -> Result<DecodedImage, DecodeFailure> {
        let first = read(.prefix(RemoteFileCopies.metadataPrefix))
        guard case .failure(let failure) = first, failure.kind == .cutShort,
              RemoteFileCopies.isRemote(uri), !RemoteFileCopies.shared.hasWhole(uri) else { return first }
        return read(.prefix(RemoteFileCopies.largestMetadataPrefix))
    }
}

