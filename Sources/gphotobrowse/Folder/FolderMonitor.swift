import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Follows one folder of the opened tree on disk (GFileMonitor): files created, replaced,
/// renamed or deleted by any program, and subfolders created, moved in or out or deleted,
/// reach the albums without a new listing.
///
/// Events are collected for a moment and then looked up together on a worker thread, so
/// a camera import of a thousand files costs a few list updates, not a thousand.
@MainActor
final class FolderMonitor {
    private var monitor: OpaquePointer?
    private var changed = Set<String>()
    private var flushScheduled = false

    /// The folder followed.
    let folder: TreeFolder

    /// Photos that appeared or changed (looked up afresh), paths that went away (photos or
    /// folders), and subfolders that appeared.
    var onUpdate: (_ updated: [Photo], _ removed: Set<String>, _ folders: [TreeFolder]) -> Void = { _, _, _ in }

    init(folder: TreeFolder) {
        self.folder = folder
        let folder = g_file_new_for_uri(folder.uri)
        defer { folder?.unref() }
        guard let monitor = g_file_monitor_directory(folder, G_FILE_MONITOR_WATCH_MOVES, nil, nil) else { return }
        self.monitor = monitor.cast()
        onFileChanged(monitor) { [weak self] file, other, event in self?.changed(file, other, event) }
    }

    /// Stops following the folder.
    func cancel() {
        guard let monitor else { return }
        g_file_monitor_cancel(monitor.cast())
        monitor.unref()
        self.monitor = nil
    }

    private func changed(_ file: OpaquePointer?, _ other: OpaquePointer?, _ event: GFileMonitorEvent) {
        switch event {
        case G_FILE_MONITOR_EVENT_CREATED, G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT, G_FILE_MONITOR_EVENT_DELETED,
             G_FILE_MONITOR_EVENT_MOVED_IN, G_FILE_MONITOR_EVENT_MOVED_OUT, G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
            note(file)
        case G_FILE_MONITOR_EVENT_RENAMED:
            note(file)
            note(other)
        default:
            return  // CHANGED: wait for CHANGES_DONE_HINT, the file is still being written
        }
        guard !flushScheduled else { return }
        flushScheduled = true
        after(milliseconds: 150) { [weak self] in self?.flush() }
    }

    private func note(_ file: OpaquePointer?) {
        guard let file, let uri = g_file_get_uri(file) else { return }
        changed.insert(String(cString: uri))
        g_free(uri)
    }

    private func flush() {
        flushScheduled = false
        let uris = changed
        changed.removeAll()
        guard monitor != nil, !uris.isEmpty else { return }
        let parent = folder
        Thread.detachNewThread { [weak self] in
            var updated: [Photo] = []
            var removed = Set<String>()
            var folders: [TreeFolder] = []
            for uri in uris {
                switch FolderListing.changedEntry(at: uri) {
                case .photo(let photo): updated.append(photo)
                case .folder(let name): folders.append(parent.child(uri: uri, name: name))
                case .nothing: removed.insert(uri)
                }
            }
            onMain { [weak self] in
                guard let self, self.monitor != nil else { return }
                self.onUpdate(updated, removed, folders)
            }
        }
    }
}
