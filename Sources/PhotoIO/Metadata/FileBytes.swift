import Glibc

/// Bytes read from an open file at an offset, for the readers that look into a file's
/// structure a piece at a time (motion photos' movies, Live Photos' identifiers).
enum FileBytes {
    /// Up to `count` bytes at `offset` (fewer at the end of the file, none on an error).
    static func read(_ descriptor: Int32, offset: Int64, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return Array(bytes[0..<done])
    }
}
