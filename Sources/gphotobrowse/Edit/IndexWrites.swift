import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// What `ShownMarks` read (marks, cameras and dates) waiting to be written into the photo
/// index, as rows, on the marks worker only: written together half a second after the first
/// (`flushSoon`), or at once past `most`.
final class IndexWrites: @unchecked Sendable {
    /// Marks boxed: a folder's facts, queued for the worker 100,000 at a time on a first
    /// visit, take the size of facts, not of marks (about half).
    enum Read { indirect case marks(PhotoMarks), facts(ExifFacts) }
    /// The most rows waiting: past it they are written at once. A folder of 100,000 photos
    /// read for the first time has every one's facts to keep, which arrive faster than half
    /// a second's wait lets go: they waited all together (about 15 MB, held twice as the
    /// list grew).
    static let most = 2_048
    var pending: [PhotoIndex.Update] = []
    var flushQueued = false

    func add(_ update: PhotoIndex.Update) {
        pending.append(update)
        guard pending.count >= Self.most else { return }
        let updates = pending
        pending = []
        PhotoIndex.shared.record(updates)
    }

    /// On the worker `queue`: the rows waiting written together, half a second from now.
    func flushSoon(on queue: DispatchQueue) {
        guard !pending.isEmpty, !flushQueued else { return }
        flushQueued = true
        queue.asyncAfter(deadline: .now() + 0.5) {
            self.flushQueued = false
            let updates = self.pending
            self.pending = []
            PhotoIndex.shared.record(updates)
        }
    }
}

extension PhotoIndex.FileState {
    /// A local photo's size and modification time now; nil for any other, or one gone.
    init?(now uri: String) {
        guard uri.hasPrefix("file://"), let path = g_filename_from_uri(uri, nil, nil) else { return nil }
        defer { g_free(path) }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(uri: uri, size: Int64(status.st_size),
                  modified: Int64(status.st_mtim.tv_sec) * 1_000_000 + Int64(status.st_mtim.tv_nsec) / 1000)
    }
}
