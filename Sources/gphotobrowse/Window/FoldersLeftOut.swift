import CGtk
import PhotoCore
import PhotoIO

/// Telling the person which subfolders the walk left out (unreadable ones, other drives):
/// a toast, and the list with the reasons on Details.
extension BrowserWindow {
    func tellFoldersLeftOut(_ folders: [SkippedFolder]) {
        guard let first = folders.first else { return }
        let text = folders.count == 1
            ? tr("“%s” was left out", first.folder.path.joined(separator: " / "))
            : trn("%d folder was left out", "%d folders were left out", folders.count, folders.count)
        let details = folders.map { tr("%1$s: %2$s", $0.folder.path.joined(separator: " / "), $0.message) }
        toasts.show(text, actionLabel: tr("Details"), seconds: 10) { [weak self] in
            guard let self else { return }
            Dialogs.inform(self.window, title: tr("Folders Left Out"), details: details.joined(separator: "\n"))
        }
    }
}
