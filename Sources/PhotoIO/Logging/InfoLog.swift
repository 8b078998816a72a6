import CGdkPixbuf

/// What the app says of itself that is no error (how decoding is confined): GLib's log at
/// the info level, in the `gphotobrowse` domain, which GLib writes to stderr only when asked
/// (`G_MESSAGES_DEBUG=gphotobrowse` or `all`). Standard error carries errors only.
public enum InfoLog {
    public static let domain = "gphotobrowse"

    public static func write(_ text: String) {
        text.withCString { line in
            withVaList([line]) { g_logv(domain, G_LOG_LEVEL_INFO, "%s", $0) }
        }
    }
}
