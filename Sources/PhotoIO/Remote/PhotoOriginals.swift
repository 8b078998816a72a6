import Foundation
import PhotoCore

/// A photo's original brought to this computer before it is decoded: a web photo downloaded
/// into the download cache (revalidated), a file on another machine copied whole
/// (`RemoteFileCopies`); progress goes to their observers as it comes. A local file is read
/// where it is.
///
/// Blocking: call it on worker threads.
public enum PhotoOriginals {
    public struct Failure: Error, Sendable {
        public let message: String
        /// Trying again may work (the server could not be reached, failed, broke off).
        public let canRetry: Bool
        public let isCancelled: Bool
    }

    /// Whether `uri`'s original must be brought here first.
    public static func isElsewhere(_ uri: String) -> Bool {
        WebAddress.isWebAddress(uri) || RemoteFileCopies.isRemote(uri)
    }

    /// The URI to decode `uri` from once its original is here (`uri` itself for a local
    /// file or a copy of a remote one, which the decoder finds by it).
    public static func bringHere(_ uri: String, cancellation: CancellationFlag) -> Result<String, Failure> {
        if WebAddress.isWebAddress(uri) {
            return WebPhotoFiles.shared.fetch(uri, policy: .revalidate, cancellation: cancellation)
                .map { URL(fileURLWithPath: $0.path).absoluteString }
                .mapError { Failure(message: $0.message, canRetry: $0.canRetry, isCancelled: $0.kind == .cancelled) }
        }
        guard RemoteFileCopies.isRemote(uri) else { return .success(uri) }
        switch RemoteFileCopies.shared.open(uri, reach: .whole, cancellation: cancellation) {
        case .success(let file):
            close(file.fd)
            return .success(uri)
        case .failure(let failure):
            return .failure(Failure(message: failure.reason, canRetry: failure.kind == .unreadable, isCancelled: failure.kind == .cancelled))
        }
    }
}
