import CGdkPixbuf
import Foundation
import Glibc
import PhotoCore

/// A motion photo's movie copied out of its file, for the player: the bytes a decoder
/// process found (`EmbeddedMovie`), copied as they are, unread, into a file of their own in
/// `$XDG_CACHE_HOME/gphotobrowse/motion/` (mode 0600), which the player opens and which is
/// deleted once played.
public enum MotionMovieCopies {
    /// The folder the copies go to.
    public static var folder: String { String(cString: g_get_user_cache_dir()) + "/gphotobrowse/motion" }

    /// The most a movie copied may weigh (a phone's are a few megabytes).
    public static let maxBytes: Int64 = 512 << 20

    /// Copies `movie` out of the local file `uri` into a new file; its path, or nil when the
    /// photo is not on this computer, is shorter than the movie says, or cannot be read or
    /// written (or `cancellation` was set meanwhile).
    public static func copy(from uri: String, movie: EmbeddedMovie, cancellation: CancellationFlag) -> String? {
        guard movie.length <= maxBytes, let file = g_file_new_for_uri(uri) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let pathPointer = g_file_get_path(file) else { return nil }
        let path = String(cString: pathPointer)
        g_free(pathPointer)
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return nil }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              movie.offset + movie.length <= Int64(status.st_size) else { return nil }
        guard g_mkdir_with_parents(folder, 0o700) == 0 else { return nil }
        let made = folder + "/movie-" + UUID().uuidString + ".mp4"
        let output = open(made, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { return nil }
        var done: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var ok = true
        while ok, done < movie.length, !cancellation.isCancelled {
            let want = Int(min(Int64(buffer.count), movie.length - done))
            let n = buffer.withUnsafeMutableBytes { pread(input, $0.baseAddress, want, off_t(movie.offset + done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { ok = false; break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, n - written) }
                if w < 0, errno == EINTR { continue }
                guard w > 0 else { ok = false; break }
                written += w
            }
            done += Int64(n)
        }
        close(output)
        guard ok, done == movie.length, !cancellation.isCancelled else {
            unlink(made)
            return nil
        }
        return made
    }

    /// Deletes a copy made by `copy`.
    public static func remove(_ path: String) {
        guard path.hasPrefix(folder + "/") else { return }
        unlink(path)
    }
}
