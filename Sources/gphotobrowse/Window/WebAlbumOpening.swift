import CGtk
import PhotoCore
import PhotoIO

/// What a window shows of a web album beyond its photos, once its list is read: the list's
/// title, whether the copies shown are offline, a list cut short, an address that was one
/// photo.
extension BrowserWindow {
    func showWebAlbumRead(_ report: WebAlbumWalk.Report) {
        guard let folder else { return }
        if let listTitle = report.title?.trimmingCharacters(in: .whitespacesAndNewlines), !listTitle.isEmpty {
            folder.name = listTitle
            if folder.source.albums.isEmpty || folder.page.album == .allPhotos { title.set(title: listTitle) }
        }
        let uri = folder.source.uri
        if let reason = report.staleBecause {
            let message = report.isOffline
                ? tr("Offline: showing the copies saved on this computer.")
                : tr("The server failed (%s): showing the copies saved on this computer.", reason)
            printError((report.isOffline ? "offline: " : "stale: ") + reason)
            offlineBanner.show(ShownText(message)) { [weak self] in self?.open(uris: [uri]) }
        } else {
            offlineBanner.hide()
        }
        if report.isTruncated {
            toasts.show(trn("Only the first %d photo of the list is shown.", "Only the first %d photos of the list are shown.",
                            folder.contents.photos.count, folder.contents.photos.count))
        }
        if report.isSinglePhoto, !isViewerShown, folder.contents.photos.count == 1 { showViewer(at: 0) }
    }
}
