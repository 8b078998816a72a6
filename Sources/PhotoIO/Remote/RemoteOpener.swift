import Bridge
import CGdkPixbuf
import Foundation
import PhotoCore

/// Opens files on other machines from one thread of its own, asynchronously: many opens in
/// flight over the network, and only that thread in GVfs's client code while it opens.
///
/// GVfs's client crashed (in its mount lookup, `g_mount_spec_match_with_path`) when six
/// worker threads opened files over sftp at once for minutes; opening from one thread with
/// GIO's asynchronous calls, as a file manager does on its main loop, keeps the opens
/// overlapping without that. The streams it opens are read from the callers' threads.
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

    /// `uri` opened for reading, waiting until it is (blocking: call from a worker).
    func read(_ uri: String) -> Result<GIORemoteStream, DecodeFailure> {
        let opened = Opening(uri: uri)
        let start: @Sendable () -> Void = { opened.start() }
        g_main_context_invoke_full(context, Int32(G_PRIORITY_DEFAULT), { data in
            CallbackBox.take(data!, as: (@Sendable () -> Void).self)()
            return 0  // G_SOURCE_REMOVE
        }, CallbackBox.retain(start), nil)
        opened.done.wait()
        return opened.result
    }

    /// One open under way: started on the opener's thread, finished there by GIO's callback.
    private final class Opening: @unchecked Sendable {
        let uri: String
        let done = DispatchSemaphore(value: 0)
        var result: Result<GIORemoteStream, DecodeFailure> = .failure(DecodeFailure(.unreadable, "not opened"))

        init(uri: String) { self.uri = uri }

        func start() {
            let file = g_file_new_for_uri(uri)
            let finish: (OpaquePointer?) -> Void = { [self] asyncResult in
                defer {
                    unref(file)
                    done.signal()
                }
                var error: UnsafeMutablePointer<GError>?
                guard let stream = g_file_read_finish(file, asyncResult, &error) else {
                    result = .failure(DecodeFailure(.unreadable, tr("The file could not be opened: %s", GIORemoteFiles.take(error))))
                    return
                }
                let name = g_file_get_basename(file).map { name in
                    defer { g_free(name) }
                    return String(cString: name)
                }
                result = .success(GIORemoteStream(stream, name: name))
            }
            g_file_read_async(file, Int32(G_PRIORITY_DEFAULT), nil, { _, asyncResult, data in
                CallbackBox.take(data!, as: ((OpaquePointer?) -> Void).self)(asyncResult)
            }, CallbackBox.retain(finish))
        }
    }
}
