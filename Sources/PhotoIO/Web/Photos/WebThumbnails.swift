import CGdkPixbuf
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
    /// Downloads of tiles' photos from web servers and other machines (then decoded in the
    /// decoder processes), a lane per server (`downloadLane`): at most as many at once from
    /// one server as the web client's connections to it, less the viewer's, so a slow server
    /// holds up neither local decodes nor the photos of other servers.
    public static let downloads = DecodePool(workers: 16, perLane: Int(WebClient.Configuration().connectionsPerHost) - viewerLane)

    /// The viewer's downloads: the photo shown and its neighbours, in a lane of their own,
    /// never waiting behind tiles.
    public static let viewerDownloads = DecodePool(workers: 4, perLane: viewerLane)

    /// Connections to one server kept for the viewer.
    static let viewerLane = 2

    /// The server a photo's bytes come from (scheme, host and port), which names its lane.
    public static func downloadLane(of uri: String) -> String? {
        guard let parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, nil) else { return nil }
        defer { g_uri_unref(parsed) }
        let scheme = g_uri_get_scheme(parsed).map { String(cString: $0) } ?? ""
        let host = g_uri_get_host(parsed).map { String(cString: $0) } ?? ""
        return "\(scheme)://\(host):\(g_uri_get_port(parsed))"
    }
}
