import CGtk
import PhotoCore
import PhotoIO

/// Telling the person which subfolders the walk left out (unreadable ones, other drives):
/// a toast, and the list with the reasons on Details. It needs the window's toasts and the
/// window its Details dialog belongs to, nothing else of it.
@MainActor
struct FoldersLeftOut {
    private weak var toasts: Toasts?
    /// The window Details' dialog is over (alive while its toast is shown in it).
    private let parent: UnsafeMutablePointer<GtkWindow>

    init(toasts: Toasts, parent: UnsafeMutablePointer<GtkWindow>) {
        self.toasts = toasts
        self.parent = parent
    }

    func tell(_ folders: [SkippedFolder]) {
        guard let first = folders.first, let toasts else { return }
        let text = folders.count == 1
            ? tr("“%s” was left out", first.folder.path.joined(separator: " / "))
            : trn("%d folder was left out", "%d folders were left out", folders.count, folders.count)
        let details = folders.map { tr("%1$s: %2$s", $0.folder.path.joined(separator: " / "), $0.message) }
        toasts.show(text, actionLabel: tr("Details"), seconds: 10) { [parent] in
            Dialogs.inform(parent, title: tr("Folders Left Out"), details: details.joined(separator: "\n"))
        }
    }
}
