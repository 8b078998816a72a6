import CGtk
import Foundation
import PhotoCore

/// Folders in the desktop's recent files (GtkRecentManager, `recently-used.xbel` in
/// `$XDG_DATA_HOME`): each folder opened goes there with the folder's MIME type and this
/// app's name, where file managers and file choosers find it too; the welcome page lists
/// those this app opened.
///
/// GTK reads and writes the file itself, on the main thread, as its file chooser does;
/// whether local folders are still there is asked on a worker.
@MainActor
enum RecentFolders {
    /// The application name the entries are kept under (stable, untranslated).
    private static let application = AppInfo.name
    private static let folderType = "inode/directory"

    /// Adds the folder at `uri`, shown as `name`, or marks it opened now.
    static func add(uri: String, name: String) {
        guard let manager = gtk_recent_manager_get_default() else { return }
        let texts: [String] = [name, folderType, application, "\(application) %u"]
        let strings = texts.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var data = GtkRecentData(display_name: strings[0], description: nil, mime_type: strings[1],
                                 app_name: strings[2], app_exec: strings[3], groups: nil, is_private: 0)
        if gtk_recent_manager_add_full(manager, uri, &data) == 0 { printError("could not add \(uri) to the recent files") }
    }

    /// The folders to list (`RecentFolder.toList`: the newest first, a few, those gone left
    /// out), given to `done` on the main thread.
    static func load(_ done: @escaping @MainActor ([RecentFolder]) -> Void) {
        let candidates = opened()
        // Not a window's job: a few stats of local folders for the welcome page, ending by themselves.
        Thread.detachNewThread {
            let listed = RecentFolder.toList(candidates) { folder in
                // A folder on another machine may need connecting to first: it stays listed.
                guard folder.isLocal else { return true }
                guard let path = g_filename_from_uri(folder.uri, nil, nil) else { return false }
                defer { g_free(path) }
                return g_file_test(path, G_FILE_TEST_IS_DIR) != 0
            }
            onMain { done(listed) }
        }
    }

    /// The folders this app put in the recent files.
    private static func opened() -> [RecentFolder] {
        guard let manager = gtk_recent_manager_get_default() else { return [] }
        let items = gtk_recent_manager_get_items(manager)
        defer { g_list_free_full(items) { gtk_recent_info_unref(OpaquePointer($0)) } }
        var folders: [RecentFolder] = []
        var node = items
        while let current = node {
            node = current.pointee.next
            let info = OpaquePointer(current.pointee.data)
            guard let type = gtk_recent_info_get_mime_type(info), String(cString: type) == folderType,
                  gtk_recent_info_has_application(info, application) != 0,
                  let uri = gtk_recent_info_get_uri(info) else { continue }
            var exec: UnsafePointer<CChar>?, count: UInt32 = 0, stamp: OpaquePointer?
            _ = gtk_recent_info_get_application_info(info, application, &exec, &count, &stamp)
            let name = gtk_recent_info_get_display_name(info).map { String(cString: $0) } ?? ""
            folders.append(RecentFolder(uri: String(cString: uri), name: name, visited: stamp.map { Int64(g_date_time_to_unix($0)) } ?? 0))
        }
        return folders
    }
}
