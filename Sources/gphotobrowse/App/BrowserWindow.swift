import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A browser window: a header bar over one of three pages — a status page (welcome, empty
/// or unreadable folder), the thumbnail grid, or the photo viewer.
///
/// The window owns the open folder's contents, its thumbnail loader and both views; opening
/// another folder, or closing the window, cancels the listing and every decode it started.
@MainActor
final class BrowserWindow {
    let window: UnsafeMutablePointer<GtkWindow>
    private let stack: OpaquePointer
    private let backButton: Widget
    private let propertiesButton: Widget
    private let header: Widget
    private let title: WindowTitle
    private let sortMenu: SortMenu
    private let status = StatusPage()
    private let selectButton: Widget
    private let editBar = EditBar()
    private let progress = JobProgress()
    private let toast = Toast()
    private let decoder = IsolatedDecoder.shared
    private var folder: OpenFolder?
    private var pendingResolution = 0
    private var firstFramePainted = false
    /// The photos the open context menu is about.
    private var contextPhotos: [Photo]?

    /// Everything that belongs to the folder being shown.
    private struct OpenFolder {
        let name: String
        let contents: FolderContents
        let loader: ThumbnailLoader
        let grid: ThumbnailGrid
        let viewer: PhotoViewer
        let edit: EditController
        /// A photo to open in the viewer as soon as the listing finds it.
        var target: String?

        /// Cancels the listing and every decode this folder started. Touches no widget, so
        /// it is safe while the window is being destroyed.
        @MainActor func stopWork() {
            edit.cancelJobs()
            contents.cancel()
            loader.cancelAll()
            viewer.cancelDecode()
        }
    }

    /// Called when opening what the command line asked for failed.
    var onOpenFailed: (String) -> Void = { _ in }
    /// Called when the window is gone.
    var onClosed: () -> Void = {}

    init(application: OpaquePointer) {
        window = gtk_application_window_new(application.cast()).window
        gtk_window_set_default_size(window, 1024, 768)
        gtk_window_set_icon_name(window, Application.id)

        header = gtk_header_bar_new()
        backButton = gtk_button_new_from_icon_name("go-previous-symbolic")
        gtk_widget_set_tooltip_text(backButton, "Back to the Folder")
        gtk_actionable_set_action_name(backButton.cast(), "win.back")
        gtk_widget_set_visible(backButton, 0)
        gtk_header_bar_pack_start(header.cast(), backButton)
        let openButton = gtk_button_new_from_icon_name("folder-open-symbolic")!
        gtk_widget_set_tooltip_text(openButton, "Open Folder… (Ctrl+O)")
        gtk_actionable_set_action_name(openButton.cast(), "win.open")
        gtk_header_bar_pack_start(header.cast(), openButton)
        title = WindowTitle(window: window)
        gtk_header_bar_set_title_widget(header.cast(), title.root)
        let mainMenu = g_menu_new()!
        g_menu_append(mainMenu, "About Photo Browser", "app.about")
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(menuButton.cast(), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(menuButton.cast(), mainMenu.cast())
        gtk_widget_set_tooltip_text(menuButton, "Main Menu")
        mainMenu.unref()
        gtk_header_bar_pack_end(header.cast(), menuButton)
        sortMenu = SortMenu(window: window, order: Preferences.shared.settings?.order ?? BrowserSettings().order)
        gtk_header_bar_pack_end(header.cast(), sortMenu.button)
        selectButton = gtk_toggle_button_new()
        gtk_button_set_icon_name(selectButton.cast(), "selection-mode-symbolic")
        gtk_widget_set_tooltip_text(selectButton, "Select Photos")
        gtk_actionable_set_action_name(selectButton.cast(), "win.edit")
        gtk_header_bar_pack_end(header.cast(), selectButton)
        propertiesButton = gtk_button_new_from_icon_name("document-properties-symbolic")
        gtk_widget_set_tooltip_text(propertiesButton, "Properties (Alt+Enter)")
        gtk_actionable_set_action_name(propertiesButton.cast(), "win.properties")
        gtk_widget_set_visible(propertiesButton, 0)
        gtk_header_bar_pack_end(header.cast(), propertiesButton)
        gtk_window_set_titlebar(window, header)

        stack = gtk_stack_new()!.cast()
        gtk_stack_set_transition_type(stack, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_set_transition_duration(stack, 120)
        gtk_stack_add_named(stack, status.root, "status")
        // The pages, then a long job's progress and the edit bar under them; toasts float over all.
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_vexpand(stack.widget, 1)
        for child in [stack.widget, progress.root, editBar.root] { gtk_box_append(column.cast(), child) }
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(overlay.cast(), column)
        gtk_overlay_add_overlay(overlay.cast(), toast.root)
        gtk_window_set_child(window, overlay)

        title.set(title: "Photo Browser")
        sortMenu.onChange = { [weak self] order in self?.sort(by: order) }
        addAction(window, "open") { [weak self] in self?.chooseFolder() }
        addAction(window, "back") { [weak self] in self?.showGrid() }
        addAction(window, "properties") { [weak self] in self?.folder?.viewer.toggleProperties() }
        addAction(window, "edit") { [weak self] in self?.folder?.edit.toggleEditing() }
        addAction(window, "leave-edit") { [weak self] in self?.folder?.edit.leave() }
        addAction(window, "select-all") { [weak self] in self?.folder?.edit.selectAll() }
        addAction(window, "select-none") { [weak self] in self?.folder?.edit.selectNone() }
        addAction(window, "export") { [weak self] in self.map { $0.folder?.edit.export($0.photosToActOn) } }
        addAction(window, "trash") { [weak self] in self.map { $0.folder?.edit.trash($0.photosToActOn) } }
        addAction(window, "delete-permanently") { [weak self] in self.map { $0.folder?.edit.deletePermanently($0.photosToActOn.map(\.id)) } }
        addAction(window, "undo") { [weak self] in self?.folder?.edit.undo() }
        addAction(window, "photo-properties") { [weak self] in
            guard let self, let folder = self.folder, let photo = self.photosToActOn.first,
                  let index = folder.contents.photos.index(of: photo.id) else { return }
            if gtk_stack_get_visible_child(self.stack) != folder.viewer.root { self.showViewer(at: index) }
            folder.viewer.toggleProperties()
        }
        addAction(window, "open-with") { [weak self] in
            guard let self, let photo = self.photosToActOn.first else { return }
            PhotoActions.openWith(photo.id, parent: self.window)
        }
        addAction(window, "show-in-files") { [weak self] in self?.photosToActOn.first.map { PhotoActions.showInFiles($0.id) } }
        addAction(window, "copy") { [weak self] in
            guard let self else { return }
            PhotoActions.copy(self.photosToActOn.map(\.id), from: self.window.widget)
        }
        addAction(window, "save-copy") { [weak self] in
            guard let self, let photo = self.photosToActOn.first else { return }
            PhotoActions.saveCopy(of: photo, parent: self.window, toast: self.toast)
        }
        installDropTarget()
        traceFirstFrame()
        onSignal(window, "destroy") { [weak self] in
            self?.folder?.stopWork()
            self?.folder = nil
            self?.onClosed()
        }
    }

    func present() { gtk_window_present(window) }

    // MARK: Opening

    /// Shows the welcome page (no folder to open).
    func showWelcome() {
        status.show(icon: "folder-pictures-symbolic", title: "Welcome to Photo Browser",
                    details: "Open a folder to see its photos, or drop a folder on this window.", offerOpen: true)
        gtk_stack_set_visible_child_name(stack, "status")
    }

    /// Opens what `uris` name: a folder as a grid, or image files in the viewer within their
    /// folder (the first of them shown). Looking them up happens on a worker thread.
    func open(uris: [String], fromCommandLine: Bool = false) {
        guard let first = uris.first else { return }
        // Decoder processes start while the location is looked up and listed.
        decoder.prestart()
        pendingResolution += 1
        let generation = pendingResolution
        Thread.detachNewThread { [weak self] in
            let location = Location.resolve(uri: first)
            onMain {
                guard let self, self.pendingResolution == generation else { return }
                self.open(location, fromCommandLine: fromCommandLine)
            }
        }
    }

    /// Opens the first of `uris` that is a folder, or shows the welcome page.
    func openFirstFolder(_ uris: [String]) {
        pendingResolution += 1
        let generation = pendingResolution
        Thread.detachNewThread { [weak self] in
            let folder = uris.lazy.map(Location.resolve).first { if case .folder = $0 { true } else { false } }
            onMain {
                guard let self, self.pendingResolution == generation else { return }
                if let folder { self.open(folder, fromCommandLine: false) } else { self.showWelcome() }
            }
        }
    }

    private func open(_ location: Location, fromCommandLine: Bool) {
        switch location {
        case .folder(let uri, let name):
            Preferences.shared.whenLoaded { [weak self] settings in
                self?.openFolder(uri: uri, name: name, target: nil, order: settings.order)
            }
        case .file(let uri, let folderURI, let folderName):
            Preferences.shared.whenLoaded { [weak self] settings in
                self?.openFolder(uri: folderURI, name: folderName, target: uri, order: settings.order)
            }
        case .unavailable(let message):
            showError(message)
            if fromCommandLine { onOpenFailed(message) }
        }
    }

    private func openFolder(uri: String, name: String, target: String?, order: PhotoOrder) {
        closeFolder()
        sortMenu.show(order)
        let contents = FolderContents(uri: uri, order: order)
        let scale = Int(gtk_widget_get_scale_factor(window.widget))
        let loader = ThumbnailLoader(size: .for(edge: ThumbnailGrid.tileEdge * scale))
        let grid = ThumbnailGrid(contents: contents, loader: loader)
        let viewer = PhotoViewer(contents: contents, thumbnails: loader, decoder: decoder)
        let edit = EditController(window: window, contents: contents, grid: grid, bar: editBar, progress: progress, toast: toast)
        edit.onEditingChanged = { [weak self] editing in
            guard let self else { return }
            gtk_toggle_button_set_active(self.selectButton.cast(), editing ? 1 : 0)
        }
        viewer.isEditing = { [weak edit] in edit?.isEditing ?? false }
        viewer.onToggleSelected = { [weak edit] id in edit?.toggle(id) }
        viewer.isSelected = { [weak edit] id in edit?.selection.isSelected(id) ?? false }
        folder = OpenFolder(name: name, contents: contents, loader: loader, grid: grid, viewer: viewer, edit: edit, target: target)
        installGridKeys(grid)
        grid.urisToDrag = { [weak edit] id in
            guard let edit, edit.isEditing, edit.selection.isSelected(id) else { return [id] }
            return edit.chosen.map(\.id)
        }
        grid.onContextMenu = { [weak self, weak grid, weak edit] id, x, y in
            guard let self, let grid, let edit, let id, let photo = self.folder?.contents.photos.photo(id: id) else { return }
            self.contextPhotos = edit.isEditing && edit.selection.isSelected(id) ? edit.chosen : [photo]
            self.popUpMenu(inViewer: false, on: grid.menuAnchor, x: x, y: y)
        }
        viewer.onContextMenu = { [weak self, weak viewer] x, y in
            guard let self, let viewer, let index = viewer.index, let photo = self.folder?.contents.photos[index] else { return }
            self.contextPhotos = [photo]
            self.popUpMenu(inViewer: true, on: viewer.menuAnchor, x: x, y: y)
        }

        gtk_stack_add_named(stack, grid.root, "grid")
        gtk_stack_add_named(stack, viewer.root, "viewer")
        grid.onActivate = { [weak self] index in self?.showViewer(at: index) }
        viewer.onClose = { [weak self] in self?.showGrid() }
        viewer.onPhotoChanged = { [weak self] photo in self?.title.set(title: photo.displayName) }
        viewer.onChromeVisibility = { [weak self] visible in self.map { gtk_widget_set_visible($0.header, visible ? 1 : 0) } }
        viewer.onFullscreen = { [weak self] on in
            guard let self else { return }
            if on { gtk_window_fullscreen(self.window) } else { gtk_window_unfullscreen(self.window) }
        }
        contents.observeChanges { [weak self] _ in
            self?.openTargetIfListed()
            self?.updateSubtitle()
        }
        contents.onListed = { [weak self] result in self?.listed(result) }
        contents.onDateProgress = { [weak self] progress in self?.updateSubtitle(dates: progress) }

        title.set(title: name)
        gtk_stack_set_visible_child_name(stack, target == nil ? "grid" : "viewer")
        if target == nil { grid.focus() }
        contents.start()
    }

    /// Opens the viewer on the file asked for once the listing has found it.
    private func openTargetIfListed() {
        guard let target = folder?.target, let index = folder?.contents.photos.index(of: target) else { return }
        folder?.target = nil
        showViewer(at: index)
    }

    private func listed(_ result: Result<Int, FolderError>) {
        guard let folder else { return }
        switch result {
        case .success(let count):
            Trace.milestone("enumerated", count)
            updateSubtitle()
            if let target = folder.target {
                self.folder?.target = nil
                // The file was not an image this browser shows: show its folder.
                if Trace.isEnabled { printError("not an image that can be shown: \(target)") }
                showGrid()
            }
            if count == 0 {
                status.show(icon: "folder-pictures-symbolic", title: "No Photos",
                            details: "“\(folder.name)” has no images in it.", offerOpen: true)
                gtk_stack_set_visible_child_name(stack, "status")
                Trace.milestone("visible-thumbnails", 0)
            }
        case .failure(let error):
            closeFolder()
            showError(error.message)
            onOpenFailed(error.message)
        }
    }

    /// What Delete, Export… and Shift+Delete act on: the photos a context menu was opened
    /// for, else the photo shown in the viewer, else the photos selected in edit mode.
    private var photosToActOn: [Photo] {
        guard let folder else { return [] }
        if let contextPhotos { return contextPhotos }
        if gtk_stack_get_visible_child(stack) == folder.viewer.root, let index = folder.viewer.index {
            return [folder.contents.photos[index]]
        }
        return folder.edit.isEditing ? folder.edit.chosen : []
    }

    private func popUpMenu(inViewer: Bool, on widget: Widget, x: Double, y: Double) {
        let menu = PhotoActions.menu(inViewer: inViewer)
        PhotoActions.popUp(menu, on: widget, x: x, y: y) { [weak self] in
            // The chosen item's action runs before the menu says it closed; then forget.
            after(milliseconds: 100) { self?.contextPhotos = nil }
        }
        menu.unref()
    }

    /// Edit mode's keys in the grid, before the grid view's own bindings (which would
    /// select in GTK's model rather than ours).
    private func installGridKeys(_ grid: ThumbnailGrid) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] keyval, state in
            guard let self, let folder = self.folder else { return false }
            let control = state.rawValue & GDK_CONTROL_MASK.rawValue != 0, shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
            switch Int32(keyval) {
            case GDK_KEY_a where control && !shift, GDK_KEY_A where control && !shift: folder.edit.selectAll()
            case GDK_KEY_a where control && shift, GDK_KEY_A where control && shift: folder.edit.selectNone()
            case GDK_KEY_Escape where folder.edit.isEditing: folder.edit.leave()
            default: return false
            }
            return true
        }
        gtk_widget_add_controller(grid.root, keys)
    }

    /// The grid's second title line: how many photos, or how far a long job has come.
    private func updateSubtitle(dates progress: DateTakenReader.Progress? = nil) {
        guard let folder, gtk_stack_get_visible_child(stack) == folder.grid.root else { return }
        if let progress, progress.total > 0 {
            title.setSubtitle("Reading dates… \(progress.done * 100 / progress.total)%")
            return
        }
        let count = folder.contents.photos.count
        let photos = count == 1 ? "1 photo" : "\(count.formatted()) photos"
        title.setSubtitle(folder.contents.isListed ? photos : "Listing… \(photos)")
    }

    private func sort(by order: PhotoOrder) {
        Preferences.shared.update { $0.order = order }
        folder?.contents.sort(by: order)
    }

    private func showError(_ message: String) {
        printError(message)
        status.show(icon: "dialog-error-symbolic", title: "Cannot Open Folder", details: message, offerOpen: true)
        gtk_stack_set_visible_child_name(stack, "status")
    }

    private func closeFolder() {
        guard let old = folder else { return }
        folder = nil
        old.stopWork()
        old.viewer.stop()
        gtk_stack_remove(stack, old.grid.root)
        gtk_stack_remove(stack, old.viewer.root)
    }

    // MARK: Pages

    private func showViewer(at index: Int) {
        guard let folder else { return }
        gtk_stack_set_visible_child_name(stack, "viewer")
        gtk_widget_set_visible(backButton, 1)
        gtk_widget_set_visible(sortMenu.button, 0)
        gtk_widget_set_visible(selectButton, 0)
        gtk_widget_set_visible(propertiesButton, 1)
        editBar.show(false)
        folder.viewer.show(index, entering: true)
        folder.viewer.focus()
    }

    private func showGrid() {
        guard let folder else { return }
        let last = folder.viewer.index
        folder.viewer.stop()
        gtk_widget_set_visible(backButton, 0)
        gtk_widget_set_visible(sortMenu.button, 1)
        gtk_widget_set_visible(selectButton, 1)
        gtk_widget_set_visible(propertiesButton, 0)
        editBar.show(folder.edit.isEditing)
        title.set(title: folder.name)
        gtk_stack_set_visible_child_name(stack, "grid")
        updateSubtitle()
        if let last { folder.grid.reveal(last) } else { folder.grid.focus() }
    }

    private func chooseFolder() {
        FolderChooser.ask(parent: window) { [weak self] file in
            let uri = g_file_get_uri(file).map { p -> String in defer { g_free(p) }; return String(cString: p) }
            file.unref()
            if let uri { self?.open(uris: [uri]) }
        }
    }

    // MARK: Drag and drop

    /// A folder dropped on the window opens it; dropped images open their folder at the first.
    private func installDropTarget() {
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        onDrop(target) { [weak self] value in
            guard let self, cgtk_value_holds(value, gdk_file_list_get_type()) != 0,
                  let list = g_value_get_boxed(value) else { return false }
            let uris = Self.uris(of: list.cast())
            guard !uris.isEmpty else { return false }
            self.open(uris: uris)
            return true
        }
        gtk_widget_add_controller(window.widget, target.eventController)
    }

    static func uris(of fileList: OpaquePointer) -> [String] {
        var uris: [String] = []
        let files = gdk_file_list_get_files(fileList)
        var node = files
        while let current = node {
            if let uri = g_file_get_uri(current.pointee.data.cast()) {
                uris.append(String(cString: uri))
                g_free(uri)
            }
            node = current.pointee.next
        }
        g_slist_free(files)
        return uris
    }

    // MARK: Tracing

    private func traceFirstFrame() {
        guard Trace.isEnabled else { return }
        onSignal(window, "realize") { [weak self] in
            guard let self, let clock = gtk_widget_get_frame_clock(self.window.widget) else { return }
            onSignal(clock, "after-paint") { [weak self] in
                guard let self, !self.firstFramePainted else { return }
                self.firstFramePainted = true
                Trace.milestone("first-frame")
            }
        }
    }
}
