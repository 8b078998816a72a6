import CGtk

/// Dropping on the window: a folder opens it; dropped images open their folder at the first.
/// It needs the window's widget to take drops on, and what opens the places dropped.
@MainActor
final class FolderDrop {
    /// Opens what was dropped (the window's opening).
    private let open: @MainActor ([String]) -> Void

    init(on widget: Widget, open: @escaping @MainActor ([String]) -> Void) {
        self.open = open
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        onDrop(target) { [weak self] value in
            guard let self, cgtk_value_holds(value, gdk_file_list_get_type()) != 0,
                  let list = g_value_get_boxed(value) else { return false }
            let uris = Self.uris(of: list.cast())
            guard !uris.isEmpty else { return false }
            self.open(uris)
            return true
        }
        gtk_widget_add_controller(widget, target.eventController)
    }

    /// The URIs of a `GdkFileList` dropped or pasted.
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
}
