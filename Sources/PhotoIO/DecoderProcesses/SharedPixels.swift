import CConfinement
import CGdkPixbuf
import Glibc
import PhotoCore

/// Pixels crossing from a decoder process to the browser: a memfd the decoder fills, seals
/// against any change (no write, no shrinking, no growing), and sends; the browser checks the
/// seals and the size before it maps a byte, so what it reads cannot change or vanish under it.
public enum SharedPixels {
    static let requiredSeals = cconf_F_SEAL_SHRINK | cconf_F_SEAL_GROW | cconf_F_SEAL_WRITE

    /// Decoder side: a sealed memfd holding `images` end to end, and their layout. The
    /// caller sends the descriptor, then closes it.
    static func seal(_ images: [(DecodedImage, duration: Int)], loops: Bool, sourceSize: PixelSize, format: String)
        -> Result<(fd: Int32, layout: PixelLayout), DecodeFailure> {
        let hasAlpha = images.first?.0.hasAlpha ?? false
        guard images.allSatisfy({ $0.0.hasAlpha == hasAlpha }) else {
            return .failure(DecodeFailure(.corrupt, "The frames mix pixel formats."))
        }
        let frames = images.map { image, duration in
            Frame(bytes: UnsafeRawPointer(image.pixels.bytes), count: image.pixels.count, size: image.size, stride: image.stride, duration: duration)
        }
        return withExtendedLifetime(images) {
            seal(frames, hasAlpha: hasAlpha, loops: loops, sourceSize: sourceSize, format: format)
        }
    }

    /// Decoder side: a sealed memfd holding a pixbuf's pixels, copied straight from the
    /// decoder's pixbuf (no copy in between).
    static func seal(pixbuf: OpaquePointer, sourceSize: PixelSize, format: String) -> Result<(fd: Int32, layout: PixelLayout), DecodeFailure> {
        let frame = Frame(bytes: UnsafeRawPointer(gdk_pixbuf_read_pixels(pixbuf)), count: Int(gdk_pixbuf_get_byte_length(pixbuf)),
                          size: PixelSize(width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf))),
                          stride: Int(gdk_pixbuf_get_rowstride(pixbuf)), duration: 0)
        return seal([frame], hasAlpha: gdk_pixbuf_get_has_alpha(pixbuf) != 0, loops: true, sourceSize: sourceSize, format: format)
    }

    /// One frame's pixels where the decoder holds them.
    private struct Frame {
        let bytes: UnsafeRawPointer?
        let count: Int
        let size: PixelSize
        let stride: Int
        let duration: Int
    }

    private static func seal(_ frames: [Frame], hasAlpha: Bool, loops: Bool, sourceSize: PixelSize, format: String)
        -> Result<(fd: Int32, layout: PixelLayout), DecodeFailure> {
        var layout: [PixelLayout.Frame] = []
        var total = 0
        for frame in frames {
            layout.append(PixelLayout.Frame(offset: total, size: frame.size, stride: frame.stride, duration: frame.duration))
            total += frame.stride * frame.size.height
        }
        let fd = cconf_memfd_create("gphotobrowse-pixels", cconf_MFD_CLOEXEC | cconf_MFD_ALLOW_SEALING)
        guard fd >= 0 else { return .failure(failure("memfd_create")) }
        guard ftruncate(fd, off_t(max(total, 1))) == 0,
              let map = mmap(nil, max(total, 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            let error = failure("shared memory of \(total) bytes")
            Glibc.close(fd)
            return .failure(error)
        }
        for (place, frame) in zip(layout, frames) {
            if let bytes = frame.bytes {
                map.advanced(by: place.offset).copyMemory(from: bytes, byteCount: min(place.byteCount, frame.count))
            }
        }
        munmap(map, max(total, 1))
        // A writable shared mapping would make F_SEAL_WRITE fail: it is gone now.
        guard fcntl(fd, cconf_F_ADD_SEALS, requiredSeals | cconf_F_SEAL_SEAL) == 0 else {
            let error = failure("sealing")
            Glibc.close(fd)
            return .failure(error)
        }
        return .success((fd, PixelLayout(frames: layout, hasAlpha: hasAlpha, sourceSize: sourceSize, format: format, loops: loops)))
    }

    private static func failure(_ what: String) -> DecodeFailure {
        DecodeFailure(.tooLarge, "The decoder could not hand the pixels over (\(what): \(String(cString: strerror(errno)))).")
    }

    /// Browser side: the frames `layout` describes, read from `fd` (which this closes) once
    /// its seals and size are checked. The frames share one private mapping, unmapped when
    /// the last of them goes.
    public static func open(fd: Int32, layout: PixelLayout) -> Result<[DecodedImage], DecoderMessage.Malformed> {
        defer { Glibc.close(fd) }
        let seals = fcntl(fd, cconf_F_GET_SEALS)
        guard seals >= 0, seals & requiredSeals == requiredSeals else {
            return .failure(.init(reason: "pixels not sealed"))
        }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(.init(reason: "pixels not in a memory file"))
        }
        let size = Int(status.st_size)
        do throws(DecoderMessage.Malformed) {
            try layout.check(memorySize: size)
        } catch {
            return .failure(error)
        }
        // Private and writable: nothing here writes, but a stray write would change only a
        // copy, never fault.
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            return .failure(.init(reason: "pixels could not be mapped: \(String(cString: strerror(errno)))"))
        }
        let mapping = Mapping(base: map, size: size)
        let images = layout.frames.map { frame in
            DecodedImage(size: frame.size, stride: frame.stride, hasAlpha: layout.hasAlpha,
                         pixels: PixelBuffer(adopting: map.advanced(by: frame.offset), count: frame.byteCount) { _, _ in
                             withExtendedLifetime(mapping) {}
                         },
                         sourceSize: layout.sourceSize, format: layout.format)
        }
        return .success(images)
    }

    /// One mapping shared by the frames cut from it.
    private final class Mapping: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let size: Int
        init(base: UnsafeMutableRawPointer, size: Int) {
            self.base = base
            self.size = size
        }
        deinit { munmap(base, size) }
    }
}
