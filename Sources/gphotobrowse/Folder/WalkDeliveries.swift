import Foundation
import PhotoCore

/// What a tree's walk found and the main thread has not taken yet. A walk delivers at its
/// own pace; while the main thread is busy (merging a batch into a long list, laying out),
/// later deliveries wait here and are taken together, so that a list of n photos is spliced
/// once for all of them rather than once each (every splice costs O(n)).
final class WalkDeliveries: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [FolderPhotos] = []

    /// Adds what a delivery brought (on the walk's thread); true when nothing was waiting,
    /// and the main thread must be asked to take it.
    func post(_ batches: [FolderPhotos]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let wasEmpty = waiting.isEmpty
        waiting += batches
        return wasEmpty
    }

    /// Everything waiting (on the main thread).
    func take() -> [FolderPhotos] {
        lock.lock()
        defer { lock.unlock() }
        let taken = waiting
        waiting = []
        return taken
    }
}
