import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// What opening a folder needs of the window, beyond what it shows: its status pages, the
/// viewer shown, the actions offered and the switcher brought up to date, work that waits for
/// its first frame, the command line told of a failure, and the search made ready or left.
@MainActor
protocol FoldersShown: ShownPages {
    func showStatus(icon: String, title: String, details: String, retry: (() -> Void)?)
    /// The welcome page (no folder to open), with the folders opened before.
    func showWelcome()
    func showViewer(at index: Int)
    func applyPolicy()
    func updateAlbums()
    func whenFirstFramePainted(_ work: @escaping @MainActor () -> Void)
    /// Opening what the command line asked for failed, for this reason.
    func openFailed(_ message: String)
    /// The folder is listed: the search's corpus is made ahead of a first search.
    func searchListed()
    /// The folder is left: the search under way stops, and what it asked for is forgotten.
    func searchLeft()
}

/// Opening a folder or photos in a window, and what the window shows while the folder is
/// listed: the grid, a status page when it is empty or cannot be read, the subtitle. It owns
/// the folder open (`OpenFolder`), and needs the window (the server's password dialog and the
/// folders left out go over it), its stack, header and title, what its album pages use of it,
/// its album pages, the web album's messages and the Favourites album, the program it picks
/// for, and what the window shows.
@MainActor
final class FolderOpening {
    /// The folder open, nil while none is.
    private(set) var folder: OpenFolder?
    /// Counts lookups of what to open: only the latest one's answer is used.
    private var pendingResolution = 0
    /// Cancels the look-up of what to open under way (a newer one, or the window closing).
    private var lookingUp: CancellationFlag?

    /// The window (it owns this).
    private let window: UnsafeMutablePointer<GtkWindow>
    private let stack: OpaquePointer
    private let header: WindowHeader
    private let parts: WindowParts
    private let albumPages: AlbumPages
    private let webAlbum: WebAlbumOpening
    private let favouritesPage: FavouritesPage
    /// The program the window chooses photos for (`--pick`), if it does.
    private let picking: PickSession?
    private weak var pages: (any FoldersShown)?

    private var title: WindowTitle { header.title }
    private var isGridShown: Bool { pages?.isGridShown ?? false }

    init(window: UnsafeMutablePointer<GtkWindow>, stack: OpaquePointer, header: WindowHeader, parts: WindowParts,
         albumPages: AlbumPages, webAlbum: WebAlbumOpening, favouritesPage: FavouritesPage, picking: PickSession?,
         pages: any FoldersShown) {
        self.window = window
        self.stack = stack
        self.header = header
        self.parts = parts
        self.albumPages = albumPages
        self.webAlbum = webAlbum
        self.favouritesPage = favouritesPage
        self.picking = picking
        self.pages = pages
    }

    /// Opens what `uris` name: a folder as a grid, or image files in the viewer within their
    /// folder (the first of them shown). Looking them up is a job of the window, on the
    /// look-up workers; a newer opening cancels it.
    func open(uris: [String], fromCommandLine: Bool = false, connected: Bool = false) {
        guard let first = uris.first else { return }
        // Decoder processes start while the location is looked up and listed.
        parts.decoder.prestart()
        let generation = startLookUp()
        let owner = MainThreadOwner(self)
        parts.jobs.lookUp(first, within: lookingUp) { flag in
            let location = Location.resolve(uri: first, cancellation: flag)
            guard !flag.isCancelled else { return }
            owner.onMain { opening in
                guard opening.pendingResolution == generation else { return }
                opening.open(location, fromCommandLine: fromCommandLine, connected: connected)
            }
        }
    }

    /// A new look-up of what to open: the one under way is cancelled, and only the new one's
    /// answer is used. Returns its generation.
    private func startLookUp() -> Int {
        lookingUp?.cancel()
        lookingUp = CancellationFlag()
        pendingResolution += 1
        return pendingResolution
    }

    /// Connects to the server holding `uri` (asking for a password if it wants one), then
    /// opens it; says why if that fails.
    private func connect(to uri: String, fromCommandLine: Bool) {
        closeFolder()
        title.set(title: parseName(ofURI: uri))
        title.setSubtitle(tr("Connecting…"))
        title.setBusy(true)
        let generation = pendingResolution
        RemoteMount.mount(uri, over: window) { [weak self] outcome in
            guard let self, self.pendingResolution == generation else { return }
            switch outcome {
            case .mounted:
                self.open(uris: [uri], fromCommandLine: fromCommandLine, connected: true)
            case .cancelled:
                self.pages?.showWelcome()
                if fromCommandLine { self.pages?.openFailed(tr("Not connected.")) }
            case .failed(let message):
                // The server may be back, or the password typed again: Retry connects anew.
                self.showError(message, retry: { [weak self] in self?.open(uris: [uri]) })
                if fromCommandLine { self.pages?.openFailed(message) }
            }
        }
    }

    /// Opens the first of `uris` that is a folder, or shows the welcome page.
    func openFirstFolder(_ uris: [String]) {
        let generation = startLookUp()
        let owner = MainThreadOwner(self)
        parts.jobs.lookUp(uris.first ?? "", within: lookingUp) { flag in
            let folder = uris.lazy.map { Location.resolve(uri: $0, cancellation: flag) }.first { if case .folder = $0 { true } else { false } }
            guard !flag.isCancelled else { return }
            owner.onMain { opening in
                guard opening.pendingResolution == generation else { return }
                if let folder { opening.open(folder, fromCommandLine: false, connected: false) } else { opening.pages?.showWelcome() }
            }
        }
    }

    private func open(_ location: Location, fromCommandLine: Bool, connected: Bool) {
        switch location {
        case .needsMount(let uri) where !connected:
            connect(to: uri, fromCommandLine: fromCommandLine)
        case .needsMount:
            let message = tr("The server's folder could not be reached after connecting.")
            showError(message)
            if fromCommandLine { pages?.openFailed(message) }
        case .folder(let uri, let name):
            Preferences.shared.whenLoaded { [weak self] settings in
                self?.openFolder(uri: uri, name: name, target: nil, order: self?.order(remembered: settings.order) ?? settings.order)
            }
        case .file(let uri, let folderURI, let folderName):
            Preferences.shared.whenLoaded { [weak self] settings in
                self?.openFolder(uri: folderURI, name: folderName, target: uri, order: self?.order(remembered: settings.order) ?? settings.order)
            }
        case .web(let url):
            // An address ending like a photo's name opens in the viewer; any other is a list.
            let target = WebAlbumWalk.looksLikePhoto(url) ? url : nil
            Preferences.shared.whenLoaded { [weak self] settings in
                self?.openFolder(uri: url, name: WebAlbumWalk.placeName(of: url), target: target, order: self?.order(remembered: settings.order) ?? settings.order)
            }
        case .notAPhoto(_, let name, let kind):
            showNotAPhoto(name: name, kind: kind)
            if fromCommandLine { pages?.openFailed(tr("“%s” is not a photo.", OutsideText(name))) }
        case .unavailable(let message):
            showError(message)
            if fromCommandLine { pages?.openFailed(message) }
        }
    }

    /// A file that is not a photo was asked for: the page says so (and its folder is not
    /// opened instead, as if the file were not there).
    private func showNotAPhoto(name: String, kind: String) {
        closeFolder()
        let details = kind.isEmpty ? tr("“%s” is not a photo.", OutsideText(name))
                                   : tr("“%1$s” is not a photo (%2$s).", OutsideText(name), OutsideText(kind))
        // A picker's caller is told by its session (see showError).
        if picking == nil { printError(details) }
        pages?.showStatus(icon: "image-missing-symbolic", title: tr("Not a Photo"), details: details, retry: nil)
    }

    private func openFolder(uri: String, name: String, target: String?, order: PhotoOrder) {
        closeFolder()
        header.sortMenu.show(order)
        // A photo opened from the command line pages within its own folder.
        let first: AlbumID = target == nil ? .allPhotos : .folder(uri)
        let folder = OpenFolder(uri: uri, name: name, target: target, first: first, order: order,
                                tileSize: Preferences.shared.settings.tileSize, parts: parts)
        self.folder = folder
        albumPages.wire(folder.page)
        folder.contents.onListed = { [weak self] result in self?.listed(result) }
        folder.source.onDateProgress = { [weak self] progress in self?.updateSubtitle(dates: progress) }
        folder.source.onAlbumsChanged = { [weak self] in self?.pages?.updateAlbums() }
        header.albums.covers.thumbnails = folder.loader
        header.albumList.covers.thumbnails = folder.loader
        let leftOut = FoldersLeftOut(toasts: parts.toasts, parent: window)
        folder.source.onFoldersLeftOut = { leftOut.tell($0) }
        pages?.updateAlbums()

        title.set(title: name)
        // Until the listing answers: a server may take a while (a web album's list).
        title.setSubtitle(folder.source.isWeb ? tr("Connecting…") : trn("Listing… %d photo", "Listing… %d photos", 0, 0))
        title.setBusy(true)
        if target == nil {
            showAtOnce(folder.grid.root)
            header.show(.grid)
            folder.grid.focus()
        } else {
            showAtOnce(folder.viewer.root)
            header.show(.viewer)
        }
        pages?.applyPolicy()
        folder.source.start { [weak self] work in
            if let pages = self?.pages { pages.whenFirstFramePainted(work) } else { work() }
        }
    }

    /// Shows the folder's first page in place of what the window showed, without the stack's
    /// fade: a window just opened shows a blank page until the folder is found, and a fade from
    /// it took the first two frames and then a whole-window blend at every frame (120 ms) while
    /// the first screen's thumbnails came in. The person sees the folder at once, as in a file
    /// manager; the fade stays for what they switch to within it (albums, the viewer).
    private func showAtOnce(_ page: Widget) {
        let fade = gtk_stack_get_transition_type(stack)
        gtk_stack_set_transition_type(stack, GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_set_visible_child(stack, page)
        gtk_stack_set_transition_type(stack, fade)
    }

    /// Opens the viewer on the file asked for once the listing has found it.
    func openTargetIfListed() {
        guard let target = folder?.target, let index = folder?.contents.photos.index(of: target) else { return }
        folder?.target = nil
        pages?.showViewer(at: index)
    }

    private func listed(_ result: Result<Int, FolderError>) {
        guard let folder else { return }
        switch result {
        case .success(let count):
            title.setBusy(false)
            Trace.milestone("enumerated", count)
            traceListedIdle()
            if let report = folder.source.webReport { webAlbum.showRead(report) }
            remember(folder)
            updateSubtitle()
            favouritesPage.readSidecarMarks()
            pages?.searchListed()
            if let target = folder.target {
                folder.target = nil
                // The file was not an image this browser shows (its name said nothing, and
                // its content is no photo): the page says so.
                let name = (parseName(ofURI: target) as NSString).lastPathComponent
                showNotAPhoto(name: name, kind: "")
                pages?.openFailed(tr("“%s” is not a photo.", OutsideText(name)))
                return
            }
            if count == 0 {
                pages?.showStatus(icon: "folder-pictures-symbolic", title: tr("No Photos"), details: tr("“%s” has no images in it.", OutsideText(folder.name)), retry: nil)
                Trace.milestone("visible-thumbnails", 0)
            }
        case .failure(let error):
            let uri = folder.source.uri, isWeb = folder.source.isWeb
            closeFolder()
            showError(error.message, title: isWeb ? tr("Cannot Open Web Album") : nil,
                      retry: error.canRetry ? { [weak self] in self?.open(uris: [uri]) } : nil)
            pages?.openFailed(error.message)
        }
    }

    /// With tracing on, `trace listed-idle BUSY MS` once the main loop is first idle after
    /// the window's next frame (the listing's last photos laid out and drawn): BUSY is the
    /// milliseconds of processor time the main thread used since `enumerated`.
    private func traceListedIdle() {
        guard Trace.isEnabled, let clock = gtk_widget_get_frame_clock(window.widget) else { return }
        let start = Trace.threadMilliseconds()
        onNextSignal(clock, "after-paint") {
            whenIdle { Trace.milestone("listed-idle", Int((Trace.threadMilliseconds() - start).rounded())) }
        }
    }

    /// A folder listed, as the person opened it (not for a script's picker, which changes
    /// nothing): the folder chooser starts there next time, and the desktop's recent files
    /// and the welcome page list it.
    private func remember(_ folder: OpenFolder) {
        guard picking == nil else { return }
        let uri = folder.source.uri
        Preferences.shared.update { $0.lastFolder = uri }
        // A web album is no folder the desktop's recent files could open.
        if !folder.source.isWeb { RecentFolders.add(uri: uri, name: folder.name) }
    }

    /// The grid's second title line: how many photos, or how far a long job has come.
    func updateSubtitle(dates progress: DateTakenReader.Progress? = nil) {
        guard let folder, isGridShown else { return }
        if let progress, progress.total > 0 {
            title.setSubtitle(tr("Reading dates… %d%%", progress.done * 100 / progress.total))
            return
        }
        let count = folder.contents.photos.count
        title.setSubtitle(folder.contents.isListed
            ? trn("%d photo", "%d photos", count, count)
            : trn("Listing… %d photo", "Listing… %d photos", count, count))
    }

    /// The order a folder opens in: the one remembered, but newest first by date taken
    /// when choosing photos (`--pick`).
    func order(remembered: PhotoOrder) -> PhotoOrder { picking == nil ? remembered : .newestFirst }

    func sort(by order: PhotoOrder) {
        // A picker's order is its own: the browser's stays as it was.
        if picking == nil { Preferences.shared.update { $0.order = order } }
        folder?.contents.sort(by: order)
    }

    /// Says why nothing can be shown, with a Retry button when trying again may work.
    func showError(_ message: String, title: String? = nil, retry: (() -> Void)? = nil) {
        // A picker's caller is told by its session, on the stderr of the command that ran
        // `--pick` (this process's, or another's): said there, once.
        if picking == nil { printError(message) }
        pages?.showStatus(icon: "dialog-error-symbolic", title: title ?? tr("Cannot Open Folder"), details: message, retry: retry)
    }

    func closeFolder() {
        pages?.searchLeft()
        webAlbum.closed()
        title.setBusy(false)
        guard let old = folder else { return }
        folder = nil
        old.stopWork()
        for page in old.pages { albumPages.unwire(page) }
        header.showAlbums([], collections: YourAlbums.shared.summaries, current: nil)
        header.albums.covers.thumbnails = nil
        header.albumList.covers.thumbnails = nil
    }

    /// The window is going: its folder's work was stopped; the folder goes with it.
    func letGo() {
        folder = nil
    }
}
