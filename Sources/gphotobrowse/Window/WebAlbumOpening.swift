import CGtk
import PhotoCore
import PhotoIO

/// What the web album's messages need of the window it opens in, beyond what it shows: the
/// viewer shown, and the address opened again (the offline banner's Retry).
@MainActor
protocol WebAlbumShown: ShownPages {
    func showViewer(at index: Int)
    /// Opens the album's address again.
    func reopen(_ uri: String)
}

/// What a window shows of a web album beyond its photos, once its list is read: the list's
/// title, whether the copies shown are offline, a list cut short, an address that was one
/// photo. It needs the window's title, offline banner and toasts, and the album shown.
@MainActor
final class WebAlbumOpening {
    private let title: WindowTitle
    /// Says the album shows the copies saved on this computer.
    private let offlineBanner: InfoBar
    private let toasts: Toasts
    private weak var pages: (any WebAlbumShown)?

    init(title: WindowTitle, offlineBanner: InfoBar, toasts: Toasts, pages: any WebAlbumShown) {
        self.title = title
        self.offlineBanner = offlineBanner
        self.toasts = toasts
        self.pages = pages
    }

    func showRead(_ report: WebAlbumWalk.Report) {
        guard let pages, let folder = pages.folder else { return }
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
            offlineBanner.show(ShownText(message)) { [weak self] in self?.pages?.reopen(uri) }
        } else {
            offlineBanner.hide()
        }
        if report.isTruncated {
            toasts.show(trn("Only the first %d photo of the list is shown.", "Only the first %d photos of the list are shown.",
                            folder.contents.photos.count, folder.contents.photos.count))
        }
        if report.isSinglePhoto, !pages.isViewerShown, folder.contents.photos.count == 1 { pages.showViewer(at: 0) }
    }

    /// The album is left: the banner goes with it.
    func closed() {
        offlineBanner.hide()
    }
}
