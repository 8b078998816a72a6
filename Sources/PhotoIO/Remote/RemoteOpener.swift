import Bridge
import CGdkPixbuf
import Foundation
import PhotoCore

/// Runs GIO's calls on files on other machines from one thread of its own, asynchronously:
/// many opens and reads in flight over the network, only that thread in GVfs's client code,
/// and a caller that stops waiting as soon as its work is cancelled.
///
/// GVfs's client crashed (in its mount lookup, `g_mount_spec_match_with_path`) when six
/// worker threads opened files over sftp at once for minutes; opening from one thread with
/// GIO's asynchronous calls, as a file manager does on its main loop, keeps the opens
/// overlapping without that. A server that stops answering (its machine asleep, a network
/// gone without a word) leaves a GVfs call waiting for ever, cancellable or not (GVfs's
/// daemon waits for the server's answer before it says the call was cancelled): the caller
/// waits for GIO's answer or its `CancellationFlag`, whichever comes first, and a call left
/// behind finishes (or not) on the opener's thread, holding what it needs.
final class RemoteOpener: @unchecked Sendable {
    static let shared = RemoteOpener()

    /// The thread's main context, which it runs for ever (the process's).
    private let context: OpaquePointer

    private init() {
        context = g_main_context_new()
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            let loop = g_main_loop_new(context, 0)
            g_main_loop_run(loop)
        }
        thread.name = "remote-opener"
        thread.start()
    }

    /// `uri` opened for reading, waiting until it is (blocking: call from a worker), or
    /// cancelled. The stream's reads wait on the same `cancellation`.
    func read(_ uri: String, cancellation: CancellationFlag) -> Result<GIORemoteStream, DecodeFailure> {
        wait(for: cancellation) { cancellable, finish in
            let file = g_file_new_for_uri(uri)
            let done: (OpaquePointer?) -> Void = { asyncResult in
                defer { unref(file) }
                var error: UnsafeMutablePointer<GError>?
                guard let stream = g_file_read_finish(file, asyncResult, &error) else {
                    finish(.failure(GIORemoteFiles.failure(error) { tr("The file could not be opened: %s", $0) }))
                    return
                }
                let name = g_file_get_basename(file).map { name in
                    defer { g_free(name) }
                    return String(cString: name)
                }
                finish(.success(GIORemoteStream(stream, name: name, cancellation: cancellation)))
            }
            g_file_read_async(file, Int32(G_PRIORITY_DEFAULT), cancellable.pointer, { _, asyncResult, data in
                CallbackBox.take(data!, as: ((OpaquePointer?) -> Void).self)(asyncResult)
            }, CallbackBox.retain(done))
        }
    }

    /// Runs `start` on the opener's thread, which calls `finish` once with the outcome (from
    /// GIO's callback), and waits for it; a cancelled failure as soon as `cancellation` is
    /// set, whatever GIO does.
    func wait<Value: Sendable>(
        for cancellation: CancellationFlag,
        _ start: @escaping @Sendable (_ cancellable: GIOCancellable, _ finish: @escaping @Sendable (Result<Value, DecodeFailure>) -> Void) -> Void
    ) -> Result<Value, DecodeFailure> {
        let outcome = Outcome<Result<Value, DecodeFailure>>()
        let cancellable = GIOCancellable(cancellation)
        let told = cancellation.whenCancelled { outcome.done.signal() }
        let begin: @Sendable () -> Void = { start(cancellable, outcome.set) }
        g_main_context_invoke_full(context, Int32(G_PRIORITY_DEFAULT), { data in
            CallbackBox.take(data!, as: (@Sendable () -> Void).self)()
            return 0  // G_SOURCE_REMOVE
        }, CallbackBox.retain(begin), nil)
        outcome.done.wait()
        withExtendedLifetime(told) {}
        guard !cancellation.isCancelled, let value = outcome.take() else { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        return value
    }

    /// Starts `start` on the opener's thread and does not wait (closing a stream).
    func post(_ start: @escaping @Sendable () -> Void) {
        g_main_context_invoke_full(context, Int32(G_PRIORITY_DEFAULT), { data in
            CallbackBox.take(data!, as: (@Sendable () -> Void).self)()
            return 0  // G_SOURCE_REMOVE
        }, CallbackBox.retain(start), nil)
    }

    /// A call's outcome, handed from the opener's thread to the waiting one.
    private final class Outcome<Value>: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var value: Value?

        func set(_ value: Value) {
            lock.withLock { self.value = value }
            done.signal()
        }

        func take() -> Value? {
            lock.withLock {
                defer { value = nil }
                return value
            }
        }
    }
}

/// A GCancellable cancelled when a `CancellationFlag` is, for GIO's calls (which keep a
/// reference to it while they run).
final class GIOCancellable: @unchecked Sendable {
    private final class Held: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<GCancellable>
        init() { pointer = g_cancellable_new() }
        deinit { unref(pointer) }
    }
    private let held: Held
    private let registration: CancellationHandler

    var pointer: UnsafeMutablePointer<GCancellable> { held.pointer }

    init(_ flag: CancellationFlag) {
        let held = Held()
        self.held = held
        registration = flag.whenCancelled { g_cancellable_cancel(held.pointer) }
    }
}
