import Bridge
import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Connecting to a server before its folder can be opened: GIO mounts the location's
/// volume (sftp, smb, WebDAV, a phone…), asking the person through GTK's mount operation
/// for a password, a domain or a host key's approval when the server wants one, as Files
/// does. The answer comes back on the main thread.
@MainActor
enum RemoteMount {
    /// How a connection ended.
    enum Outcome {
        case mounted
        /// The person cancelled a question (a password dialog): nothing to say.
        case cancelled
        /// Why it failed, in words for a person.
        case failed(String)
    }

    typealias Done = @MainActor (Outcome) -> Void

    /// Mounts the volume holding `uri`, asking questions over `window`; `done` gets how it ended.
    static func mount(_ uri: String, over window: UnsafeMutablePointer<GtkWindow>,
                      done: @escaping @MainActor (Outcome) -> Void) {
        let file = g_file_new_for_uri(uri)
        defer { file?.unref() }
        let operation = gtk_mount_operation_new(window)
        defer { operation?.unref() }
        let name = parseName(ofURI: uri)
        g_file_mount_enclosing_volume(file, G_MOUNT_MOUNT_NONE, operation, nil, { source, result, data in
            let (done, name) = CallbackBox.take(data!, as: (RemoteMount.Done, String).self)
            var error: UnsafeMutablePointer<GError>?
            let mounted = g_file_mount_enclosing_volume_finish(source.map { OpaquePointer($0) }, result, &error) != 0
            let outcome = mounted ? RemoteMount.Outcome.mounted : RemoteMount.outcome(of: error, name: name)
            if let error { g_error_free(error) }
            MainActor.assumeIsolated { done(outcome) }
        }, CallbackBox.retain((done as Done, name)))
    }

    nonisolated private static func outcome(of error: UnsafeMutablePointer<GError>?, name: String) -> Outcome {
        guard let error else { return .failed(tr("Could not connect to “%s”.", name)) }
        let quark = g_io_error_quark()
        if g_error_matches(error, quark, Int32(G_IO_ERROR_ALREADY_MOUNTED.rawValue)) != 0 { return .mounted }
        if g_error_matches(error, quark, Int32(G_IO_ERROR_FAILED_HANDLED.rawValue)) != 0 { return .cancelled }
        return .failed(tr("Could not connect to “%1$s”: %2$s", name, String(cString: error.pointee.message)))
    }
}
