import CGtk
import Foundation
import Glibc
import Synchronization
import PhotoCore
import PhotoIO

/// How many of the app's objects are alive, by kind: what a leak shows up in.
///
/// GObjects the app makes and hands to GTK (windows, dialogs, popovers, actions, pages,
/// tiles, textures) are tracked with a weak reference (`track`); the Swift objects that own
/// them carry a `LiveObjects.Token`. (GObject's own instance counting needs a GLib built
/// with debugging, which distributions do not ship.)
enum LiveObjects {
    private static let counts = Mutex<[String: Int]>([:])

    /// Counts `object` as alive until it is finalized, under its type name.
    @MainActor
    static func track(_ object: some GObjectPointer) {
        let kind = String(cString: cgtk_object_type_name(object.raw))
        change(kind, by: 1)
        let name = strdup(kind)
        g_object_weak_ref(object.object, { data, _ in
            guard let data else { return }
            let name = data.assumingMemoryBound(to: CChar.self)
            LiveObjects.change(String(cString: name), by: -1)
            free(name)
        }, name)
    }

    /// Counts its owner (a Swift object holding it in a stored property) as alive until the
    /// owner goes.
    final class Token: Sendable {
        let kind: String
        init(_ kind: String) {
            self.kind = kind
            LiveObjects.change(kind, by: 1)
        }
        deinit { LiveObjects.change(kind, by: -1) }
    }

    static func change(_ kind: String, by delta: Int) {
        counts.withLock { $0[kind, default: 0] += delta }
    }

    /// The live objects of each kind (kinds with none left out).
    static func snapshot() -> [String: Int] {
        counts.withLock { $0.filter { $0.value != 0 } }
    }

    /// With tracing on, SIGUSR1 prints `trace live-objects TOTAL MS` (and, with
    /// `GPHOTOBROWSE_TRACE=all`, a `live KIND COUNT` line per kind before it): tests read it
    /// before and after opening and closing things, and require it flat.
    @MainActor
    static func traceOnSignal() {
        guard Trace.isEnabled else { return }
        g_unix_signal_add(SIGUSR1, { _ in
            // Counted once the main loop has nothing more urgent: after the idle callbacks
            // already queued (popovers unparented, dialogs finalized) have run.
            g_idle_add_full(G_PRIORITY_LOW, { _ in
                LiveObjects.traceCounts()
                return 0  // G_SOURCE_REMOVE
            }, nil, nil)
            return 1  // G_SOURCE_CONTINUE
        }, nil)
    }

    private static func traceCounts() {
        let counts = LiveObjects.snapshot()
        if Trace.tilesEnabled {
            for (kind, live) in counts.sorted(by: { $0.key < $1.key }) { printError("live \(kind) \(live)") }
        }
        Trace.milestone("live-objects", counts.values.reduce(0, +))
        // What was read from other machines so far: bytes, and files opened there.
        if Trace.tilesEnabled {
            let read = RemoteFileCopies.shared.totals
            Trace.milestone("remote-read", Int(read.bytes), read.files)
        }
    }
}
