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
/// Events are gathered for a moment and reported together, so a program touching a
/// thousand files costs a few lookups, not a thousand.
@MainActor
final class CollectionFolders {
    private let live = LiveObjects.Token("CollectionFolders")
    /// The most monitors the albums' pages hold together, in the whole process.
    static let limit = 256

    /// Album photos to look up again (their URIs as the album holds them).
    var onChange: ([String]) -> Void = { _ in }

    /// The album's URIs last followed, as given.
    private var followed: [String] = []
    /// The photos of each folder followed: folder URI → (URI as GIO spells it → URI as the album holds it).
    private var photos: [String: [String: String]] = [:]
    private var monitors: [String: FolderWatch] = [:]
    private var changed = Set<String>()
    private var flushScheduled = false

    /// Follows the folders of these photos (the album's, all of them), and stops following
    /// folders none of them is in any more.
    func follow(_ uris: [String]) {
        guard uris != followed else { return }
        followed = uris
        var byFolder: [String: [String: String]] = [:]
        for uri in uris {
            guard let (folder, spelled) = Self.folderAndSpelling(of: uri) else { continue }
            byFolder[folder, default: [:]][spelled] = uri
        }
        photos = byFolder
        for folder in monitors.keys where byFolder[folder] == nil { stopMonitoring(folder) }
        for folder in byFolder.keys.sorted() where monitors[folder] == nil {
            guard FolderWatch.count < Self.limit else { break }
            monitor(folder)
        }
    }

    /// Stops following every folder (the page or the window goes).
    func cancel() {
        for folder in Array(monitors.keys) { stopMonitoring(folder) }
        followed = []
        photos = [:]
        changed.removeAll()
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
        guard event != G_FILE_MONITOR_EVENT_CHANGED, monitors[folderURI] != nil, let held = photos[folderURI] else { return }
        var affected: [String] = []
        for file in [file, other] {
            guard let file else { continue }
            let uri = Self.uri(of: file)
            if uri == folderURI {
                affected += held.values  // the folder itself went, came back or was unmounted
            } else if let photo = held[uri] {
                affected.append(photo)
            }
        }
        guard !affected.isEmpty else { return }
        changed.formUnion(affected)
        guard !flushScheduled else { return }
        flushScheduled = true
        after(milliseconds: 150) { [weak self] in self?.flush() }
    }

    private func flush() {
        flushScheduled = false
        let uris = changed
        changed.removeAll()
        guard !uris.isEmpty else { return }
        onChange(Array(uris))
    }

    /// The URI of the folder holding `uri`, and `uri` as GIO spells it (as its monitors
    /// report it): an album written by hand or by another program may escape a name
    /// otherwise. Nothing is read from the disk.
    private static func folderAndSpelling(of uri: String) -> (String, String)? {
        guard let file = g_file_new_for_uri(uri) else { return nil }
        defer { file.unref() }
        guard let parent = g_file_get_parent(file) else { return nil }
        defer { parent.unref() }
        return (Self.uri(of: parent), Self.uri(of: file))
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
