import CGdkPixbuf
import Foundation
import Glibc

/// A body being downloaded: a temporary file in the cache folder (`.KEY.XXXXXX.part`),
/// renamed to the entry's name only when complete (`WebCache.store`), removed otherwise.
///
/// Owned by one download on one thread.
final class PendingBody {
    let key: String
    let path: String
    private var descriptor: Int32
    private(set) var written: Int64 = 0
    /// Whether the file still is ours to remove (not renamed into place, not removed).
    private var isPending = true

    /// Makes the temporary file in `folder`; returns the errno on failure.
    init(key: String, folder: String) throws(POSIXError) {
        var template = Array((folder + "/." + key + ".XXXXXX.part").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { g_mkstemp_full($0.baseAddress!, O_RDWR | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.key = key
        self.descriptor = fd
        self.path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { abandon() }

    /// Appends `bytes`; returns the errno on failure (a full disk: ENOSPC).
    func write(_ bytes: UnsafeRawBufferPointer) throws(POSIXError) {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += count
        }
        written += Int64(bytes.count)
    }

    /// Closes the file; returns the errno when the last writes failed (NFS, a full disk).
    func finish() throws(POSIXError) {
        guard descriptor >= 0 else { return }
        let result = close(descriptor)
        descriptor = -1
        if result != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Closes and removes the temporary file (again harmless).
    func abandon() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if isPending {
            unlink(path)
            isPending = false
        }
    }

    /// Forgets the file after it was renamed into place.
    func committed() { isPending = false }
}
