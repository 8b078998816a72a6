import PhotoCore

/// Why a download from the web failed, in words for a person, and whether trying again makes
/// sense (a Retry button).
public struct WebFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The server has nothing at the address (404, 410).
        case notFound
        /// The server refuses access (401, 403, 407).
        case accessDenied
        /// The server failed or is overloaded (5xx, 408, 429).
        case serverError
        /// A status the client does not expect for a download (another 4xx, a 3xx not followed).
        case unexpectedStatus
        /// No connection could be made: no such host, refused, unreachable, a proxy refusing.
        case cannotConnect
        /// The server stopped answering for longer than the client waits (a stalled connection).
        case timedOut
        /// The connection ended before the whole body came (shorter than announced).
        case incomplete
        /// The secure connection could not be trusted or established; never accepted anyway.
        case insecure
        /// A web page came where a photo was expected.
        case notAPhoto
        /// The body is (or announces to be) larger than the download's limit.
        case tooLarge
        /// Redirections that never end, or lead nowhere.
        case tooManyRedirects
        /// Not an http or https address.
        case badAddress
        /// Something that is not valid HTTP came back.
        case badResponse
        /// The body could not be written to the cache folder (disk full, no permission).
        case cannotStore
        /// The download was cancelled.
        case cancelled
    }

    public let kind: Kind
    /// The HTTP status, for failures that came with one.
    public let status: Int?
    /// What happened, for a person (translated).
    public let message: String

    public var description: String { message }

    public init(_ kind: Kind, status: Int? = nil, _ message: String) {
        self.kind = kind
        self.status = status
        self.message = message
    }

    /// Whether the same request may succeed a little later, so that a Retry button makes sense.
    public var canRetry: Bool {
        switch kind {
        case .serverError, .cannotConnect, .timedOut, .incomplete, .cannotStore, .cancelled: true
        case .notFound, .accessDenied, .unexpectedStatus, .insecure, .notAPhoto, .tooLarge,
             .tooManyRedirects, .badAddress, .badResponse: false
        }
    }

    /// Whether the server could not be reached at all: the cached copy is shown as offline.
    public var isOffline: Bool { kind == .cannotConnect || kind == .timedOut }

    /// Whether a cached copy stands in for the download: the server could not be reached, or
    /// failed, or the connection broke. Refusals and wrong content are reported instead.
    var letsCachedCopyStandIn: Bool {
        switch kind {
        case .cannotConnect, .timedOut, .serverError, .incomplete: true
        default: false
        }
    }
}
