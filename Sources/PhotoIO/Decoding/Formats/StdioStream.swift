import Foundation
import PhotoCore

/// The file open on a descriptor as a stdio stream of its own, read from its start: what
/// libjpeg and libpng read. The stream holds a copy of the descriptor, closed with it.
enum StdioStream {
    /// A new stream over `descriptor` from its first byte (close it with `fclose`), nil
    /// when it cannot be made.
    static func reopen(_ descriptor: Int32) -> UnsafeMutablePointer<FILE>? {
        let copy = dup(descriptor)
        guard copy >= 0, lseek(copy, 0, SEEK_SET) == 0, let file = fdopen(copy, "rb") else {
            if copy >= 0 { close(copy) }
            return nil
        }
        return file
    }

    /// Why a decode stopped when its stream could not be made.
    static var unreadable: DecodeFailure { DecodeFailure(.unreadable, tr("The file could not be read again.")) }
}
