import CGdkPixbuf
import Foundation
import PhotoCore
import Synchronization

/// A web album read as a tree: its list downloaded (revalidated against the cache, or the
/// cached copy when the server cannot be reached), read in a decoder process, and handed
/// out as the photos of folders: the list's own photos are the opened "folder", each of
/// its albums a folder below it, so the album switcher shows them as it shows subfolders.
/// An address that holds a photo rather than a list is an album of that one photo.
///
/// A photo is in one album only: listed again in a later album, it stays in the first.
public final class WebAlbumWalk: TreeWalking, Sendable {
    /// What the walk learnt besides photos.
    public struct Report: Sendable, Equatable {
        /// The list's title; nil when it has none (the window then shows the address).
        public var title: String?
        /// The list is the copy cached before: the server could not be reached (`isOffline`)
        /// or failed, with why.
        public var staleBecause: String?
        public var isOffline = false
        /// The list held more photos than are shown.
        public var isTruncated = false
        /// Entries left out (not web addresses, repeated).
        public var skipped = 0
        /// The address was a photo, not a list.
        public var isSinglePhoto = false
    }

    public let uri: String
    private let files: WebPhotoFiles
    private let decoder: IsolatedDecoder
    private let cancellation = CancellationFlag()
    private let download: Mutex<WebDownload?> = Mutex(nil)
    private let outcome = Mutex(Report())

    public init(url: String, files: WebPhotoFiles = .shared, decoder: IsolatedDecoder = .shared) {
        uri = url
        self.files = files
        self.decoder = decoder
    }

    public func cancel() {
        cancellation.cancel()
        download.withLock { $0 }?.cancel()
    }

    public var isCancelled: Bool { cancellation.isCancelled }

    /// What the walk learnt; complete once `run` has returned.
    public var report: Report { outcome.withLock { $0 } }

    public func run(
        interval: Double, maximumInterval: Double,
        deliver: ([FolderPhotos]) -> Void,
        found: (TreeFolder) -> Void,
        skipFolder: (SkippedFolder) -> Void,
        skip: (TreeFolder, SkippedEntry) -> Void
    ) -> Result<FolderTreeWalk.Totals, FolderError> {
        let root = TreeFolder(uri: uri, path: [])
        // An address named like a photo is one: the viewer downloads it, showing its progress.
        if Self.looksLikePhoto(uri) { return single(in: root, deliver: deliver) }
        let fetch = WebDownload(WebRequest(url: uri, content: .list), cache: files.cache)
        download.withLock { $0 = fetch }
        if isCancelled { return .success(FolderTreeWalk.Totals(photos: 0, folders: 0, skippedFolders: 0)) }
        let file: DownloadedFile
        switch fetch.run() {
        case .success(let downloaded): file = downloaded
        case .failure(let failure): return .failure(FolderError(message: failure.message, canRetry: failure.canRetry))
        }
        if case .stale(let failure) = file.freshness {
            outcome.withLock {
                $0.staleBecause = failure.message
                $0.isOffline = failure.isOffline
            }
        }
        if Self.isPhoto(contentType: file.entry.contentType, url: uri) { return single(in: root, deliver: deliver) }
        let list: WebPhotoList
        // Relative links are relative to where the list came from: `/photos` redirected to
        // `/photos/` lists `a.jpg` as `/photos/a.jpg`.
        switch decoder.readWebList(path: file.path, baseURL: file.entry.finalURL, contentType: file.entry.contentType, cancellation: cancellation) {
        case .success(let read): list = read
        case .failure(let failure): return .failure(FolderError(message: failure.reason))
        }
        var seen = Set<String>()
        var thumbnails: [String: String] = [:]
        var skipped = list.skipped
        func photos(_ entries: [WebPhotoEntry]) -> [Photo] {
            entries.compactMap { entry in
                guard seen.insert(entry.url).inserted else {
                    skipped += 1
                    return nil
                }
                if let thumbnail = entry.thumbnail { thumbnails[entry.url] = thumbnail }
                return Self.photo(url: entry.url, title: entry.title, taken: entry.taken)
            }
        }
        var batches = [FolderPhotos(folder: root, photos: photos(list.photos))]
        for (index, album) in list.albums.enumerated() {
            let folder = TreeFolder(uri: uri + "#album-\(index + 1)", path: [album.title])
            found(folder)
            batches.append(FolderPhotos(folder: folder, photos: photos(album.photos)))
        }
        files.setThumbnails(thumbnails)
        outcome.withLock {
            $0.title = list.title
            $0.isTruncated = list.isTruncated
            $0.skipped = skipped
        }
        let count = seen.count
        Trace.milestone("web-list", batches.reduce(0) { $0 + $1.photos.count })
        if isCancelled { return .success(FolderTreeWalk.Totals(photos: 0, folders: 0, skippedFolders: 0)) }
        deliver(batches.filter { !$0.photos.isEmpty })
        return .success(FolderTreeWalk.Totals(photos: count, folders: batches.count, skippedFolders: 0))
    }

    /// The album of the one photo at the address.
    private func single(in root: TreeFolder, deliver: ([FolderPhotos]) -> Void) -> Result<FolderTreeWalk.Totals, FolderError> {
        outcome.withLock { $0.isSinglePhoto = true }
        deliver([FolderPhotos(folder: root, photos: [Self.photo(url: uri, title: nil, taken: nil)])])
        Trace.milestone("web-list", 1)
        return .success(FolderTreeWalk.Totals(photos: 1, folders: 1, skippedFolders: 0))
    }

    /// Whether the address holds a photo: the server says an image type, or says nothing
    /// telling and the address ends like a photo's name.
    static func isPhoto(contentType: String?, url: String) -> Bool {
        if let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased(),
           type.hasPrefix("image/") {
            return true
        }
        let telling = contentType.map { !["application/octet-stream", "binary/octet-stream"].contains($0.lowercased()) } ?? false
        return !telling && ImageTypes.classify(Self.contentType(forName: url)) != .other
    }

    /// The photo at `url`: named by the list's title, else by the address's last part.
    static func photo(url: String, title: String?, taken: Int64?) -> Photo {
        let name = title.flatMap { $0.isEmpty ? nil : $0 } ?? Self.displayName(of: url)
        return Photo(id: url, displayName: name, modified: taken ?? 0, size: 0,
                     contentType: contentType(forName: url), dateTaken: taken)
    }

    /// The address's last part, unescaped ("IMG 1.jpg" for …/IMG%201.jpg).
    public static func displayName(of url: String) -> String {
        let path = URL(string: url)?.path ?? url
        let last = path.split(separator: "/").last.map(String.init) ?? url
        return last.removingPercentEncoding ?? last
    }

    /// The content type an address's last part suggests (by its extension only).
    static func contentType(forName url: String) -> String {
        let name = displayName(of: url)
        var uncertain: gboolean = 0
        guard let type = g_content_type_guess(name, nil, 0, &uncertain) else { return "application/octet-stream" }
        defer { g_free(type) }
        return String(cString: type)
    }
}

extension WebAlbumWalk {
    /// Whether an address ends like a photo's name (it opens in the viewer).
    public static func looksLikePhoto(_ url: String) -> Bool {
        guard let path = URL(string: url)?.path, !path.isEmpty, !path.hasSuffix("/") else { return false }
        return ImageTypes.classify(contentType(forName: url)) == .image
    }

    /// A web album's name before its list gives a title: the host and the path
    /// ("example.org/photos/kyoto").
    public static func placeName(of url: String) -> String {
        guard let parsed = URL(string: url), let host = parsed.host else { return url }
        let path = parsed.path.hasSuffix("/") ? String(parsed.path.dropLast()) : parsed.path
        let shown = host + path
        return shown.removingPercentEncoding ?? shown
    }
}
