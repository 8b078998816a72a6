import CConfinement
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
        var frames: [PixelLayout.Frame] = []
        var total = 0
        for (image, duration) in images {
            frames.append(PixelLayout.Frame(offset: total, size: image.size, stride: image.stride, duration: duration))
            total += image.stride * image.size.height
        }
        let hasAlpha = images.first?.0.hasAlpha ?? false
        guard images.allSatisfy({ $0.0.hasAlpha == hasAlpha }) else {
            return .failure(DecodeFailure(.corrupt, "The frames mix pixel formats."))
        }
        let fd = cconf_memfd_create("gphotobrowse-pixels", cconf_MFD_CLOEXEC | cconf_MFD_ALLOW_SEALING)
        guard fd >= 0 else { return .failure(failure("memfd_create")) }
        guard ftruncate(fd, off_t(max(total, 1))) == 0,
              let map = mmap(nil, max(total, 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            let error = failure("shared memory of \(total) bytes")
            Glibc.close(fd)
            return .failure(error)
        }
        for (frame, (image, _)) in zip(frames, images) {
            map.advanced(by: frame.offset).copyMemory(from: image.pixels.bytes, byteCount: min(frame.byteCount, image.pixels.count))
        }
        munmap(map, max(total, 1))
        // A writable shared mapping would make F_SEAL_WRITE fail: it is gone now.
        guard fcntl(fd, cconf_F_ADD_SEALS, requiredSeals | cconf_F_SEAL_SEAL) == 0 else {
            let error = failure("sealing")
            Glibc.close(fd)
            return .failure(error)
        }
        return .success((fd, PixelLayout(frames: frames, hasAlpha: hasAlpha, sourceSize: sourceSize, format: format, loops: loops)))
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
