import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The paged, zoomable viewer: one photo fitted to the window, its neighbours decoded
/// ahead, zoom around the pointer, pan, rotate, a properties panel, and chrome that a
/// single click hides.
///
/// The photo shows at once from its thumbnail; its display-size image follows once paging
/// has settled (`ViewerImages`), and a full-resolution one when the zoom needs more pixels.
/// Zoom, pan and rotation are the core's `ViewTransform`, in device pixels
/// (`ViewerZoom.swift`); keys are in `ViewerKeys.swift`, pointer and touch gestures in
/// `ViewerGestures.swift`, what is drawn over the photo in `ViewerChrome`.
@MainActor
final class PhotoViewer {
    private let live = LiveObjects.Token("PhotoViewer")
    let root: Widget
    let canvas = PhotoCanvas()
    let overlay: Widget
    let chrome: ViewerChrome
    /// A web photo's download, over its thumbnail until the original is here.
    let download: DownloadIndicator
    let properties = PropertiesPanel()
    /// The details the properties panel shows, and whose: its marks' lines follow the marks.
    private var shownDetails: (uri: String, rows: [(label: String, value: String)])?
    /// The toolbar's select toggle's state (`viewer.select`).
    let selectAction: OwnedObject<OpaquePointer>
    /// The viewer's actions (`viewer.NAME`): the window's policy enables them.
    let actionGroup: OwnedObject<OpaquePointer>
    let contents: AlbumContents
    /// Where placeholders come from: the grid's thumbnails (`use(thumbnails:)`, `ViewerPlaceholder.swift`).
    var thumbnails: ThumbnailLoader
    var thumbnailObservations: [Observation] = []
    let images: ViewerImages
    /// The shown photo's tiles, when a large JPEG is zoomed past its fit-size image.
    let tiles: ViewerTiles
    let animation = AnimationPlayback()
    /// The video shown, played by GTK's media stack over its frame.
    let video: VideoPlayback

    private(set) var current: (index: Int, id: String)?
    var transform: ViewTransform?
    /// Rotation is a view setting, kept per photo while the folder is open; files are
    /// untouched until a rotation is saved, which then gives way to the file's.
    var rotations = ViewRotations()
    /// Photos this app renamed, old URI to new, for the viewer to follow when the old goes.
    var renamed: [String: String] = [:]
    /// The photo shown left the album before the viewer knew why, and `by` was shown in its
    /// place: a rename of it that this app made, learnt of afterwards (the folder's monitor
    /// told of it first), takes the viewer to the photo under its new name.
    var replaced: (old: String, by: String)?
    var placeholder: (key: PhotoVersion, surface: CanvasSurface)?
    var thumbnailRequest: PhotoVersion?
    var tracedFullImage: String?
    /// What pointer and touch gestures are in the middle of (`ViewerGestures.swift`).
    var gestures = ViewerGestureState()
    /// The slideshow, once one was started (`Slideshow.swift`).
    var slideshow: Slideshow?

    /// The shown photo changed (its name goes in the window title).
    var onPhotoChanged: (Photo) -> Void = { _ in }
    /// The shown photo's rotation changed, or another photo is shown (Save Rotation follows).
    var onRotationChanged: () -> Void = {}
    /// A movie started or stopped showing over the still (`showsMovie`).
    var onMovieShownChanged: () -> Void {
        get { video.onShownChanged }
        set { video.onShownChanged = newValue }
    }
    /// A video, or a still's movie, shows over the still: zoom and rotation are off.
    var showsMovie: Bool { video.shownID != nil }
    /// The shown photo's rotation, in clockwise quarter turns (0...3).
    var shownRotation: Int { current.map { rotations.shown($0.id) } ?? 0 }
    /// The person asked to go back to the grid.
    var onClose: () -> Void = {}
    /// The header bar should show or hide with the viewer's own chrome.
    var onChromeVisibility: (Bool) -> Void {
        get { chrome.onVisibility }
        set { chrome.onVisibility = newValue }
    }
    /// The window should enter or leave fullscreen.
    var onFullscreen: (Bool) -> Void {
        get { chrome.onFullscreen }
        set { chrome.onFullscreen = newValue }
    }
    /// A right click asked for the context menu at (x, y) in `menuAnchor`.
    var onContextMenu: (_ x: Double, _ y: Double) -> Void = { _, _ in }
    /// A long press, where it does something else than the context menu (choosing photos).
    var onLongPress: (() -> Void)?
    var menuAnchor: Widget { canvas.widget }
    /// Edit mode: Space selects the shown photo instead of paging.
    var isEditing: () -> Bool = { false }
    var isSelected: (String) -> Bool = { _ in false }
    var onToggleSelected: (String) -> Void = { _ in }

    var index: Int? { current?.index }

    init(contents: AlbumContents, thumbnails: ThumbnailLoader, decoder: IsolatedDecoder, jobs: WindowJobs) {
        self.contents = contents
        self.thumbnails = thumbnails
        images = ViewerImages(decoder: decoder, jobs: jobs)
        tiles = ViewerTiles(decoder: decoder, jobs: jobs)

        overlay = gtk_overlay_new()
        gtk_widget_add_css_class(overlay, "photo-viewer")
        gtk_widget_set_hexpand(overlay, 1)
        gtk_widget_set_vexpand(overlay, 1)
        gtk_overlay_set_child(overlay.cast(), canvas.widget)
        video = VideoPlayback(over: overlay)
        download = DownloadIndicator(over: overlay)
        chrome = ViewerChrome(over: overlay)

        root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        gtk_widget_set_focusable(root, 1)
        LiveObjects.track(root)
        LiveObjects.track(canvas.widget)
        gtk_box_append(root.cast(), overlay)
        gtk_box_append(root.cast(), properties.root)

        let actions = g_simple_action_group_new()!
        actionGroup = OwnedObject(sharing: OpaquePointer(actions))
        selectAction = OwnedObject(taking: g_simple_action_new_stateful("select", nil, g_variant_new_boolean(0)).cast())
        g_action_map_add_action(actions.cast(), selectAction.pointer.cast())
        g_action_map_add_action(actions.cast(), properties.action.pointer.cast())
        gtk_widget_insert_action_group(root, "viewer", actions.cast())

        images.onChange = { [weak self] id in
            self?.imageChanged(id)
            self?.slideshow?.imageChanged(id)
        }
        images.onDownload = { [weak self] id in
            guard let self, self.current?.id == id else { return }
            self.download.show(self.images.downloads[id])
        }
        download.onRetry = { [weak self] in self?.retryDownload() }
        tiles.onChange = { [weak self] in self?.render() }
        video.onChange = { [weak self] in self?.render() }
        video.onVideoStarted = { [weak self] index, seconds in
            guard let self, let slideshow = self.slideshow, index < self.contents.photos.count else { return }
            // GTK's stream may not know its length at its first frame; the decoder process read it.
            var known = 0
            if case .image(_, let pixels)? = self.thumbnails.cached(self.contents.photos[index].version) {
                known = ((pixels.videoDuration ?? 0) + 999) / 1000
            }
            slideshow.videoStarted(index, seconds: seconds > 0 ? seconds : known)
        }
        video.onVideoEnded = { [weak self] index in self?.slideshow?.videoEnded(index) }
        video.onMotionStopped = { file in Thread.detachNewThread { MotionMovieCopies.remove(file) } }
        canvas.onDrawn = { [weak self] in self?.tiles.drawn() }
        images.onDownloaded = { [weak self] id in
            if let index = self?.contents.photos.index(of: id) { Trace.milestone("download-complete", index) }
        }
        images.onDownloadFailed = { [weak self] id in
            if let index = self?.contents.photos.index(of: id) { Trace.milestone("download-failed", index) }
        }
        contents.observeChanges { [weak self] splice in self?.folderChanged(splice) }
        thumbnailObservations = observe(thumbnails)
        onSignal(canvas.widget, "resize", integers: { [weak self] _, _ in self?.render() })
        onSignal(selectAction.pointer, "change-state", pointer: { [weak self] _ in
            guard let self, let current = self.current else { return }
            self.onToggleSelected(current.id)
            self.showSelectedState()
        })
        properties.onShown = { [weak self] in
            guard let self, let current = self.current else { return }
            self.loadProperties(of: self.contents.photos[current.index])
        }
        ShownMarks.shared.listen(self) { [weak self] uri, marks in self?.marksChanged(uri, marks) }
        installActions(actions)
        installSlideshowActions(actions)
        actions.unref()
        installKeys()
        installGestures()
    }

    // MARK: Showing a photo

    /// Shows the photo at `index`. Entering the viewer loads at once; paging within it waits
    /// until paging settles.
    func show(_ index: Int, entering: Bool = false) {
        guard index >= 0, index < contents.photos.count else { return }
        let photo = contents.photos[index]
        if current?.id == photo.id { return }
        current = (index, photo.id)
        tiles.drop()
        animation.stop()
        // Paging away stops a video; a video paged to plays, muted.
        if photo.isVideo, !photo.isNotFound {
            video.play(photo, index: index, turns: images.images[photo.id]?.videoTurns)
        } else {
            video.stop()
        }
        transform = nil
        gestures.resetForNewPhoto()
        tracedFullImage = nil
        Trace.milestone("page", index)
        // The viewer holds the focus: a screen reader says the photo shown.
        Accessible.setLabel(root, SpokenPhotoName.of(photo, position: (index, contents.photos.count)))
        showPlaceholder(for: photo)
        images.displayBox = ZoomGeometry.fitDecodeBox(viewport: expectedViewportSize, quarterTurns: 0)
        images.paged(to: photo.id, in: contents.photos, immediately: entering)
        onPhotoChanged(photo)
        onRotationChanged()
        motionChanged()
        if properties.isShown { loadProperties(of: photo) }
        render()
    }

    /// Gives keyboard focus to the viewer.
    func focus() { gtk_widget_grab_focus(root) }

    /// Leaves the viewer: drops every image and decode.
    func stop() {
        slideshow?.stop()
        cancelDecode()
        animation.stop()
        video.stop()
        current = nil
        replaced = nil
        transform = nil
        placeholder = nil
        canvas.show([])
        chrome.reset()
    }

    /// Cancels the decodes under way. Touches no widget.
    func cancelDecode() {
        images.stop()
        tiles.drop()
        properties.stopLoading()
        if let thumbnailRequest { thumbnails.release(thumbnailRequest) }
        thumbnailRequest = nil
    }

    func page(by delta: Int) {
        guard let current, contents.photos.count > 0 else { return }
        replaced = nil
        show(min(max(current.index + delta, 0), contents.photos.count - 1))
    }

    private func imageChanged(_ id: String) {
        guard current?.id == id || gestures.slide != 0 else { return }
        if current?.id == id, let turns = images.images[id]?.videoTurns { video.turn(by: turns) }
        if current?.id == id {
            motionChanged()
            animation.play({ [weak self] in self?.current.flatMap { self?.images.images[$0.id] } }) { [weak self] in self?.render() }
        }
        render()
    }

    /// The folder changed under the viewer: follow the shown photo to its new index; when it
    /// left the folder, show the one that took its place (the core's rule); when it was
    /// rewritten on disk, show its new pixels.
    private func folderChanged(_ splice: PhotoList.Splice) {
        guard let current else { return }
        if let index = contents.photos.index(of: current.id) {
            self.current = (index, current.id)
            let photo = contents.photos[index]
            if rotations.listed(photo.version) { rotationGaveWay() }
            if placeholder.map({ $0.key.id == photo.id && $0.key != photo.version }) ?? false {
                showPlaceholder(for: photo)
            }
            if images.followChanges(in: contents.photos, current: photo.id) {
                animation.stop()
                transform = nil
            }
            // A Live Photo's movie may have joined or left it (paired by identifier once read).
            motionChanged()
            render()
        } else if let new = renamed.removeValue(forKey: current.id), let index = contents.photos.index(of: new) {
            rotations.rename(current.id, to: new)
            self.current = nil
            show(index, entering: true)
        } else if let next = NeighbourWindow.replacement(for: current.id, after: splice, in: contents.photos),
                  let index = contents.photos.index(of: next) {
            self.current = nil
            show(index, entering: true)
            replaced = (current.id, next)
        } else {
            onClose()
        }
    }

    /// The rotation of `version` was saved into its file: the view's rotation gives way to
    /// the file's once the album lists the rewritten file (at once, when the folder's monitor
    /// told of it before the save answered).
    func rotationWasSaved(_ version: PhotoVersion) {
        if rotations.saved(version, listed: contents.photos.photo(id: version.id)?.version) {
            rotationGaveWay()
            render()
        }
    }

    private func rotationGaveWay() {
        transform = nil
        onRotationChanged()
    }

    // MARK: Properties

    /// Shows or hides the properties panel (Alt+Enter, the toolbar's and the header bar's button).
    func toggleProperties() { properties.setShown(!properties.isShown) }

    /// Reads the photo's details once paging rests, and shows them if it is still the one shown.
    private func loadProperties(of photo: Photo) {
        let uri = photo.id, companions = photo.companions
        properties.load(uri, jobs: images.jobs) { [weak self] details in
            guard let self, self.current?.id == uri else { return }
            var details = details
            details.companions = companions
            if details.dimensions == nil, let size = self.images.images[uri]?.sourceSize { details.dimensions = size }
            self.shownDetails = (uri, details.rows)
            self.showProperties(uri, marks: ShownMarks.shared.marks(of: uri))
        }
    }

    /// A photo's marks changed (set here or in another window, or read again: another app
    /// wrote its sidecar): the properties panel shows them if they are the shown photo's.
    private func marksChanged(_ uri: String, _ marks: PhotoMarks) {
        guard let shownDetails, shownDetails.uri == uri, current?.id == uri else { return }
        showProperties(uri, marks: marks)
    }

    /// The details read and `marks` in the panel, with `trace properties-marks URI FAVOURITE
    /// STARS TAGS MS` (`GPHOTOBROWSE_TRACE=all`).
    private func showProperties(_ uri: String, marks: PhotoMarks?) {
        guard let shownDetails, shownDetails.uri == uri else { return }
        properties.show(shownDetails.rows + MarksText.rows(marks))
        if Trace.tilesEnabled, let marks {
            Trace.milestone("properties-marks", text: "\(uri) \(marks.favourite ? 1 : 0) \(marks.rating) \(marks.tags.count)")
        }
    }
}

extension PhotoViewer {
    /// Retry under a failed download: a photo on another machine is connected to again first
    /// (the server went away and came back: GVfs unmounted it meanwhile), then loaded again.
    func retryDownload() {
        guard let current else { return }
        let again = { [weak self] in
            guard let self, self.current?.id == current.id else { return }
            self.images.retry(current.id, current: current.id, in: self.contents.photos)
        }
        guard RemoteFileCopies.isRemote(current.id), let window = gtk_widget_get_root(root) else { return again() }
        RemoteMount.mount(current.id, over: window.window) { _ in again() }
    }
}
