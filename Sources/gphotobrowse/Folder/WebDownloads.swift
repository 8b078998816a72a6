import PhotoCore
import PhotoIO

/// The progress of web downloads, on the main thread: the grid's tiles and the viewer watch
/// the addresses they wait for. Fed by `WebPhotoFiles` (at most ten reports a second per
/// download).
@MainActor
final class WebDownloads {
    static let shared = WebDownloads()
    private var observers: [Int: (String, DownloadProgress) -> Void] = [:]
    private var nextToken = 0

    private init() {
        WebPhotoFiles.shared.observeProgress { url, progress in
            onMain { WebDownloads.shared.report(url, progress) }
        }
    }

    /// Calls `observer` with every download's address and progress until `stop(token)`.
    func observe(_ observer: @escaping (_ url: String, _ progress: DownloadProgress) -> Void) -> Int {
        nextToken += 1
        observers[nextToken] = observer
        return nextToken
    }

    func stop(_ token: Int) { observers[token] = nil }

    private func report(_ url: String, _ progress: DownloadProgress) {
        for observer in observers.values { observer(url, progress) }
    }
}
