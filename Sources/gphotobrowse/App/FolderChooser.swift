import CGtk
import PhotoCore

/// "Open Folder…": GtkFileChooserNative (GTK 4.8 has no GtkFileDialog), which uses the
/// desktop portal when there is one. The chooser lives until the person answers.
@MainActor
enum FolderChooser {
    /// Asks for a folder, starting in the folder at `start` when it is on this computer (the
    /// one opened last); calls `chosen` with an owned GFile reference when one is picked.
    static func ask(parent: UnsafeMutablePointer<GtkWindow>, title: String = tr("Open Folder"), accept: String = tr("_Open"),
                    startingIn start: String? = nil, _ chosen: @escaping @MainActor (OpaquePointer) -> Void) {
        let chooser = gtk_file_chooser_native_new(title, parent, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, accept, tr("_Cancel"))!
        gtk_native_dialog_set_modal(chooser.cast(), 1)
        // Only a local folder: another machine's may need connecting to, which the chooser
        // would do before it shows (a folder gone is the chooser's to say).
        if let start, start.lowercased().hasPrefix("file:") {
            let folder = g_file_new_for_uri(start)
            _ = gtk_file_chooser_set_current_folder(chooser.cast(), folder, nil)
            folder?.unref()
        }
        LiveObjects.track(chooser)
        onSignal(chooser, "response", integer: { response in
            if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser.cast()) {
                chosen(file)
            }
            gtk_native_dialog_destroy(chooser.cast())
            chooser.unref()
        })
        gtk_native_dialog_show(chooser.cast())
    }
}
