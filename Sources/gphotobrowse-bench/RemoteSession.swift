import Foundation

/// A session of its own for one run on a server: a new session bus, so a new GVfs (gvfsd
/// and its sftp backend, started by the bus, with nothing mounted), in `launch`'s home with
/// the agent holding the key, as a fresh login would. `environment` is for the programs run
/// in it. Ended, with GVfs, at `end`.
final class RemoteSession {
    let environment: [String: String]
    private let session: DesktopSession
    private var ended = false

    init?(_ launch: CleanLaunch, agentSocket: String) {
        // The session's runtime folder is a short path of its own: GVfs's ssh binds its
        // connection's control socket at RUNTIME/gvfsd-sftp/ and 57 characters more, a
        // socket's path has room for 107 bytes, and past that the mount fails right after
        // the server accepted the key ("Connection failed"), with a runtime folder of 40
        // characters or more.
        var template = Array("/tmp/gvfs-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            printError("cannot make a folder in /tmp")
            return nil
        }
        let root = String(cString: made)
        var environment = launch.environment
        environment["SSH_AUTH_SOCK"] = agentSocket
        var gvfsEnvironment = environment
        // The services it starts find their bus from it, not from another session's address.
        gvfsEnvironment["DBUS_SESSION_BUS_ADDRESS"] = nil
        guard let session = DesktopSession(environment: gvfsEnvironment, root: root) else {
            try? FileManager.default.removeItem(atPath: root)
            return nil
        }
        self.session = session
        environment["DBUS_SESSION_BUS_ADDRESS"] = session.busAddress
        environment["XDG_RUNTIME_DIR"] = session.runtime
        self.environment = environment
    }

    /// Ends the bus, and GVfs with it (it unmounts, so the server closes what it had open);
    /// once.
    func end() {
        guard !ended else { return }
        ended = true
        session.end()
    }
}
