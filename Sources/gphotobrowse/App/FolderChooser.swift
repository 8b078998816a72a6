import CGtk
import PhotoCore

/// "Open Folder…": GtkFileChooserNative (GTK 4.8 has no GtkFileDialog), which uses the
/// desktop portal when there is one. The chooser lives until the person answers.
@MainActor
enum FolderChooser {
    /// Asks for a folder; calls `chosen` with an owned GFile reference when one is picked.
    static func ask(parent: UnsafeMutablePointer<GtkWindow>, title: String = tr("Open Folder"), accept: String = tr("_Open"),
                    _ chosen: @escaping @MainActor (OpaquePointer) -> Void) {
        let chooser = gtk_file_chooser_native_new(title, parent, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, accept, tr("_Cancel"))!
        gtk_native_dialog_set_modal(chooser.cast(), 1)
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
