import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Favourites and stars from the keyboard, the menus and the viewer: Ctrl+0 … Ctrl+5 rate,
/// Ctrl+period makes a favourite or not. Written to the photos' XMP sidecars (or the app's
/// own store, `PhotoMarksStore`) on a worker, with a toast offering Undo, and Ctrl+Z.
///
/// It needs the window's toasts and the folder whose history the step goes in, not the
/// window: which photos are marked is the window's to say (`WindowActions`).
@MainActor
final class PhotoMarking {
    private weak var toasts: Toasts?

    init(toasts: Toasts) {
        self.toasts = toasts
    }

    /// Writes `change` on the photos at `uris`, an Undo step in `folder`'s history.
    func write(_ change: MarksChange, on uris: [String], in folder: OpenFolder) {
        guard !uris.isEmpty else { return }
        let shared = ShownMarks.shared
        let store = shared.store
        let work = ShownMarks.work
        let owner = MainThreadOwner(self)
        let inFolder = MainThreadOwner(folder)
        shared.onWorker {
            var previous: [(uri: String, marks: PhotoMarks)] = []
            var written: [(uri: String, marks: PhotoMarks, place: PhotoMarksStore.Place)] = []
            var failures: [String] = []
            for uri in uris {
                let before = store.marks(of: uri, cancellation: work)
                let after = change.applied(to: before)
                switch shared.write(after, for: uri, cancellation: work) {
                case .success(let place):
                    previous.append((uri, before))
                    written.append((uri, after, place))
                case .failure(let failure): failures.append(failure.message)
                }
            }
            let undo = previous
            let done = written
            let problems = failures
            onMain {
                for item in done {
                    shared.set(item.marks, for: item.uri)
                    Self.traceWritten(change, uri: item.uri, marks: item.marks)
                }
            }
            owner.onMain { marking in
                guard let toasts = marking.toasts else { return }
                if !problems.isEmpty { toasts.show(problems.joined(separator: "\n"), seconds: 10) }
                guard !undo.isEmpty else { return }
                inFolder.onMain { folder in
                    let step = folder.history.record(.marks(undo))
                    let inOwnStore = done.contains { if case .appStore = $0.place { true } else { false } }
                    toasts.show(Self.describe(change, count: done.count, ownStore: inOwnStore), actionLabel: tr("Undo")) { [weak marking, weak folder] in
                        guard let marking, case .marks(let back)? = folder?.history.take(step) else { return }
                        marking.undo(back)
                    }
                }
            }
        }
    }

    /// Writes the marks photos had back.
    func undo(_ back: [(uri: String, marks: PhotoMarks)]) {
        toasts?.dismissActionable()
        let shared = ShownMarks.shared
        let work = ShownMarks.work
        let owner = MainThreadOwner(self)
        shared.onWorker {
            let failures = back.compactMap { item -> String? in
                if case .failure(let failure) = shared.write(item.marks, for: item.uri, cancellation: work) { return failure.message }
                return nil
            }
            onMain {
                for item in back {
                    shared.set(item.marks, for: item.uri)
                    Trace.milestone("rated", text: "\(item.uri) \(item.marks.rating)")
                    Trace.milestone("favourite", text: "\(item.uri) \(item.marks.favourite ? 1 : 0)")
                    Trace.milestone("tagged", text: "\(item.uri) \(item.marks.tags.count)")
                }
            }
            owner.onMain { marking in
                if !failures.isEmpty { marking.toasts?.show(failures.joined(separator: "\n"), seconds: 10) }
            }
        }
    }

    /// `trace rated URI STARS MS`, `trace favourite URI 0|1 MS`, `trace tagged URI COUNT MS`.
    private static func traceWritten(_ change: MarksChange, uri: String, marks: PhotoMarks) {
        switch change {
        case .rating: Trace.milestone("rated", text: "\(uri) \(marks.rating)")
        case .favourite: Trace.milestone("favourite", text: "\(uri) \(marks.favourite ? 1 : 0)")
        case .tags, .editTags: Trace.milestone("tagged", text: "\(uri) \(marks.tags.count)")
        }
    }

    private static func describe(_ change: MarksChange, count: Int, ownStore: Bool) -> String {
        let text: String
        switch change {
        case .rating(0): text = trn("Rating removed from %d photo", "Rating removed from %d photos", count, count)
        case .rating(let stars): text = trn("%d photo rated %d of 5 stars", "%d photos rated %d of 5 stars", count, count, stars)
        case .favourite(true): text = trn("%d photo added to Favourites", "%d photos added to Favourites", count, count)
        case .favourite(false): text = trn("%d photo removed from Favourites", "%d photos removed from Favourites", count, count)
        case .tags, .editTags: text = trn("Tags of %d photo changed", "Tags of %d photos changed", count, count)
        }
        return ownStore ? text + " " + tr("(kept in this app: the photo’s folder cannot be written)") : text
    }
}
