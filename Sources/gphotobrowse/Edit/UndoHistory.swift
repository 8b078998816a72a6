import PhotoCore
import PhotoIO

/// What can be undone in a window, newest last, shared by its albums' pages: photos moved to
/// the trash, photos removed from an album of the person's own, an album deleted, a photo
/// renamed, a rotation saved. Ctrl+Z
/// takes back the newest step, whichever album it was done in; a toast's Undo takes back
/// its own.
@MainActor
final class UndoHistory {
    enum Step {
        case trash(TrashBatch)
        case albumRemoval(CollectionRemoval)
        /// `wasShown`: the window showed the album when it was deleted (and left it).
        case albumDeletion(DeletedCollection, wasShown: Bool)
        /// A photo renamed: its URI before and after.
        case rename(from: String, to: String)
        /// A rotation saved into a photo's file: the orientation it had.
        case rotation(uri: String, previous: ExifOrientation)
        /// Favourites, stars or tags changed: the marks each photo had.
        case marks([(uri: String, marks: PhotoMarks)])
    }

    private var steps: [(number: Int, step: Step)] = []
    private var made = 0

    /// Records a step; its number takes it back from a toast (`take`).
    func record(_ step: Step) -> Int {
        made += 1
        steps.append((made, step))
        return made
    }

    /// The newest step, taken out of the history.
    func takeLast() -> Step? { steps.popLast()?.step }

    /// The step numbered `number`, taken out of the history, unless it was taken already.
    func take(_ number: Int) -> Step? {
        guard let index = steps.firstIndex(where: { $0.number == number }) else { return nil }
        return steps.remove(at: index).step
    }
}

/// Photos moved to the trash together, and where they were in the person's albums.
struct TrashBatch: Sendable {
    let items: [TrashedItem]
    let albumRemovals: [CollectionRemoval]
}
