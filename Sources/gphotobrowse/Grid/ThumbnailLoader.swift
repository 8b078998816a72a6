import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A thumbnail as the grid holds it: a texture, or the reason there is none.
enum Thumbnail {
    case image(Texture)
    case failed(String)
}

/// Decodes thumbnails on the shared decode pool and keeps the recent ones in memory.
///
/// Requests are keyed by photo id, so a recycled tile that moved on to another photo never
/// receives its previous photo's thumbnail. Work for a tile that was unbound before its
/// decode started is dropped; a running decode is told to stop.
@MainActor
final class ThumbnailLoader {
    /// The edge, in pixels, of the square box thumbnails are decoded to fit.
    let edge: Int
    private let decoder: any ImageDecoding
    private var cache: [String: (thumbnail: Thumbnail, used: UInt64, bytes: Int)] = [:]
    private var cacheBytes = 0
    private let cacheLimit: Int
    private var useCounter: UInt64 = 0
    private var inFlight: [String: (ticket: DecodePool.Ticket, waiting: Int)] = [:]

    /// Called on the main thread when a photo's thumbnail is ready or has failed.
    var onReady: (_ id: String, _ thumbnail: Thumbnail) -> Void = { _, _ in }

    init(edge: Int, decoder: any ImageDecoding = PixbufDecoder(), cacheLimit: Int = 160 << 20) {
        self.edge = edge
        self.decoder = decoder
        self.cacheLimit = cacheLimit
    }

    /// The thumbnail if it is in memory.
    func cached(_ id: String) -> Thumbnail? {
        guard let entry = cache[id] else { return nil }
        useCounter += 1
        cache[id] = (entry.thumbnail, useCounter, entry.bytes)
        return entry.thumbnail
    }

    /// Asks for a thumbnail; `onReady` is called when it is there. Each request must be
    /// balanced by `release` once the tile no longer shows the photo.
    func request(_ id: String, priority: Int = 0) {
        if let pending = inFlight[id] {
            inFlight[id] = (pending.ticket, pending.waiting + 1)
            return
        }
        let request = DecodeRequest(uri: id, fitting: PixelSize(width: edge, height: edge))
        let decoder = self.decoder
        let ticket = DecodePool.shared.submit(priority: priority) { [weak self] flag in
            let result = decoder.decode(request, cancellation: flag)
            if case .failure(let failure) = result, failure.kind == .cancelled { return }
            onMain { self?.finish(id, result) }
        }
        inFlight[id] = (ticket, 1)
    }

    /// The tile asking for `id` no longer shows it.
    func release(_ id: String) {
        guard let pending = inFlight[id] else { return }
        if pending.waiting > 1 {
            inFlight[id] = (pending.ticket, pending.waiting - 1)
        } else {
            inFlight[id] = nil
            DecodePool.shared.cancel(pending.ticket)
        }
    }

    /// Cancels everything (the folder was closed).
    func cancelAll() {
        for pending in inFlight.values { DecodePool.shared.cancel(pending.ticket) }
        inFlight.removeAll()
    }

    private func finish(_ id: String, _ result: Result<DecodedImage, DecodeFailure>) {
        guard inFlight.removeValue(forKey: id) != nil else { return }
        let thumbnail: Thumbnail
        var bytes = 64
        switch result {
        case .success(let image):
            thumbnail = .image(image.makeTexture())
            bytes = image.pixels.count
        case .failure(let failure):
            thumbnail = .failed(failure.reason)
        }
        store(id, thumbnail, bytes: bytes)
        onReady(id, thumbnail)
    }

    private func store(_ id: String, _ thumbnail: Thumbnail, bytes: Int) {
        if let old = cache[id] { drop(old) }
        useCounter += 1
        cache[id] = (thumbnail, useCounter, bytes)
        cacheBytes += bytes
        guard cacheBytes > cacheLimit else { return }
        // Evict the least recently used quarter in one pass rather than one entry per insert.
        let victims = cache.sorted { $0.value.used < $1.value.used }.prefix(max(1, cache.count / 4))
        for (key, entry) in victims {
            drop(entry)
            cache[key] = nil
        }
    }

    private func drop(_ entry: (thumbnail: Thumbnail, used: UInt64, bytes: Int)) {
        cacheBytes -= entry.bytes
    }
}

extension DecodePool {
    /// The process's decode workers: one per core.
    static let shared = DecodePool()
}
