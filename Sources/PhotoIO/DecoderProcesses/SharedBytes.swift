import CConfinement
import Glibc
import PhotoCore

/// Bytes other than pixels crossing from a decoder process to the browser (a web album's
/// list, encoded): a memfd sealed as `SharedPixels`' are, checked in the same way before the
/// browser reads it.
enum SharedBytes {
    /// Decoder side: a sealed memfd holding `bytes`.
    static func seal(_ bytes: [UInt8]) -> Result<Int32, DecodeFailure> {
        let fd = cconf_memfd_create("gphotobrowse-list", cconf_MFD_CLOEXEC | cconf_MFD_ALLOW_SEALING)
        guard fd >= 0 else { return .failure(failure("memfd_create")) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let error = failure("write")
                close(fd)
                return .failure(error)
            }
            written += n
        }
        guard fcntl(fd, cconf_F_ADD_SEALS, SharedPixels.requiredSeals | cconf_F_SEAL_SEAL) == 0 else {
            let error = failure("sealing")
            close(fd)
            return .failure(error)
        }
        return .success(fd)
    }

    private static func failure(_ what: String) -> DecodeFailure {
        DecodeFailure(.tooLarge, tr("The decoder could not hand the list over (%1$s: %2$s).", what, String(cString: strerror(errno))))
    }

    /// Browser side: `body` given the `byteCount` bytes in `fd` (which this closes), once its
    /// seals and size are checked; mapped privately, unmapped when `body` returns.
    static func read<T>(fd: Int32, byteCount: Int, _ body: (UnsafeRawBufferPointer) throws(DecoderMessage.Malformed) -> T)
        -> Result<T, DecoderMessage.Malformed> {
        defer { close(fd) }
        let seals = fcntl(fd, cconf_F_GET_SEALS)
        guard seals >= 0, seals & SharedPixels.requiredSeals == SharedPixels.requiredSeals else {
            return .failure(.init(reason: "bytes not sealed"))
        }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == byteCount, byteCount > 0 else {
            return .failure(.init(reason: "bytes not in a memory file of the size told"))
        }
        guard let map = mmap(nil, byteCount, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            return .failure(.init(reason: "bytes could not be mapped: \(String(cString: strerror(errno)))"))
        }
        defer { munmap(map, byteCount) }
        do throws(DecoderMessage.Malformed) {
            return .success(try body(UnsafeRawBufferPointer(start: map, count: byteCount)))
        } catch {
            return .failure(error)
        }
    }
}
