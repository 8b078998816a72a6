import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// What is brought onto a board: a photo from a file (Insert Photo…), the clipboard (Paste
/// Photo, Ctrl+V) or dropped on it, which floats until fixed; and a text, typed in a popover
/// where the text tool was clicked.
extension BoardWindow {
    /// The largest photo brought in: twice the board's size is more than the board shows.
    private var insertBox: PixelSize {
        let size = editorBoardSize
        return PixelSize(width: max(1024, size.width * 2), height: max(1024, size.height * 2))
    }

    func chooseInsertedPhoto() {
        let chooser = gtk_file_chooser_native_new(tr("Insert Photo"), window, GTK_FILE_CHOOSER_ACTION_OPEN, tr("_Insert"), tr("_Cancel"))!
        gtk_native_dialog_set_modal(chooser.cast(), 1)
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, tr("Photos"))
        gtk_file_filter_add_mime_type(filter, "image/*")
        gtk_file_chooser_add_filter(chooser.cast(), filter)
        filter.unref()
        LiveObjects.track(chooser)
        onSignal(chooser, "response", integer: { [weak self] response in
            if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser.cast()) {
                let uri = g_file_get_uri(file).map { p in defer { g_free(p) }; return String(cString: p) }
                file.unref()
                if let uri { self?.bringIn(uri) }
            }
            gtk_native_dialog_destroy(chooser.cast())
            chooser.unref()
        })
        gtk_native_dialog_show(chooser.cast())
    }

    /// The photo at `uri`, decoded in a decoder process, floating over the board (centred at
    /// `point`, where it was dropped, or in the view).
    func bringIn(_ uri: String, at point: ViewPoint? = nil) {
        BoardFiles.loadInserted(uri, box: insertBox, jobs: jobs) { [weak self] result in
            self?.float(result, named: (parseName(ofURI: uri) as NSString).lastPathComponent, at: point)
        }
    }

    func pastePhoto() {
        BoardFiles.pasteImage(from: window.widget, box: insertBox, jobs: jobs) { [weak self] result in
            guard let result else { return self?.say(tr("The clipboard holds no image.")) ?? () }
            self?.float(result, named: tr("Pasted image"))
        }
    }

    private func float(_ result: Result<BoardPhoto, DecodeFailure>, named name: String, at point: ViewPoint? = nil) {
        switch result {
        case .success(let photo):
            insertFloating(photo, as: PhotoReference("\(name) \(UUID().uuidString.prefix(8))"), at: point)
            // The keys are the board's now (Enter fixes the photo), not the button's that
            // brought it in (Enter would open the chooser again).
            if let canvas = canvasWidget { gtk_widget_grab_focus(canvas) }
        case .failure(let failure): say(tr("“%1$s” cannot be brought in: %2$s", name, failure.reason))
        }
    }

    /// Photos dropped on the board: the first is brought in.
    func installDrop(on widget: Widget) {
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        onDropAt(target) { [weak self] value, x, y in
            guard let self, cgtk_value_holds(value, gdk_file_list_get_type()) != 0, let list = g_value_get_boxed(value),
                  let first = FolderDrop.uris(of: list.cast()).first else { return false }
            self.bringIn(first, at: self.boardPoint(ofCanvas: x, y))
            return true
        }
        gtk_widget_add_controller(widget, target.eventController)
    }

    /// The text tool's click: a popover asking for the text, added where it was clicked.
    func askText(at x: Double, _ y: Double, _ point: ViewPoint) {
        guard let anchor = canvasWidget else { return }
        let popover = gtk_popover_new()!
        gtk_widget_set_name(popover, "bring-in")
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(entry.cast(), tr("Text"))
        gtk_widget_set_size_request(entry, 240, -1)
        gtk_popover_set_child(popover.cast(), entry)
        gtk_widget_set_parent(popover, anchor)
        var rect = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(popover.cast(), &rect)
        onSignal(entry, "activate") { [weak self] in
            let text = gtk_editable_get_text(entry.cast()).map { String(cString: $0) } ?? ""
            self?.addText(text, at: point)
            gtk_popover_popdown(popover.cast())
        }
        onSignal(popover, "closed") { [popover] in
            whenIdle { gtk_widget_unparent(popover) }
        }
        gtk_popover_popup(popover.cast())
        gtk_widget_grab_focus(entry)
    }
}

/// Save As…: the file chooser (GtkFileChooserNative), named after the original, with a JPEG
/// quality to choose; the format follows the name's extension (.png, .jpg, .webp).
@MainActor
enum BoardSaveAs {
    static func ask(parent: UnsafeMutablePointer<GtkWindow>, original: String?, originalFormat: String?,
                    _ chosen: @escaping @MainActor (_ target: String, _ format: SaveFormat) -> Void) {
        let chooser = gtk_file_chooser_native_new(tr("Save As"), parent, GTK_FILE_CHOOSER_ACTION_SAVE, tr("_Save"), tr("_Cancel"))!
        gtk_native_dialog_set_modal(chooser.cast(), 1)
        let format = SaveFormat.forOriginal(format: originalFormat)
        let base = original.map { (parseName(ofURI: $0) as NSString).lastPathComponent } ?? tr("Drawing")
        let name = MarkedUpName.candidates(for: base, extension: format.fileExtension).first ?? base
        gtk_file_chooser_set_current_name(chooser.cast(), name)
        if let original, !WebAddress.isWebAddress(original), let folder = parentURI(of: original) {
            let file = g_file_new_for_uri(folder)
            gtk_file_chooser_set_current_folder(chooser.cast(), file, nil)
            file?.unref()
        }
        let qualities = ["70", "80", "90", "95", "100"]
        var ids = qualities.map { UnsafePointer(strdup($0)) } + [nil]
        var labels = qualities.map { UnsafePointer(strdup($0 + " %")) } + [nil]
        gtk_file_chooser_add_choice(chooser.cast(), "quality", tr("JPEG quality"), &ids, &labels)
        gtk_file_chooser_set_choice(chooser.cast(), "quality", "90")
        (ids + labels).forEach { free(UnsafeMutablePointer(mutating: $0)) }
        LiveObjects.track(chooser)
        onSignal(chooser, "response", integer: { response in
            defer {
                gtk_native_dialog_destroy(chooser.cast())
                chooser.unref()
            }
            guard response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser.cast()) else { return }
            defer { file.unref() }
            guard let uri = g_file_get_uri(file).map({ p -> String in defer { g_free(p) }; return String(cString: p) }) else { return }
            let quality = gtk_file_chooser_get_choice(chooser.cast(), "quality").flatMap { Int(String(cString: $0)) } ?? SaveFormat.defaultQuality
            var format = SaveFormat.forFileName(uri) ?? .png
            if case .jpeg = format { format = .jpeg(quality: quality) }
            chosen(uri, format)
        })
        gtk_native_dialog_show(chooser.cast())
    }
}
