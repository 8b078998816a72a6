import CGdkPixbuf
import CSoup

/// One download: the address, what is expected there, and how much may come.
public struct WebRequest: Sendable, Equatable {
    /// What the address is expected to hold, which sets the default byte limit and what is
    /// refused: a web page where a photo is expected is not a photo.
    public enum Content: Sendable, Equatable {
        /// A photo: a `text/html` answer is refused ("The server sent a web page instead of a
        /// photo."). At most 256 MiB by default.
        case photo
        /// A list of photos (a web album's index: JSON, HTML, anything). At most 32 MiB by
        /// default.
        case list

        public var defaultByteLimit: Int64 {
            switch self {
            case .photo: 256 << 20
            case .list: 32 << 20
            }
        }
    }

    /// When the network is asked.
    public enum CachePolicy: Sendable, Equatable {
        /// Always ask the server; with a cached copy, conditionally (a 304 costs no download).
        case revalidate
        /// A cached copy is used without asking; the server is asked only when there is none.
        case preferCached
    }

    /// The address, `http://` or `https://`.
    public let url: String
    public var content: Content
    /// The most bytes the body may have; beyond it the download stops with `.tooLarge`.
    public var byteLimit: Int64
    public var cachePolicy: CachePolicy
    /// The least progress a body must make: a server that trickles a byte every few
    /// seconds is never silent long enough for the client's timeout, but holds a
    /// connection for hours. Fewer than `bytes` in any `seconds` ends the download as timed out.
    public var slowest: SlowestProgress

    public init(url: String, content: Content = .photo, byteLimit: Int64? = nil, cachePolicy: CachePolicy = .revalidate,
                slowest: SlowestProgress = .default) {
        self.url = url
        self.content = content
        self.byteLimit = byteLimit ?? content.defaultByteLimit
        self.cachePolicy = cachePolicy
        self.slowest = slowest
    }

    /// The host, for messages ("Could not connect to example.org."); the address itself when
    /// it has none.
    var host: String {
        guard let uri = g_uri_parse(url, G_URI_FLAGS_NONE, nil) else { return url }
        defer { g_uri_unref(uri) }
        return g_uri_get_host(uri).map { String(cString: $0) } ?? url
    }

    /// Whether the address is an absolute http or https URI with a host.
    var isWebAddress: Bool {
        guard let uri = g_uri_parse(url, G_URI_FLAGS_NONE, nil) else { return false }
        defer { g_uri_unref(uri) }
        guard let scheme = g_uri_get_scheme(uri), let host = g_uri_get_host(uri), host.pointee != 0 else { return false }
        let name = String(cString: scheme).lowercased()
        return name == "http" || name == "https"
    }
}

/// The least progress a download's body must make (`WebRequest.slowest`).
public struct SlowestProgress: Sendable, Equatable {
    public var bytes: Int64
    public var seconds: Double

    public init(bytes: Int64, seconds: Double) {
        self.bytes = bytes
        self.seconds = seconds
    }

    /// 16 KiB in 20 seconds: under a kilobyte a second, far below any real connection.
    public static let `default` = SlowestProgress(bytes: 16 << 10, seconds: 20)
}

/// How far a download has come: bytes received so far, and the total when the server
/// announced it (unknown for chunked or compressed bodies).
public struct DownloadProgress: Sendable, Equatable {
    public let received: Int64
    public let total: Int64?

    public init(received: Int64, total: Int64?) {
        self.received = received
        self.total = total
    }

    /// From 0 to 1 when the total is known.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, Double(received) / Double(total))
    }
}
