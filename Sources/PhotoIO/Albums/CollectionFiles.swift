import Glibc
import PhotoCore

// The albums folder's files, with the system's calls: documents read with a bound, written
// atomically (a temporary file in the same folder, fsync, rename, fsync of the folder),
// the lock every change takes, and what the folder holds as a cheap signature.

/// What the folder's documents look like on the disk, without reading them: their names,
/// inodes, sizes and times. Any write of a document (a rename of a new file over it, or an
/// edit in place) changes it.
struct FolderSignature: Equatable {
    struct Entry: Equatable {
        let name: String
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let changed: Int64
    }

    let entries: [Entry]
}

enum CollectionFiles {
    /// The system's words for `code` (`errno`).
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Makes `path` (and its parents) a folder only its owner can enter, if it is not one yet.
    static func makeFolder(_ path: String) -> Int32? {
        var made = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            made += "/" + component
            if mkdir(made, 0o700) != 0, errno != EEXIST { return errno }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return errno }
        return (status.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR
    }

    /// The names in `folder` (none when it cannot be read), without "." and "..".
    static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether `name` is one a document may have: `ID.json`, not hidden.
    static func isDocumentName(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasPrefix(".")
    }

    /// The signature of the documents in `folder`.
    static func signature(of folder: String) -> FolderSignature {
        let entries = names(in: folder).filter(isDocumentName).sorted().compactMap { name -> FolderSignature.Entry? in
            var status = stat()
            guard lstat(folder + "/" + name, &status) == 0 else { return nil }
            return FolderSignature.Entry(
                name: name, inode: UInt64(status.st_ino), size: Int64(status.st_size),
                modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                changed: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
            )
        }
        return FolderSignature(entries: entries)
    }

    /// The bytes of the document at `path`: `.notFound` when there is none, refused when it
    /// is not a regular file (a link, a folder, a pipe) or larger than the documents' limit.
    static func read(_ path: String) -> Result<[UInt8], CollectionProblem> {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .failure(.notFound)
            case ELOOP, ENXIO: return .failure(.documentNotAFile)
            case let code: return .failure(.documentUnreadable(reason(code)))
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.documentUnreadable(reason(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return .failure(.documentNotAFile) }
        let limit = CollectionDocument.maximumSize
        guard status.st_size <= limit else { return .failure(.documentTooLarge) }
        // The size may change while reading: read to the end, but never past the limit.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count <= limit else { return .failure(.documentTooLarge) }
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count))
            }
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.documentUnreadable(reason(errno)))
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return .success(bytes)
    }

    /// Writes `bytes` to `folder/name` so that the name holds either the old document or the
    /// new one, never a part: a temporary file (`.NAME.RANDOM.tmp`) in the same folder,
    /// written, flushed to the disk, renamed over `name`, then the folder flushed. On
    /// failure the temporary file is removed and `errno`'s code returned.
    static func writeAtomically(_ bytes: [UInt8], to name: String, in folder: String, mode: mode_t = 0o600) -> Int32? {
        let temporary = folder + "/." + name + "." + PhotoCollection.newID().prefix(16) + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return errno }
        var failure: Int32?
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += count
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, folder + "/" + name) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            return failure
        }
        flushFolder(folder)
        return nil
    }

    /// Makes the folder's entries (a rename, a link) durable.
    static func flushFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Sets the modification time of `path` to now (a deleted document's: when it was deleted).
    static func touch(_ path: String) {
        utimensat(AT_FDCWD, path, nil, 0)
    }

    /// The modification time of `path` in microseconds, nil when it cannot be read.
    static func modified(_ path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return Int64(status.st_mtim.tv_sec) * 1_000_000 + Int64(status.st_mtim.tv_nsec) / 1000
    }

    /// The time now, in microseconds since the epoch.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}

/// The albums folder's lock (`flock` on `.lock`), held for every change: read the document
/// as it is on the disk, change it, write it. Windows and processes that share the folder
/// take turns, so no change is lost to another made at the same time. `flock` locks belong
/// to the open file, so two stores in one process exclude each other too.
final class FolderLock {
    private let descriptor: Int32

    /// Takes the lock, waiting for another holder for up to `patience` tries 10 ms apart
    /// (a holder keeps it for one read and write), or why it cannot.
    static func take(in folder: String, patience: Int = 1000) -> Result<FolderLock, CollectionProblem> {
        let descriptor = open(folder + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(.saving(CollectionFiles.reason(errno))) }
        var tries = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            tries += 1
            guard code == EWOULDBLOCK || code == EINTR, tries < patience else {
                close(descriptor)
                return .failure(.saving(CollectionFiles.reason(code)))
            }
            usleep(10_000)
        }
        return .success(FolderLock(descriptor: descriptor))
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
