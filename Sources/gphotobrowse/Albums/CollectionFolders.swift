import CGtk
import PhotoCore
import Synchronization

/// The folders holding the photos of an album of the person's own, followed on disk
/// (GFileMonitor) while a page of the album exists: a photo moved, renamed or deleted by
/// another program, or one that comes back, is reported so that its page follows at once.
///
/// One monitor per distinct folder, at most `limit` in the whole process (the folders past
/// it are not followed: their photos are looked up again when the page is shown again).
/// A monitor follows its folder even while the folder itself is gone (GIO watches for it
/// to come back): a folder deleted, moved away or brought back reports all its album photos.
/// Events are gathered for a moment (`ChangeBatch`) and reported together, so a program
/// touching a thousand files costs a few lookups, not a thousand. Which folders to follow and
/// which photos an event concerns is the core's `FollowedFolders`; this holds the monitors.
@MainActor
final class CollectionFolders {
    private let live = LiveObjects.Token("CollectionFolders")
    /// The most monitors the albums' pages hold together, in the whole process.
    static let limit = 256

    /// Album photos to look up again (their URIs as the album holds them).
    var onChange: ([String]) -> Void = { _ in }

    /// Which folders are followed, and which photos their events concern.
    private var folders = FollowedFolders()
    private var monitors: [String: FolderWatch] = [:]
    private var changes = ChangeBatch<String>()

    /// Follows the folders of these photos (the album's, all of them), and stops following
    /// folders none of them is in any more.
    func follow(_ uris: [String]) {
        guard !folders.isFollowing(uris) else { return }
        let plan = folders.follow(uris, located: uris.compactMap(Self.locate), monitored: Set(monitors.keys))
        for folder in plan.stop { stopMonitoring(folder) }
        for folder in plan.start {
            guard FolderWatch.count < Self.limit else { break }
            monitor(folder)
        }
    }

    /// Stops following every folder (the page or the window goes).
    func cancel() {
        for folder in Array(monitors.keys) { stopMonitoring(folder) }
        folders.clear()
        changes.clear()
    }

    private func monitor(_ folderURI: String) {
        let folder = g_file_new_for_uri(folderURI)
        defer { folder?.unref() }
        guard let watched = g_file_monitor_directory(folder, G_FILE_MONITOR_WATCH_MOVES, nil, nil) else { return }
        let watch = FolderWatch(OwnedObject(taking: watched.opaque))
        monitors[folderURI] = watch
        onFileChanged(watch.monitor.pointer) { [weak self] file, other, event in
            self?.changed(in: folderURI, file, other, event)
        }
    }

    private func stopMonitoring(_ folderURI: String) {
        guard let watch = monitors.removeValue(forKey: folderURI) else { return }
        g_file_monitor_cancel(watch.monitor.pointer.cast())
    }

    private func changed(in folderURI: String, _ file: OpaquePointer?, _ other: OpaquePointer?, _ event: GFileMonitorEvent) {
        // CHANGED: the file is still being written; CHANGES_DONE_HINT follows.
        guard event != G_FILE_MONITOR_EVENT_CHANGED, monitors[folderURI] != nil else { return }
        let files = [file, other].compactMap { $0.map(Self.uri(of:)) }
        guard changes.add(folders.affected(in: folderURI, files: files)) else { return }
        after(milliseconds: 150) { [weak self] in self?.flush() }
    }

    private func flush() {
        let uris = changes.take()
        guard !uris.isEmpty else { return }
        onChange(Array(uris))
    }

    /// The photo at `uri` with the URI of its folder and `uri` as GIO spells it (as its
    /// monitors report it): an album written by hand or by another program may escape a name
    /// otherwise. Nothing is read from the disk.
    private static func locate(_ uri: String) -> FollowedFolders.Located? {
        guard let file = g_file_new_for_uri(uri) else { return nil }
        defer { file.unref() }
        guard let parent = g_file_get_parent(file) else { return nil }
        defer { parent.unref() }
        return FollowedFolders.Located(uri: uri, folder: Self.uri(of: parent), spelled: Self.uri(of: file))
    }

    private static func uri(of file: OpaquePointer) -> String {
        guard let uri = g_file_get_uri(file) else { return "" }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}

/// One folder's monitor, counted against `CollectionFolders.limit` while it lives.
private final class FolderWatch {
    private static let live = Mutex(0)
    static var count: Int { live.withLock { $0 } }
    let monitor: OwnedObject<OpaquePointer>

    init(_ monitor: OwnedObject<OpaquePointer>) {
        self.monitor = monitor
        Self.live.withLock { $0 += 1 }
    }

    deinit { Self.live.withLock { $0 -= 1 } }
}
