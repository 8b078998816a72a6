import PhotoCore

/// How a thumbnail was obtained, for tools and tracing; `result` is what a tile needs.
public enum ThumbnailOutcome: Sendable {
    /// A valid thumbnail from the cache: the photo was not read.
    case cached(DecodedImage)
    /// Decoded from the photo; `cacheError` tells why it could not be saved, if it was not
    /// (files inside the thumbnail cache are never saved, without an error).
    case generated(DecodedImage, cacheError: ThumbnailCacheError?)
    /// A failure recorded earlier for this version of the file: not tried again.
    case failedEarlier(DecodeFailure)
    /// Decoding failed now (or was cancelled).
    case failed(DecodeFailure)

    public var result: Result<DecodedImage, DecodeFailure> {
        switch self {
        case .cached(let image), .generated(let image, _): .success(image)
        case .failedEarlier(let failure), .failed(let failure): .failure(failure)
        }
    }
}

/// Thumbnails for the grid, through the freedesktop thumbnail cache: a valid cached
/// thumbnail is used as it is; a file that failed before (and has not changed since) is not
/// tried again; anything else is decoded at the size's edge, saved, and returned.
///
/// Runs on worker threads (blocking I/O and decoding); one provider serves them all. The
/// decoder is any `ImageDecoding`, so decoding can move to another process without
/// touching the cache logic.
public struct ThumbnailProvider: Sendable {
    public let store: ThumbnailStore
    public let decoder: any ImageDecoding

    public init(store: ThumbnailStore, decoder: any ImageDecoding = PixbufDecoder()) {
        self.store = store
        self.decoder = decoder
    }

    /// A provider whose decoder also reads the cache's files (which other programs write
    /// too): the app passes its decoder processes, so no byte from outside is parsed in the
    /// browser.
    public init(cacheHome: String = ThumbnailCacheLayout.defaultCacheHome(),
                decoder: some ImageDecoding & ThumbnailFileReading = PixbufDecoder()) {
        self.init(store: ThumbnailStore(cacheHome: cacheHome, reader: decoder), decoder: decoder)
    }

    /// The thumbnail of the requested file, or why there is none.
    public func thumbnail(for request: ThumbnailRequest, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure> {
        outcome(for: request, cancellation: cancellation).result
    }

    /// The thumbnail of the requested file, and where it came from.
    public func outcome(for request: ThumbnailRequest, cancellation: CancellationFlag) -> ThumbnailOutcome {
        if cancellation.isCancelled { return .failed(Self.cancelled) }
        if WebPhotoFiles.isWebAddress(request.uri) { return webThumbnail(for: request, cancellation: cancellation) }
        let box = PixelSize(width: request.size.edge, height: request.size.edge)
        let decodeRequest = DecodeRequest(uri: request.uri, fitting: box)

        // Thumbnails of the cache's own files are neither read from nor written to it. The
        // path as written is checked first (cheap); symbolic links only before a decode.
        if store.layout.contains(uri: request.uri) { return decodeOnly(decodeRequest, cancellation: cancellation) }

        if let cached = store.load(uri: request.uri, modified: request.modified, fileSize: request.fileSize, size: request.size,
                                    cancellation: cancellation) {
            return .cached(cached)
        }
        if let earlier = store.recordedFailure(uri: request.uri, modified: request.modified, fileSize: request.fileSize, cancellation: cancellation) {
            return .failedEarlier(DecodeFailure(earlier.kind, tr("Could not be decoded earlier: %s", earlier.reason)))
        }
        if cancellation.isCancelled { return .failed(Self.cancelled) }
        if store.isInsideCache(uri: request.uri) { return decodeOnly(decodeRequest, cancellation: cancellation) }

        switch decoder.decode(decodeRequest, cancellation: cancellation) {
        case .success(let image):
            // A photo cut short is not saved: the file may still be on its way (a copy that
            // goes on), and the tile says what is missing each time it is decoded.
            if image.endMissing { return .generated(image, cacheError: nil) }
            // Saved even if cancelled meanwhile: the work is done, and the next visit gains.
            do {
                try store.save(image: image, uri: request.uri, modified: request.modified, fileSize: request.fileSize, size: request.size)
                return .generated(image, cacheError: nil)
            } catch {
                return .generated(image, cacheError: error)
            }
        case .failure(let failure):
            if failure.isLasting {
                try? store.recordFailure(uri: request.uri, modified: request.modified, fileSize: request.fileSize, failure: failure)
            }
            return .failed(failure)
        }
    }

    /// Decodes without the cache (for files inside it).
    private func decodeOnly(_ request: DecodeRequest, cancellation: CancellationFlag) -> ThumbnailOutcome {
        switch decoder.decode(request, cancellation: cancellation) {
        case .success(let image): .generated(image, cacheError: nil)
        case .failure(let failure): .failed(failure)
        }
    }

    static let cancelled = DecodeFailure(.cancelled, "Cancelled")
}
