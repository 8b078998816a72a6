import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A drawing board in a window of its own (as Satty and Drawing have it): a photo to mark up
/// ("Mark Up" in the viewer, `gphotobrowse --draw FILE`) or a blank board (`--draw`). The
/// header has Undo, Redo and Save (a new file beside the photo); its menu Save As…, Copy,
/// Insert Photo…, Paste Photo, Clear. Closing with unsaved marks asks first.
///
/// Traces: `board-ready WIDTH HEIGHT MS` once the board shows, `saved PATH MS` for each save.
@MainActor
final class BoardWindow {
    private let live = LiveObjects.Token("BoardWindow")
    let window: UnsafeMutablePointer<GtkWindow>
    /// The work the window started off the main thread, cancelled when it closes.
    let jobs = WindowJobs()
    private let title = adw_window_title_new(tr("Mark Up"), "")!
    private let toasts = Toasts()
    private let stack: Widget
    private let status = adw_status_page_new()!
    /// The photo marked up (a URI), nil for a blank board; and its format.
    private let original: String?
    private var originalFormat: String?
    private var editor: BoardEditor?
    private var canvas: BoardCanvas?
    private var toolbar: BoardToolbar?
    private var input: BoardInput?
    private var closing = false
    /// The header's buttons that show only on the board itself.
    private var buttons: [BoardButton: Widget] = [:]
    private var shown = BoardState.Page.opening

    /// Opens a board on the photo at `uri`, or a blank one of `blank` pixels.
    @discardableResult
    static func open(photo uri: String?, blank: PixelSize = DrawOptions.defaultSize, application: OpaquePointer) -> BoardWindow {
        let board = BoardWindow(original: uri, application: application)
        if let uri {
            BoardFiles.load(uri, jobs: board.jobs) { [weak board] result in
                switch result {
                case .success(let (photo, format)):
                    board?.originalFormat = format
                    board?.show(Board(photoSize: photo.size), images: BoardImages(photo: photo))
                case .failure(let failure):
                    board?.showProblem(failure.reason)
                }
            }
        } else {
            board.show(Board(blank: blank), images: BoardImages())
        }
        return board
    }

    private init(original: String?, application: OpaquePointer) {
        self.original = original
        window = adw_application_window_new(application.cast()).window
        gtk_window_set_default_size(window, 1200, 860)
        gtk_window_set_icon_name(window, Application.id)
        let name = original.map { WebAddress.isWebAddress($0) ? WebAlbumWalk.displayName(of: $0) : parseName(ofURI: $0) } ?? tr("New Drawing")
        Texts.setSubtitle(windowTitle: title, ShownText(OutsideText((name as NSString).lastPathComponent)))
        Texts.setTitle(window: window, ShownText(tr("Mark Up") + " — " + OutsideText((name as NSString).lastPathComponent).standalone))

        let header = adw_header_bar_new()!
        adw_header_bar_set_title_widget(header.cast(), title)
        for (icon, tooltip, action) in [("edit-undo-symbolic", tr("Undo (Ctrl+Z)"), "win.undo"), ("edit-redo-symbolic", tr("Redo (Ctrl+Shift+Z)"), "win.redo")] {
            let button = gtk_button_new_from_icon_name(icon)!
            Accessible.name(button, tooltip: tooltip)
            gtk_actionable_set_action_name(button.cast(), action)
            adw_header_bar_pack_start(header.cast(), button)
            buttons[action == "win.undo" ? .undo : .redo] = button
        }
        let menu = g_menu_new()!
        for (label, action) in [(tr("Save _As…"), "win.save-as"), (tr("_Copy"), "win.copy-image"), (tr("_Insert Photo…"), "win.insert-photo"),
                                (tr("_Paste Photo"), "win.paste-photo"), (tr("C_lear"), "win.clear")] {
            g_menu_append(menu, label, action)
        }
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(menuButton.cast(), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(menuButton.cast(), menu.cast())
        Accessible.name(menuButton, tooltip: tr("Main Menu"))
        menu.unref()
        adw_header_bar_pack_end(header.cast(), menuButton)
        buttons[.menu] = menuButton
        // No access key on a header bar's button (Ctrl+S is its key): a translation's key in
        // parentheses would show ("保存(S)").
        let save = gtk_button_new_with_label(AccessKey.removed(from: tr("_Save")))!
        gtk_widget_add_css_class(save, "suggested-action")
        Accessible.name(save, tooltip: tr("Save a Marked-Up Copy (Ctrl+S)"))
        gtk_actionable_set_action_name(save.cast(), "win.save")
        adw_header_bar_pack_end(header.cast(), save)
        buttons[.save] = save

        stack = gtk_stack_new()
        gtk_widget_set_vexpand(stack, 1)
        adw_status_page_set_icon_name(status.cast(), "image-loading-symbolic")
        Texts.setTitle(statusPage: status, ShownText(tr("Opening the Photo…")))
        gtk_stack_add_named(stack.cast(), status, "status")
        toasts.setChild(stack)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(content.cast(), header)
        gtk_box_append(content.cast(), toasts.root)
        adw_application_window_set_content(window.cast(), content)
        installActions()
        applyPolicy(BoardState(page: shown), buttons: buttons)
        onCloseRequest(window) { [weak self] in self?.askBeforeClosing() ?? false }
        onSignal(window, "destroy") { [weak self] in self?.jobs.cancelAll() }
        // The window keeps its board: they go together.
        ObjectData.attach(self, to: window, key: "gphotobrowse-board")
        gtk_window_present(window)
    }

    // MARK: Showing

    private func show(_ board: Board, images: BoardImages) {
        let editor = BoardEditor(board: board, images: images, viewport: ViewSize(width: 1, height: 1))
        let canvas = BoardCanvas(editor: editor)
        let toolbar = BoardToolbar(editor: editor)
        let input = BoardInput(editor: editor, canvas: canvas, window: window.widget)
        input.onTextAsked = { [weak self] x, y, point in self?.askText(at: x, y, point) }
        editor.onChange = { [weak self] in self?.changed() }
        (self.editor, self.canvas, self.toolbar, self.input) = (editor, canvas, toolbar, input)
        let page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(page.cast(), canvas.root)
        gtk_box_append(page.cast(), toolbar.root)
        gtk_stack_add_named(stack.cast(), page, "board")
        gtk_stack_set_visible_child_name(stack.cast(), "board")
        shown = .board
        installDrop(on: canvas.root)
        gtk_widget_grab_focus(canvas.root)
        changed()
        Trace.milestone("board-ready", board.size.width, board.size.height)
    }

    private func showProblem(_ message: String) {
        adw_status_page_set_icon_name(status.cast(), "dialog-error-symbolic")
        Texts.setTitle(statusPage: status, ShownText(tr("Cannot Open the Photo")))
        Texts.setDescription(statusPage: status, ShownText(message))
        shown = .problem
        applyPolicy(BoardState(page: shown), buttons: buttons)
        printError(message)
    }

    /// The board changed: redraw, and update Undo, Redo and the title.
    private func changed() {
        guard let editor else { return }
        canvas?.redraw()
        toolbar?.show()
        applyPolicy(BoardState(page: shown, canUndo: editor.board.canUndo, canRedo: editor.board.canRedo), buttons: buttons)
        Texts.setTitle(windowTitle: title, ShownText(editor.board.hasUnsavedChanges ? tr("Mark Up") + " •" : tr("Mark Up")))
    }

    // MARK: Actions

    private func installActions() {
        addAction(window, "undo") { [weak self] in self?.editor?.undo() }
        addAction(window, "redo") { [weak self] in self?.editor?.redo() }
        addAction(window, "clear") { [weak self] in self?.editor?.clear() }
        addAction(window, "save") { [weak self] in self?.save() }
        addAction(window, "save-as") { [weak self] in self?.saveAs() }
        addAction(window, "copy-image") { [weak self] in self?.copyImage() }
        addAction(window, "insert-photo") { [weak self] in self?.chooseInsertedPhoto() }
        addAction(window, "paste-photo") { [weak self] in self?.pastePhoto() }
    }

    private func save(thenClose: Bool = false) {
        guard let editor else { return }
        // A photo still floating is saved where it floats.
        editor.fixFloating()
        BoardFiles.save(editor.board, images: editor.images, original: original, originalFormat: originalFormat, jobs: jobs) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let uri):
                let path = self.recordSaved(uri)
                if thenClose { return gtk_window_destroy(self.window) }
                self.announceSaved(uri, as: (path as NSString).lastPathComponent)
            case .failure(let failure):
                self.toasts.show(tr("Could not save: %s", failure.message))
            }
        }
    }

    private func saveAs() {
        guard editor != nil else { return }
        BoardSaveAs.ask(parent: window, original: original, originalFormat: originalFormat) { [weak self] target, format in
            guard let self, let editor = self.editor else { return }
            editor.fixFloating()
            BoardFiles.save(editor.board, images: editor.images, original: self.original, to: target, format: format, jobs: self.jobs) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let uri):
                    _ = self.recordSaved(uri)
                    self.announceSaved(uri, as: parseName(ofURI: uri))
                case .failure(let failure):
                    self.toasts.show(tr("Could not save: %s", failure.message))
                }
            }
        }
    }

    /// A save done: the board has no unsaved marks, and the trace says where it went.
    /// Returns the file's path (its URI when it has none).
    private func recordSaved(_ uri: String) -> String {
        editor?.markSaved()
        let path = g_filename_from_uri(uri, nil, nil).map { p in defer { g_free(p) }; return String(cString: p) } ?? uri
        Trace.milestone("saved", text: path)
        return path
    }

    private func announceSaved(_ uri: String, as name: String) {
        toasts.show(tr("Saved as “%s”", OutsideText(name)), actionLabel: tr("Show in Files")) { PhotoActions.showInFiles(uri) }
    }

    private func copyImage() {
        guard let editor else { return }
        BoardFiles.encodePNG(editor.board, images: editor.images, jobs: jobs) { [weak self] png in
            guard let self, let png else { return }
            let bytes = png.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            let provider = gdk_content_provider_new_for_bytes("image/png", bytes)
            g_bytes_unref(bytes)
            gdk_clipboard_set_content(gtk_widget_get_clipboard(self.window.widget), provider)
            provider?.unref()
            self.toasts.show(tr("Copied"))
        }
    }

    // MARK: For what is brought in

    var editorBoardSize: PixelSize { editor?.board.size ?? PixelSize(width: 1024, height: 1024) }
    var canvasWidget: Widget? { canvas?.root }
    func boardPoint(ofCanvas x: Double, _ y: Double) -> ViewPoint? { canvas?.boardPoint(x, y) }
    func say(_ message: String) { toasts.show(message) }
    func insertFloating(_ photo: BoardPhoto, as reference: PhotoReference, at point: ViewPoint?) { editor?.insert(photo, as: reference, at: point) }
    func addText(_ text: String, at point: ViewPoint) { editor?.addText(text, at: point) }

    /// Closing with marks not saved: Save, Discard or Cancel. True keeps the window open.
    private func askBeforeClosing() -> Bool {
        guard !closing, let editor, editor.board.hasUnsavedChanges else { return false }
        let dialog = Texts.messageDialog(
            window, heading: ShownText(tr("Save the Marked-Up Copy?")), body: ShownText(tr("The marks are lost if the board is closed without saving.")))
        LiveObjects.track(dialog)
        adw_message_dialog_add_response(dialog, "cancel", tr("_Cancel"))
        adw_message_dialog_add_response(dialog, "discard", tr("_Discard"))
        adw_message_dialog_add_response(dialog, "save", tr("_Save"))
        adw_message_dialog_set_response_appearance(dialog, "discard", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_response_appearance(dialog, "save", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(dialog, "save")
        adw_message_dialog_set_close_response(dialog, "cancel")
        onSignal(dialog, "response", string: { [weak self] response in
            guard let self else { return }
            switch response {
            case "discard":
                self.closing = true
                gtk_window_destroy(self.window)
            case "save": self.save(thenClose: true)
            default: break
            }
        })
        gtk_window_present(dialog.window)
        return true
    }
}
