import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Follows one folder of the opened tree on disk (GFileMonitor): files created, replaced,
/// renamed or deleted by any program, and subfolders created, moved in or out or deleted,
/// reach the albums without a new listing.
///
/// Events are collected for a moment (`ChangeBatch`; which files an event names: the core's
/// `FolderEvent`) and then looked up together as a job of the window on its look-up
/// workers (`FolderUpdate`), so a camera import of a thousand files costs a few list
/// updates, not a thousand. Stopping the monitor, or leaving the folder, cancels the look-up.
@MainActor
final class FolderMonitor {
    private var monitor: OpaquePointer?
    private var changes = ChangeBatch<String>()

    /// The folder followed.
    let folder: TreeFolder

    /// Photos that appeared or changed (looked up afresh), paths that went away (photos or
    /// folders), and subfolders that appeared.
    var onUpdate: (FolderUpdate) -> Void = { _ in }

    /// The window's jobs, which the look-ups belong to.
    private let jobs: WindowJobs
    /// Cancelled when the monitor stops: its look-ups under way with it.
    private let stopped = CancellationFlag()

    init(folder: TreeFolder, jobs: WindowJobs) {
        self.folder = folder
        self.jobs = jobs
        let folder = g_file_new_for_uri(folder.uri)
        defer { folder?.unref() }
        guard let monitor = g_file_monitor_directory(folder, G_FILE_MONITOR_WATCH_MOVES, nil, nil) else { return }
        self.monitor = monitor.cast()
        onFileChanged(monitor) { [weak self] file, other, event in self?.changed(file, other, event) }
    }

    /// Stops following the folder.
    func cancel() {
        stopped.cancel()
        guard let monitor else { return }
        g_file_monitor_cancel(monitor.cast())
        monitor.unref()
        self.monitor = nil
    }

    private func changed(_ file: OpaquePointer?, _ other: OpaquePointer?, _ event: GFileMonitorEvent) {
        let files = FolderEvent(event).filesToLookUp(file: file.flatMap(Self.uri(of:)), other: other.flatMap(Self.uri(of:)))
        guard changes.add(files) else { return }
        after(milliseconds: 150) { [weak self] in self?.flush() }
    }

    nonisolated static func uri(of file: OpaquePointer) -> String? {
        guard let uri = g_file_get_uri(file) else { return nil }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    private func flush() {
        let uris = changes.take()
        guard monitor != nil, !uris.isEmpty else { return }
        let parent = folder
        let owner = MainThreadOwner(self)
        jobs.lookUp(parent.uri, within: stopped) { flag in
            var entries: [(uri: String, entry: FolderListing.ChangedEntry)] = []
            for uri in uris {
                guard !flag.isCancelled else { return }
                entries.append((uri: uri, entry: FolderListing.changedEntry(at: uri, cancellation: flag)))
            }
            guard !flag.isCancelled else { return }
            let update = FolderUpdate(parent: parent, entries: entries)
            owner.onMain { monitor in
                guard monitor.monitor != nil else { return }
                monitor.onUpdate(update)
            }
        }
    }
}

extension FolderEvent {
    /// GIO's event as the core names it.
    init(_ event: GFileMonitorEvent) {
        switch event {
        case G_FILE_MONITOR_EVENT_CREATED: self = .created
        case G_FILE_MONITOR_EVENT_CHANGED: self = .changed
        case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT: self = .changesDone
        case G_FILE_MONITOR_EVENT_DELETED: self = .deleted
        case G_FILE_MONITOR_EVENT_MOVED_IN: self = .movedIn
        case G_FILE_MONITOR_EVENT_MOVED_OUT: self = .movedOut
        case G_FILE_MONITOR_EVENT_RENAMED: self = .renamed
        case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED: self = .attributeChanged
        case G_FILE_MONITOR_EVENT_PRE_UNMOUNT: self = .preUnmount
        case G_FILE_MONITOR_EVENT_UNMOUNTED: self = .unmounted
        default: self = .other
        }
    }
}
