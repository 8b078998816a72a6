import Foundation
import PhotoCore

extension ThumbnailProvider {
    /// The thumbnail of a web photo: its list's thumbnail (else the photo itself) from the
    /// download cache, downloaded first when it is not there, decoded in a decoder process.
    /// Not kept in the freedesktop cache (it holds files, by modification time, which web
    /// photos lack); the download cache keeps the bytes, so a second visit downloads nothing.
    func webThumbnail(for request: ThumbnailRequest, files: WebPhotoFiles = .shared, cancellation: CancellationFlag) -> ThumbnailOutcome {
        let box = PixelSize(width: request.size.edge, height: request.size.edge)
        let thumbnail = files.thumbnailAddress(of: request.uri)
        var fetched = files.fetch(thumbnail, policy: .preferCached, cancellation: cancellation)
        // A list's thumbnail that cannot be had: the photo itself will do.
        if case .failure(let failure) = fetched, failure.kind != .cancelled, thumbnail != request.uri {
            fetched = files.fetch(request.uri, policy: .preferCached, cancellation: cancellation)
        }
        switch fetched {
        case .failure(let failure):
            return .failed(DecodeFailure(failure.kind == .cancelled ? .cancelled : .unreadable, failure.message))
        case .success(let file):
            let decodeRequest = DecodeRequest(uri: URL(fileURLWithPath: file.path).absoluteString, fitting: box)
            switch decoder.decode(decodeRequest, cancellation: cancellation) {
            case .success(let image): return .generated(image, cacheError: nil)
            case .failure(let failure): return .failed(failure)
            }
        }
    }
}

extension DecodePool {
    /// Downloads of web photos (then decoded in the decoder processes): as many as the web
    /// client's connections to one host, so a slow server never holds up local decodes.
    public static let downloads = DecodePool(workers: Int(WebClient.Configuration().connectionsPerHost))
}
