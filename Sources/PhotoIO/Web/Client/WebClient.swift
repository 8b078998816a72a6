import CGdkPixbuf
import CSoup
import PhotoCore
import Foundation

/// The HTTP(S) client: one SoupSession that every download shares, so connections are kept
/// alive and reused, at most 6 to a host.
///
/// The session follows GIO's proxy settings (the default `GProxyResolver`), decodes
/// compressed bodies (gzip, deflate, brotli), follows redirections (libsoup stops after
/// 20 with an error), never accepts a certificate it cannot verify (nothing connects to
/// `accept-certificate`), and gives up on a connection that stays silent for `timeout`
/// seconds: a stalled server ends in an error, not a wait for ever.
///
/// Threads: libsoup 3.2 lets any thread send messages on one session, provided the session
/// was configured, on the thread that made it, before any request, and that nothing else of
/// it is called from other threads (libsoup's "Client thread safety"). So `init` configures
/// the session completely and afterwards only `soup_session_send` is called, from worker
/// threads, each message and its body stream staying on the thread that sent it (the
/// blocking API: a download is one worker's blocking work, cancelled through its
/// GCancellable). Older libsoup 3 releases did not allow this: there, downloads take turns.
///
/// `@unchecked Sendable`: after `init`, the session is only used through the calls libsoup
/// documents as safe from any thread.
public final class WebClient: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Connections at once to one host (HTTP/1.1 keep-alive).
        public var connectionsPerHost: UInt32 = 6
        /// Connections at once to all hosts.
        public var connections: UInt32 = 24
        /// Seconds a connection may stay silent (connecting, or in the middle of an answer)
        /// before the download fails as timed out.
        public var timeout: UInt32 = 30
        /// Seconds an unused kept-alive connection stays open.
        public var idleTimeout: UInt32 = 60
        public var userAgent = "\(AppInfo.name)/\(AppInfo.version)"

        public init() {}
    }

    /// The client every part of the app shares.
    public static let shared = WebClient()

    public let configuration: Configuration
    let session: UnsafeMutablePointer<SoupSession>
    /// Taken around each download when libsoup predates 3.2 (see the type's discussion).
    private let turns: NSLock?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        session = csoup_session_new(configuration.connections, configuration.connectionsPerHost)
        soup_session_set_proxy_resolver(session, g_proxy_resolver_get_default())
        soup_session_set_timeout(session, configuration.timeout)
        soup_session_set_idle_timeout(session, configuration.idleTimeout)
        soup_session_set_user_agent(session, configuration.userAgent)
        if soup_session_has_feature(session, soup_content_decoder_get_type()) == 0 {
            soup_session_add_feature_by_type(session, soup_content_decoder_get_type())
        }
        let threadSafe = soup_get_major_version() > 3 || (soup_get_major_version() == 3 && soup_get_minor_version() >= 2)
        turns = threadSafe ? nil : NSLock()
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(session)) }

    /// Runs `body`, which sends on the session, in turn with other downloads where libsoup
    /// needs it.
    func withSession<R>(_ body: (UnsafeMutablePointer<SoupSession>) -> R) -> R {
        guard let turns else { return body(session) }
        turns.lock()
        defer { turns.unlock() }
        return body(session)
    }

    /// The session's connection limits, as libsoup holds them (for tests).
    var connectionLimits: (total: UInt32, perHost: UInt32) {
        (soup_session_get_max_conns(session), soup_session_get_max_conns_per_host(session))
    }

    /// Whether the session decodes compressed bodies (for tests).
    var decodesContent: Bool { soup_session_has_feature(session, soup_content_decoder_get_type()) != 0 }
}
