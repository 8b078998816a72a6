import Bridge
import CGtk
import Dispatch
import Foundation
import Glibc
import PhotoCore

// libdispatch's hooks for a foreign run loop (CoreFoundation uses them on Linux): a file
// descriptor that becomes readable when the main queue has work, and the call that drains it.
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32

@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueCallback(_ message: UnsafeMutableRawPointer?)

/// Lets Swift concurrency run under the GLib main loop.
///
/// GLib owns the main thread, so nothing drains Dispatch's main queue by itself: neither
/// `DispatchQueue.main.async` nor `@MainActor` tasks would ever run. Watching the main
/// queue's file descriptor from GLib drains it whenever work is posted, event-driven.
///
/// On Linux the descriptor is an eventfd that libdispatch writes to but does not reset when
/// draining; left readable, it would make GLib spin and starve painting. So the callback
/// reads it (non-blocking) first, then drains the queue.
enum MainLoop {
    static func attachDispatchMainQueue() {
        let fd = dispatchMainQueueHandle()
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        g_unix_fd_add(fd, G_IO_IN, { fd, _, _ in
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            dispatchMainQueueCallback(nil)
            return 1  // G_SOURCE_CONTINUE
        }, nil)
    }
}

extension MainLoop {
    /// With tracing on and `GPHOTOBROWSE_HEARTBEAT=MS`, prints `trace heartbeat MS` every MS
    /// milliseconds from the main loop: where the lines stop coming, the loop stalled.
    @MainActor
    static func startHeartbeat() {
        guard Trace.isEnabled, let text = ProcessInfo.processInfo.environment["GPHOTOBROWSE_HEARTBEAT"],
              let interval = UInt32(text), interval > 0 else { return }
        g_timeout_add(interval, { _ in
            Trace.milestone("heartbeat")
            return 1  // G_SOURCE_CONTINUE
        }, nil)
    }
}

/// Runs `work` on the main thread, after everything already posted there (FIFO).
func onMain(_ work: @escaping @MainActor @Sendable () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated(work) }
}

/// A main-thread object that a worker's result goes back to, reached only on the main
/// thread: a worker holding `[weak self]` would hold the object strongly for a moment each
/// time it captures it again, and could be the last to let it go, running its deinit (and
/// the GTK objects it releases) on the worker. The worker holds this instead.
final class MainThreadOwner<Object: AnyObject>: Sendable {
    nonisolated(unsafe) private weak var object: Object?

    @MainActor init(_ object: Object) { self.object = object }

    /// Runs `work` with the object on the main thread, if it is still there then.
    func onMain(_ work: @escaping @MainActor @Sendable (Object) -> Void) {
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                guard let object else { return }
                work(object)
            }
        }
    }
}

/// A GLib timeout that calls `work` once after `milliseconds`; returns the source id.
@MainActor @discardableResult
func after(milliseconds: UInt32, _ work: @escaping @MainActor () -> Void) -> UInt32 {
    typealias H = @MainActor () -> Void
    return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
        MainActor.assumeIsolated { CallbackBox.value(data!, as: H.self)() }
        return 0  // G_SOURCE_REMOVE
    }, CallbackBox.retain(work as H), { CallbackBox.release($0) })
}

/// Calls `work` once the main loop is idle, after every event, redraw and higher-priority
/// idle callback pending (GTK's own layout work included).
@MainActor
func whenIdle(_ work: @escaping @MainActor () -> Void) {
    typealias H = @MainActor () -> Void
    g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { data in
        MainActor.assumeIsolated { CallbackBox.value(data!, as: H.self)() }
        return 0  // G_SOURCE_REMOVE
    }, CallbackBox.retain(work as H), { CallbackBox.release($0) })
}
