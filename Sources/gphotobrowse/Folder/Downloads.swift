import PhotoCore
import PhotoIO

/// The progress of downloads, on the main thread: web photos (`WebPhotoFiles`) and the
/// whole files of photos on other machines (`RemoteFileCopies`), by their URIs; the grid's
/// tiles and the viewer watch those they wait for (at most ten reports a second each).
@MainActor
final class Downloads {
    static let shared = Downloads()
    private var observers: [Int: (String, DownloadProgress) -> Void] = [:]
    private var nextToken = 0

    private init() {
        WebPhotoFiles.shared.observeProgress { url, progress in
            onMain { Downloads.shared.report(url, progress) }
        }
        RemoteFileCopies.shared.observeProgress { uri, progress in
            onMain { Downloads.shared.report(uri, progress) }
        }
    }

    /// Calls `observer` with every download's address and progress until the observation
    /// returned goes.
    func observe(_ observer: @escaping (_ url: String, _ progress: DownloadProgress) -> Void) -> Observation {
        nextToken += 1
        let token = nextToken
        observers[token] = observer
        return Observation { Downloads.shared.observers[token] = nil }
    }

    private func report(_ url: String, _ progress: DownloadProgress) {
        for observer in observers.values { observer(url, progress) }
    }
}
