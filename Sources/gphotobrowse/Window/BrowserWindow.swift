import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A browser window (AdwApplicationWindow): a header bar over one of three pages — a status
/// page (welcome, empty or unreadable folder), the thumbnail grid, or the photo viewer —
/// with a long job's progress and the edit bar under them and toasts over all.
///
/// The window owns the open folder (`OpenFolder`: its contents, thumbnail loader, grid,
/// viewer and edit mode); opening another folder, or closing the window, cancels the
/// listing and every decode it started. What it does is in controllers it owns, each given
/// what it uses and a protocol for what it asks of the window (the conformances at the end
/// of this file); its own are its actions (`WindowActions.swift`), the one place applying
/// the action policy (`WindowPolicy.swift`) and its settings (`WindowSettings.swift`).
@MainActor
final class BrowserWindow {
    private let live = LiveObjects.Token("BrowserWindow")
    let window: UnsafeMutablePointer<GtkWindow>
    let header: WindowHeader
    let stack: OpaquePointer
    let status = StatusPage()
    /// Says a web album shows the copies saved on this computer.
    let offlineBanner = InfoBar()
    /// Says why photos are not shown while no decoder process starts.
    let decodingBanner = DecodingBanner()
    let editBar = EditBar()
    let progress = JobProgress()
    let toasts = Toasts()
    let contextMenu = ContextMenu()
    /// What activating a "Not Found" tile shows.
    let notFound = NotFoundPopover()
    /// Renaming a photo (F2).
    let renamePopover = RenamePopover()
    /// Editing the tags of the photos acted on (Ctrl+T).
    let tagsPopover = TagsPopover()
    /// Ctrl+F: filters the album shown (`PhotoFiltering`).
    let searchBar = PhotoSearchBar()
    let decoder = IsolatedDecoder.shared
    /// The work the window started off the main thread, cancelled when it closes.
    let jobs = WindowJobs()
    /// Save Rotation and its undo.
    private(set) lazy var rotationSaving = RotationSaving(toasts: toasts, decoder: decoder, jobs: jobs)
    /// Favourites, stars and tags written, and their undo.
    private(set) lazy var marking = PhotoMarking(toasts: toasts)
    /// Ctrl+T: the tags of the photos to mark.
    private(set) lazy var tagging = PhotoTagging(popover: tagsPopover, title: title.root, photos: self)
    /// Add to Album…, Remove from Album, Rename Album… and Delete Album.
    private(set) lazy var collectionActions = CollectionActions(toasts: toasts, parent: window, albums: self)
    /// F2: renaming the photo acted on.
    private(set) lazy var renaming = PhotoRenaming(popover: renamePopover, title: title.root, toasts: toasts, jobs: jobs,
                                                   contextMenu: contextMenu, pages: self)
    /// What a web album's list said beyond its photos.
    private(set) lazy var webAlbum = WebAlbumOpening(title: title, offlineBanner: offlineBanner, toasts: toasts, pages: self)
    /// Moving between albums, and the switcher kept up to date.
    private(set) lazy var albumNavigation = AlbumNavigation(parent: window, header: header,
                                                            renameDelete: collectionActions.renameDelete, pages: self)
    /// What the folder's album pages use of the window.
    private(set) lazy var parts = WindowParts(parent: window, decoder: decoder, jobs: jobs, editBar: editBar,
                                              progress: progress, toasts: toasts)
    /// The album pages: each connected to the window, switching between them, letting them go.
    private(set) lazy var albumPages = AlbumPages(parent: window, stack: stack, header: header, searchBar: searchBar,
                                                  contextMenu: contextMenu, notFound: notFound, renamePopover: renamePopover,
                                                  tagsPopover: tagsPopover, navigation: albumNavigation, picker: picker, pages: self)
    /// The Favourites album of the folder open.
    private(set) lazy var favouritesPage = FavouritesPage(searchBar: searchBar, pages: self)
    /// Ctrl+F: the search over the album shown.
    private(set) lazy var filtering = PhotoFiltering(searchBar: searchBar, jobs: jobs, pages: self)
    /// Opening a folder or photos, and the folder open.
    private(set) lazy var opening = FolderOpening(window: window, stack: stack, header: header, parts: parts, albumPages: albumPages,
                                                  webAlbum: webAlbum, favouritesPage: favouritesPage, picking: picking, pages: self)
    /// Folders and photos dropped on the window.
    private var drop: FolderDrop?
    /// The folder open, nil while a status page is all the window shows.
    var folder: OpenFolder? { opening.folder }
    /// The person's own albums, as the switcher lists them in every window.
    var collectionAlbums: [AlbumSummary] { YourAlbums.shared.summaries }
    private var firstFramePainted = false
    /// Work waiting for the window's first frame (`whenFirstFramePainted`).
    private var waitingForFirstFrame: [@MainActor () -> Void] = []
    /// The window's size and state as it changes, saved when it goes (`WindowSettings.swift`).
    var windowState: WindowState?
    /// Follows the settings while the window is there.
    var settingsObserver: Observation?

    /// The program this window chooses photos for (`--pick`), if it does.
    let picking: PickSession?
    /// Choosing photos for that program.
    private(set) lazy var picker: PhotoPicking? = picking.map {
        PhotoPicking(session: $0, header: header, jobs: jobs, contextMenu: contextMenu, pages: self)
    }
    /// Called when opening what the command line asked for failed.
    var onOpenFailed: (String) -> Void = { _ in }
    /// Called when the window is gone.
    var onClosed: () -> Void = {}

    var title: WindowTitle { header.title }

    init(application: OpaquePointer, picking: PickSession? = nil) {
        self.picking = picking
        window = adw_application_window_new(application.cast()).window
        gtk_window_set_icon_name(window, Application.id)
        header = WindowHeader(window: window, order: picking == nil ? Preferences.shared.settings.order : .newestFirst)

        stack = gtk_stack_new()!.cast()
        gtk_stack_set_transition_type(stack, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_set_transition_duration(stack, 120)
        gtk_stack_add_named(stack, status.root, "status")
        gtk_widget_set_vexpand(stack.widget, 1)
        // The pages, then a long job's progress and the edit bar under them; toasts over all.
        let pages = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        for child in [stack.widget, progress.root, editBar.root] { gtk_box_append(pages.cast(), child) }
        toasts.setChild(pages)
        gtk_widget_set_vexpand(toasts.root, 1)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(content.cast(), header.root)
        gtk_box_append(content.cast(), offlineBanner.root)
        gtk_box_append(content.cast(), decodingBanner.root)
        gtk_box_append(content.cast(), searchBar.root)
        gtk_box_append(content.cast(), toasts.root)
        adw_application_window_set_content(window.cast(), content)

        title.set(title: tr("Photo Browser"))
        header.sortMenu.onChange = { [weak self] order in self?.opening.sort(by: order) }
        status.recent.onOpen = { [weak self] uri in self?.opening.open(uris: [uri]) }
        installActions()
        installSettings()
        albumNavigation.install()
        collectionActions.install()
        notFound.onRemove = { [weak self] uri in self?.collectionActions.removeFromAlbum([uri]) }
        drop = FolderDrop(on: window.widget) { [weak self] uris in self?.opening.open(uris: uris) }
        filtering.install(on: window)
        favouritesPage.install()
        picker?.install(on: window)
        contextMenu.onChange = { [weak self] in self?.applyPolicy() }
        decodingBanner.onAvailable = { [weak self] in
            guard let folder = self?.folder else { return }
            let keys = folder.loader.forgetPassingFailures()
            for page in folder.pages { page.grid.askAgain(for: keys) }
        }
        applyPolicy()
        watchFirstFrame()
        onSignal(window, "destroy") { [weak self] in
            guard let self else { return }
            self.jobs.cancelAll()
            self.saveSettings()
            if let folder = self.folder {
                folder.stopWork()
                self.contextMenu.detach(from: folder.grid.menuAnchor)
                self.contextMenu.detach(from: folder.viewer.menuAnchor)
            }
            self.renamePopover.detach()
            self.tagsPopover.detach()
            self.opening.letGo()
            self.picking?.cancel()
            self.onClosed()
        }
    }

    func present() { gtk_window_present(window) }

    // MARK: Pages

    /// Shows a status page in place of the folder's grid.
    func showStatus(icon: String, title text: String, details: String, retry: (() -> Void)? = nil) {
        status.show(icon: icon, title: text, details: details, offerOpen: true, retry: retry)
        gtk_stack_set_visible_child_name(stack, "status")
        header.show(.status)
        title.setSubtitle(nil)
        title.setBusy(false)
        applyPolicy()
    }

    /// The welcome page (no folder to open), with the folders opened before.
    func showWelcome() {
        showStatus(icon: "folder-pictures-symbolic", title: tr("Welcome to Photo Browser"),
                   details: tr("Open a folder to see its photos, or drop a folder on this window."))
        let page = status.shown
        RecentFolders.load { [weak self] folders in
            guard let self, self.status.shown == page else { return }
            self.status.recent.show(folders)
            Trace.milestone("recent-folders", folders.count)
        }
    }

    var isViewerShown: Bool {
        guard let folder else { return false }
        return gtk_stack_get_visible_child(stack) == folder.viewer.root
    }

    var isGridShown: Bool {
        guard let folder else { return false }
        return gtk_stack_get_visible_child(stack) == folder.grid.root
    }

    func showViewer(at index: Int) {
        guard let folder else { return }
        gtk_stack_set_visible_child(stack, folder.viewer.root)
        header.show(.viewer)
        folder.viewer.show(index, entering: true)
        applyPolicy()
        folder.viewer.focus()
    }

    func showGrid() {
        guard let folder else { return }
        let last = folder.viewer.index
        folder.viewer.stop()
        header.show(.grid)
        title.set(title: folder.title(of: folder.page.album))
        gtk_stack_set_visible_child(stack, folder.grid.root)
        updateSubtitle()
        if let last { folder.grid.reveal(last) } else { folder.grid.focus() }
        applyPolicy()
    }

    // MARK: The first frame

    /// Runs `work` once the window has drawn its first frame (now, if it has), or after half
    /// a second if no frame comes (a window never shown): work that can wait should not
    /// keep the window from appearing.
    func whenFirstFramePainted(_ work: @escaping @MainActor () -> Void) {
        guard !firstFramePainted else { return work() }
        waitingForFirstFrame.append(work)
        after(milliseconds: 500) { [weak self] in self?.firstFrameDone() }
    }

    /// `trace first-frame MS` when the window has drawn its first frame, and the work that waited for it.
    private func watchFirstFrame() {
        onSignal(window, "realize") { [weak self] in
            guard let self, let clock = gtk_widget_get_frame_clock(self.window.widget) else { return }
            // Once: the handler goes with the first frame rather than running at every frame.
            onNextSignal(clock, "after-paint") { [weak self] in
                guard let self else { return }
                Trace.milestone("first-frame")
                self.firstFrameDone()
            }
        }
    }

    private func firstFrameDone() {
        guard !firstFramePainted else { return }
        firstFramePainted = true
        let waiting = waitingForFirstFrame
        waitingForFirstFrame = []
        for work in waiting { work() }
    }
}

/// What the album actions (`CollectionActions`, `AlbumRenameDelete`) need of the window.
extension BrowserWindow: AlbumsShown {
    var shownAlbum: AlbumID? { folder?.page.album }
    var undoHistory: UndoHistory? { folder?.history }
    func show(_ album: AlbumID) { albumPages.show(album) }

    func albumsChanged() {
        updateAlbums()
        applyPolicy()
    }
}

/// What the window shows, to the controllers in it.
extension BrowserWindow: ShownPages {}

/// What the Favourites album (`FavouritesPage`) needs of the window.
extension BrowserWindow: FavouritesShown {
    func filter(by search: PhotoSearch) { filtering.filter(by: search) }
    func updateAlbums() { albumNavigation.update() }
}

/// What moving between albums (`AlbumNavigation`) needs of the window.
extension BrowserWindow: AlbumsToSwitch {
    func showAlbum(_ album: AlbumID, sliding: Int, focusingGrid: Bool) {
        albumPages.show(album, sliding: sliding, focusingGrid: focusingGrid)
    }
}

/// What album pages (`AlbumPages`) need of the window.
extension BrowserWindow: AlbumPagesShown {
    func openTargetIfListed() { opening.openTargetIfListed() }
    func updateSubtitle(dates progress: DateTakenReader.Progress? = nil) { opening.updateSubtitle(dates: progress) }
}

/// What the search (`PhotoFiltering`) needs of the window.
extension BrowserWindow: PhotosToFilter {}

/// What opening a folder (`FolderOpening`) needs of the window.
extension BrowserWindow: FoldersShown {
    func openFailed(_ message: String) { onOpenFailed(message) }

    func searchListed() { filtering.makeCorpus() }
    func searchLeft() { filtering.left() }
}

/// What choosing photos (`PhotoPicking`) needs of the window.
extension BrowserWindow: PhotosToPick {}

/// What a web album's messages (`WebAlbumOpening`) need of the window.
extension BrowserWindow: WebAlbumShown {
    func reopen(_ uri: String) { opening.open(uris: [uri]) }
}

/// What tagging (`PhotoTagging`) needs of the window.
extension BrowserWindow: PhotosToTag {
    var openGrid: ThumbnailGrid? { folder?.grid }
    var shownViewer: PhotoViewer? { isViewerShown ? folder?.viewer : nil }
}
