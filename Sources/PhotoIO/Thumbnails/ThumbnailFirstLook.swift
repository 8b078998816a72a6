import PhotoCore

/// What can be shown of a photo on another machine before its whole file is read.
public enum ThumbnailFirstLook: Sendable {
    /// The thumbnail's final state, read without the photo: from the cache, or a failure
    /// recorded earlier.
    case final(ThumbnailOutcome)
    /// The preview embedded in the photo's first bytes, to show until the thumbnail is made
    /// from the whole file; nil when it has none.
    case preview(DecodedImage?)
}

extension ThumbnailProvider {
    /// A first look at a photo on another machine (`RemoteFileCopies`): its cached thumbnail
    /// when there is a valid one, else its embedded preview, read from the first bytes of
    /// the file only (which the whole file's read then carries on from).
    public func firstLook(for request: ThumbnailRequest, cancellation: CancellationFlag) -> ThumbnailFirstLook {
        if cancellation.isCancelled { return .final(.failed(Self.cancelled)) }
        if let cached = store.load(uri: request.uri, modified: request.modified, fileSize: request.fileSize, size: request.size,
                                    cancellation: cancellation) {
            return .final(.cached(cached))
        }
        if let earlier = store.recordedFailure(uri: request.uri, modified: request.modified, fileSize: request.fileSize, cancellation: cancellation) {
            return .final(.failedEarlier(DecodeFailure(earlier.kind, tr("Could not be decoded earlier: %s", earlier.reason))))
        }
        guard let reader = decoder as? any EmbeddedPreviewReading else { return .preview(nil) }
        let box = PixelSize(width: request.size.edge, height: request.size.edge)
        switch reader.embeddedPreview(DecodeRequest(uri: request.uri, fitting: box), cancellation: cancellation) {
        case .success(let image): return .preview(image)
        case .failure(let failure) where failure.kind == .cancelled: return .final(.failed(failure))
        case .failure: return .preview(nil)
        }
    }
}
