import CGdkPixbuf
import CSoup
import PhotoCore

// What went wrong with a download, in words for a person: every message of the web layer.

extension WebFailure {
    /// The failure an HTTP status that is no success stands for.
    static func status(_ status: Int, reason: String?, host: String) -> WebFailure {
        switch status {
        case 404, 410:
            return WebFailure(.notFound, status: status, tr("The server %1$s has nothing at this address (error %2$s).", host, String(status)))
        case 401, 403, 407:
            return WebFailure(.accessDenied, status: status, tr("The server %1$s refuses access to this address (error %2$s).", host, String(status)))
        case 408, 429, 500...599:
            return WebFailure(.serverError, status: status, tr("The server %1$s ran into a problem (error %2$s). Try again later.", host, String(status)))
        default:
            let said = reason.map { "\(status) \(OutsideText($0).isolated)" } ?? String(status)
            return WebFailure(.unexpectedStatus, status: status, tr("The server %1$s gave an unexpected answer (%2$s).", host, said))
        }
    }

    static func badAddress(_ url: String) -> WebFailure {
        WebFailure(.badAddress, tr("“%s” is not a web address.", url))
    }

    static let notAPhoto = WebFailure(.notAPhoto, tr("The server sent a web page instead of a photo."))

    static func tooLarge(limit: Int64) -> WebFailure {
        let size = g_format_size_full(UInt(max(0, limit)), G_FORMAT_SIZE_IEC_UNITS)!
        defer { g_free(size) }
        return WebFailure(.tooLarge, tr("The file is larger than %s, the most that is downloaded.", String(cString: size)))
    }

    static func incomplete(host: String) -> WebFailure {
        WebFailure(.incomplete, tr("The connection to %s was lost before the download was complete.", host))
    }

    static func headersTooLarge(host: String) -> WebFailure {
        WebFailure(.badResponse, tr("The server %s sent an answer with more headers than a web server sends.", host))
    }

    /// Whether libsoup's message says the answer's headers passed its limit (libsoup reports
    /// it as input cut short, the same error as a lost connection, in its own language).
    static func isHeadersTooLarge(_ detail: String) -> Bool {
        let english = "Header too big"
        guard let translated = g_dgettext("libsoup-3.0", english) else { return detail == english }
        return detail == english || detail == String(cString: translated)
    }

    static func tooSlow(host: String) -> WebFailure {
        WebFailure(.timedOut, tr("The server %s sends the file too slowly to finish.", host))
    }

    static func notModifiedWithoutCopy(host: String) -> WebFailure {
        WebFailure(.badResponse, status: 304, tr("The server %s answered “not modified” to a request for a file the cache does not hold.", host))
    }

    static let cancelled = WebFailure(.cancelled, tr("The download was cancelled."))

    /// The failure a GError from libsoup or GIO stands for (the error is not freed).
    static func error(_ error: UnsafeMutablePointer<GError>?, message: OpaquePointer?, host: String) -> WebFailure {
        guard let error else { return WebFailure(.cannotConnect, tr("Could not download from %s.", host)) }
        let domain = error.pointee.domain, code = error.pointee.code
        let detail = String(cString: error.pointee.message)
        if domain == g_io_error_quark() {
            switch GIOErrorEnum(UInt32(code)) {
            case G_IO_ERROR_CANCELLED:
                return cancelled
            case G_IO_ERROR_TIMED_OUT:
                return WebFailure(.timedOut, tr("The server %s stopped answering.", host))
            case G_IO_ERROR_PARTIAL_INPUT where isHeadersTooLarge(detail):
                return headersTooLarge(host: host)
            case G_IO_ERROR_PARTIAL_INPUT, G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_NOT_CONNECTED:
                return incomplete(host: host)
            case G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_HOST_UNREACHABLE, G_IO_ERROR_NETWORK_UNREACHABLE:
                return WebFailure(.cannotConnect, tr("Could not connect to %s.", host))
            case G_IO_ERROR_HOST_NOT_FOUND:
                return WebFailure(.cannotConnect, tr("The server %s could not be found.", host))
            case G_IO_ERROR_PROXY_FAILED, G_IO_ERROR_PROXY_AUTH_FAILED, G_IO_ERROR_PROXY_NEED_AUTH, G_IO_ERROR_PROXY_NOT_ALLOWED:
                return WebFailure(.cannotConnect, tr("The proxy server did not let the connection to %1$s through: %2$s", host, detail))
            default:
                break
            }
        } else if domain == g_resolver_error_quark() {
            return WebFailure(.cannotConnect, tr("The server %s could not be found.", host))
        } else if domain == g_tls_error_quark() {
            return insecure(code: code, message: message, host: host)
        } else if domain == soup_session_error_quark() {
            switch SoupSessionError(UInt32(code)) {
            case SOUP_SESSION_ERROR_TOO_MANY_REDIRECTS, SOUP_SESSION_ERROR_TOO_MANY_RESTARTS:
                return WebFailure(.tooManyRedirects, tr("The server %s sends the request around in circles.", host))
            case SOUP_SESSION_ERROR_REDIRECT_NO_LOCATION, SOUP_SESSION_ERROR_REDIRECT_BAD_URI:
                return WebFailure(.tooManyRedirects, tr("The server %s redirects the request to no valid address.", host))
            default:
                return WebFailure(.badResponse, tr("The server %1$s sent an answer that is not valid HTTP: %2$s", host, detail))
            }
        }
        return WebFailure(.cannotConnect, tr("Could not download from %1$s: %2$s", host, detail))
    }

    /// A TLS failure: why the certificate was refused when it was (never accepted anyway).
    private static func insecure(code: Int32, message: OpaquePointer?, host: String) -> WebFailure {
        let flags = message.map { soup_message_get_tls_peer_certificate_errors($0).rawValue } ?? 0
        if GTlsError(UInt32(code)) == G_TLS_ERROR_BAD_CERTIFICATE || flags != 0 {
            if flags & G_TLS_CERTIFICATE_BAD_IDENTITY.rawValue != 0 {
                return WebFailure(.insecure, tr("The connection to %s was refused: its certificate belongs to another site.", host))
            }
            if flags & (G_TLS_CERTIFICATE_EXPIRED.rawValue | G_TLS_CERTIFICATE_NOT_ACTIVATED.rawValue) != 0 {
                return WebFailure(.insecure, tr("The connection to %s was refused: its certificate has expired or is not valid yet.", host))
            }
            if flags & G_TLS_CERTIFICATE_UNKNOWN_CA.rawValue != 0 {
                return WebFailure(.insecure, tr("The connection to %s was refused: its certificate is not signed by a trusted authority.", host))
            }
            return WebFailure(.insecure, tr("The connection to %s was refused: its certificate could not be verified.", host))
        }
        return WebFailure(.insecure, tr("A secure connection to %s could not be established.", host))
    }
}
