import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A thumbnail as the grid holds it: a texture, or the reason there is none.
enum Thumbnail {
    case image(Texture)
    case failed(String)
}

/// Which version of which photo a thumbnail shows: a photo rewritten on disk (new
/// modification time) is a new key, so its old thumbnail is never shown for it.
struct ThumbnailKey: Hashable {
    let id: String
    let modified: Int64
    let size: Int64

    init(_ photo: Photo) {
        id = photo.id
        modified = photo.modified
        size = photo.size
    }
}

/// Gets thumbnails on the shared decode pool and keeps the recent ones in memory.
///
/// Each comes from the freedesktop thumbnail cache that file managers share when it holds a
/// valid one, else it is decoded and written there (`ThumbnailProvider`, the same code
/// the benchmark runs).
///
/// Requests are counted per key: a tile showing a photo holds one, a prefetch of the next
/// screenful holds one. When the last holder lets go before the decode started, the decode
/// is dropped; a running one is told to stop. A recycled tile that moved on to another
/// photo therefore never receives its previous photo's thumbnail.
@MainActor
final class ThumbnailLoader {
    /// The cache size asked for (its edge is the box thumbnails are shrunk to fit).
    let size: ThumbnailSize
    private let provider: ThumbnailProvider
    private var cache: [ThumbnailKey: (thumbnail: Thumbnail, used: UInt64, bytes: Int)] = [:]
    private var cacheBytes = 0
    private let cacheLimit: Int
    private var useCounter: UInt64 = 0
    private var inFlight: [ThumbnailKey: (ticket: DecodePool.Ticket, holders: Int)] = [:]

    private var readyObservers: [(ThumbnailKey, Thumbnail) -> Void] = []

    init(size: ThumbnailSize, provider: ThumbnailProvider = ThumbnailProvider(decoder: IsolatedDecoder.shared), cacheLimit: Int = 64 << 20) {
        self.size = size
        self.provider = provider
        self.cacheLimit = cacheLimit
    }

    /// Calls `observer` on the main thread whenever a thumbnail is ready or has failed.
    func observeReady(_ observer: @escaping (_ key: ThumbnailKey, _ thumbnail: Thumbnail) -> Void) {
        readyObservers.append(observer)
    }

    /// The thumbnail if it is in memory.
    func cached(_ key: ThumbnailKey) -> Thumbnail? {
        guard let entry = cache[key] else { return nil }
        useCounter += 1
        cache[key] = (entry.thumbnail, useCounter, entry.bytes)
        return entry.thumbnail
    }

    /// Asks for a thumbnail; `onReady` is called when it is there. Each request must be
    /// balanced by `release` once its holder no longer needs it. Higher priority runs first.
    func request(_ key: ThumbnailKey, priority: Int) {
        if let pending = inFlight[key] {
            inFlight[key] = (pending.ticket, pending.holders + 1)
            return
        }
        let request = ThumbnailRequest(uri: key.id, modifiedMicroseconds: key.modified, fileSize: key.size, size: size)
        let provider = self.provider
        let ticket = DecodePool.shared.submit(priority: priority) { [weak self] flag in
            let result = provider.thumbnail(for: request, cancellation: flag)
            if case .failure(let failure) = result, failure.kind == .cancelled { return }
            onMain { self?.finish(key, result) }
        }
        inFlight[key] = (ticket, 1)
    }

    /// Whether a decode for `key` is queued or running.
    func isPending(_ key: ThumbnailKey) -> Bool { inFlight[key] != nil }

    /// One holder of `key` no longer needs it.
    func release(_ key: ThumbnailKey) {
        guard let pending = inFlight[key] else { return }
        if pending.holders > 1 {
            inFlight[key] = (pending.ticket, pending.holders - 1)
        } else {
            inFlight[key] = nil
            DecodePool.shared.cancel(pending.ticket)
        }
    }

    /// Cancels everything (the folder was closed).
    func cancelAll() {
        for pending in inFlight.values { DecodePool.shared.cancel(pending.ticket) }
        inFlight.removeAll()
    }

    private func finish(_ key: ThumbnailKey, _ result: Result<DecodedImage, DecodeFailure>) {
        guard inFlight.removeValue(forKey: key) != nil else { return }
        let thumbnail: Thumbnail
        var bytes = 64
        switch result {
        case .success(let image):
            thumbnail = .image(image.makeTexture())
            bytes = image.pixels.count
        case .failure(let failure):
            thumbnail = .failed(failure.reason)
        }
        store(key, thumbnail, bytes: bytes)
        for observer in readyObservers { observer(key, thumbnail) }
    }

    private func store(_ key: ThumbnailKey, _ thumbnail: Thumbnail, bytes: Int) {
        if let old = cache[key] { cacheBytes -= old.bytes }
        useCounter += 1
        cache[key] = (thumbnail, useCounter, bytes)
        cacheBytes += bytes
        guard cacheBytes > cacheLimit else { return }
        // Evict the least recently used quarter in one pass rather than one entry per insert.
        let victims = cache.sorted { $0.value.used < $1.value.used }.prefix(max(1, cache.count / 4))
        for (victim, entry) in victims {
            cacheBytes -= entry.bytes
            cache[victim] = nil
        }
    }
}

extension DecodePool {
    /// The process's decode workers: one per core.
    static let shared = DecodePool()
}
