import CConfinement
import CGdkPixbuf
import Glibc
import PhotoCore

/// Pixels crossing from a decoder process to the browser: a memfd the decoder fills, seals
/// against any change (no write, no shrinking, no growing), and sends; the browser checks the
/// seals and the size before it maps a byte, so what it reads cannot change or vanish under it.
public enum SharedPixels {
    static let requiredSeals = cconf_F_SEAL_SHRINK | cconf_F_SEAL_GROW | cconf_F_SEAL_WRITE

    /// Decoder side: a sealed memfd holding a pixbuf's pixels, copied straight from the
    /// decoder's pixbuf (no copy in between).
    static func seal(pixbuf: OpaquePointer, sourceSize: PixelSize, format: String, endMissing: Bool = false) -> Result<(fd: Int32, layout: PixelLayout), DecodeFailure> {
        FrameWriter.make(capacity: Int(gdk_pixbuf_get_rowstride(pixbuf)) * Int(gdk_pixbuf_get_height(pixbuf))).flatMap { writer in
            guard writer.append(pixbuf, duration: 0) else { return .failure(DecodeFailure(.corrupt, tr("The pixels could not be handed over."))) }
            return writer.seal(sourceSize: sourceSize, format: format, loops: true).map { sealed in
                var layout = sealed.layout
                layout.endMissing = endMissing
                return (sealed.fd, layout)
            }
        }
    }

    /// Decoder side: frames written one after another into a memfd mapped once, each copied
    /// straight from where the decoder holds it, then sealed. Room for `capacity` bytes is
    /// reserved up front (the memory file's pages are only taken as they are written), and
    /// the file is cut to what was written before it is sealed.
    final class FrameWriter: AnimationFrameSink {
        private var fd: Int32
        private let map: UnsafeMutableRawPointer
        private let capacity: Int
        private var frames: [PixelLayout.Frame] = []
        private var hasAlpha: Bool?
        private var end = 0
        private(set) var byteCount = 0

        private init(fd: Int32, map: UnsafeMutableRawPointer, capacity: Int) {
            self.fd = fd
            self.map = map
            self.capacity = capacity
        }

        static func make(capacity: Int) -> Result<FrameWriter, DecodeFailure> {
            let size = max(capacity, 1)
            let fd = cconf_memfd_create("gphotobrowse-pixels", cconf_MFD_CLOEXEC | cconf_MFD_ALLOW_SEALING)
            guard fd >= 0 else { return .failure(SharedPixels.failure("memfd_create")) }
            guard ftruncate(fd, off_t(size)) == 0,
                  let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
                let error = SharedPixels.failure("shared memory of \(size) bytes")
                Glibc.close(fd)
                return .failure(error)
            }
            return .success(FrameWriter(fd: fd, map: map, capacity: size))
        }

        deinit {
            if fd >= 0 {
                munmap(map, capacity)
                Glibc.close(fd)
            }
        }

        var count: Int { frames.count }

        /// Copies `count` bytes of a frame of `size` pixels, rows `stride` bytes apart (the last
        /// row may come without its padding); false when there is no room or the pixel format
        /// differs from the first frame's.
        @discardableResult
        func append(bytes: UnsafeRawPointer?, count: Int, size: PixelSize, stride: Int, hasAlpha: Bool, duration: Int) -> Bool {
            let slot = stride * size.height
            guard fd >= 0, self.hasAlpha ?? hasAlpha == hasAlpha, slot >= 0, end + slot <= capacity else { return false }
            if let bytes { map.advanced(by: end).copyMemory(from: bytes, byteCount: min(slot, count)) }
            frames.append(PixelLayout.Frame(offset: end, size: size, stride: stride, duration: duration))
            self.hasAlpha = hasAlpha
            end += slot
            byteCount += count
            return true
        }

        func append(_ pixbuf: OpaquePointer, duration: Int) -> Bool {
            append(bytes: UnsafeRawPointer(gdk_pixbuf_read_pixels(pixbuf)), count: Int(gdk_pixbuf_get_byte_length(pixbuf)),
                   size: PixelSize(width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf))),
                   stride: Int(gdk_pixbuf_get_rowstride(pixbuf)), hasAlpha: gdk_pixbuf_get_has_alpha(pixbuf) != 0, duration: duration)
        }

        func matches(_ pixbuf: OpaquePointer, frame index: Int) -> Bool {
            let frame = frames[index]
            let length = Int(gdk_pixbuf_get_byte_length(pixbuf))
            guard Int(gdk_pixbuf_get_width(pixbuf)) == frame.size.width, Int(gdk_pixbuf_get_height(pixbuf)) == frame.size.height,
                  Int(gdk_pixbuf_get_rowstride(pixbuf)) == frame.stride, (gdk_pixbuf_get_has_alpha(pixbuf) != 0) == hasAlpha,
                  length <= frame.byteCount, let bytes = gdk_pixbuf_read_pixels(pixbuf) else { return false }
            return memcmp(map.advanced(by: frame.offset), bytes, length) == 0
        }

        /// The memfd, cut to the frames and sealed, and their layout; the writer is done with it
        /// (the caller sends the descriptor, then closes it).
        func seal(sourceSize: PixelSize, format: String, loops: Bool) -> Result<(fd: Int32, layout: PixelLayout), DecodeFailure> {
            guard fd >= 0 else { return .failure(DecodeFailure(.corrupt, "The pixels were handed over already.")) }
            // The browser refuses a layout past its edges as nonsense, and ends the process
            // that sent it: a loader that says so (an SVG a million pixels wide) is the
            // file's failure, said here.
            let edges = 1...PixelLayout.maxEdge
            guard edges.contains(sourceSize.width), edges.contains(sourceSize.height) else {
                return .failure(DecodeFailure(.tooLarge, tr("The image is too large to open safely (%s pixels).", "\(sourceSize)")))
            }
            let fd = self.fd
            self.fd = -1
            // A writable shared mapping would make F_SEAL_WRITE fail: it goes first.
            munmap(map, capacity)
            guard max(end, 1) == capacity || ftruncate(fd, off_t(max(end, 1))) == 0, fcntl(fd, cconf_F_ADD_SEALS, SharedPixels.requiredSeals | cconf_F_SEAL_SEAL) == 0 else {
                let error = SharedPixels.failure("sealing")
                Glibc.close(fd)
                return .failure(error)
            }
            return .success((fd, PixelLayout(frames: frames, hasAlpha: hasAlpha ?? false, sourceSize: sourceSize, format: format, loops: loops)))
        }
    }

    private static func failure(_ what: String) -> DecodeFailure {
        DecodeFailure(.tooLarge, tr("The decoder could not hand the pixels over (%1$s: %2$s).", what, String(cString: strerror(errno))))
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
            var image = DecodedImage(size: frame.size, stride: frame.stride, hasAlpha: layout.hasAlpha,
                                     pixels: PixelBuffer(adopting: map.advanced(by: frame.offset), count: frame.byteCount) { _, _ in
                                         withExtendedLifetime(mapping) {}
                                     },
                                     sourceSize: layout.sourceSize, format: layout.format)
            image.endMissing = layout.endMissing
            image.videoDuration = layout.videoDuration
            image.videoTurns = layout.videoTurns
            image.motionMovie = layout.motionMovie
            return image
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
