import Bridge
import CGdkPixbuf
import PhotoCore

/// Where `RemoteFileCopies` reads files from: GIO's locations (`GIORemoteFiles`), or, in
/// tests, files kept in memory.
public protocol RemoteFiles: Sendable {
    /// `uri` opened for reading; the open and the stream's reads stop waiting when
    /// `cancellation` is set.
    func open(_ uri: String, cancellation: CancellationFlag) -> Result<any RemoteStream, DecodeFailure>
}

/// A file on another machine, read from its start.
public protocol RemoteStream: AnyObject {
    /// The file's name, for the type its extension suggests.
    var name: String? { get }
    /// Its size, when the server says.
    var size: Int64? { get }
    /// Moves to `offset` from the start; false when the stream cannot seek.
    func seek(to offset: Int) -> Bool
    /// The next bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, DecodeFailure>
    func close()
}

/// GIO's streams: any location GVfs reaches (sftp, smb, WebDAV, MTP…), opened and read on
/// the one thread of `RemoteOpener`, the callers waiting there until GIO answers or their
/// work is cancelled.
public struct GIORemoteFiles: RemoteFiles {
    public init() {}

    public func open(_ uri: String, cancellation: CancellationFlag) -> Result<any RemoteStream, DecodeFailure> {
        RemoteOpener.shared.read(uri, cancellation: cancellation).map { $0 as any RemoteStream }
    }

    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        defer { if let error { g_error_free(error) } }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }

    /// The failure GIO's `error` says, its message put in words by `saying`; cancelled when it was.
    static func failure(_ error: UnsafeMutablePointer<GError>?, saying: (String) -> String) -> DecodeFailure {
        if let error, error.pointee.domain == g_io_error_quark(), error.pointee.code == Int32(G_IO_ERROR_CANCELLED.rawValue) {
            g_error_free(error)
            return DecodeFailure(.cancelled, "Cancelled")
        }
        return DecodeFailure(.unreadable, saying(take(error)))
    }
}

/// A `GFileInputStream`, owned. Read and asked its size on the opener's thread (the caller
/// waits, until its work is cancelled); closed there without waiting. Seeking goes to GVfs
/// from the caller's thread: the daemon answers it without asking the server.
final class GIORemoteStream: RemoteStream, @unchecked Sendable {
    private let stream: UnsafeMutablePointer<GFileInputStream>
    private var input: UnsafeMutablePointer<GInputStream> { UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self) }
    private let cancellation: CancellationFlag
    let name: String?

    init(_ stream: UnsafeMutablePointer<GFileInputStream>, name: String?, cancellation: CancellationFlag) {
        self.stream = stream
        self.name = name
        self.cancellation = cancellation
    }

    deinit { unref(stream) }

    var size: Int64? {
        let result: Result<Int64?, DecodeFailure> = RemoteOpener.shared.wait(for: cancellation) { [self] cancellable, finish in
            let done: (OpaquePointer?) -> Void = { [self] asyncResult in
                guard let info = g_file_input_stream_query_info_finish(stream, asyncResult, nil) else { return finish(.success(nil)) }
                defer { unref(info) }
                finish(.success(g_file_info_has_attribute(info, "standard::size") != 0 ? Int64(g_file_info_get_size(info)) : nil))
            }
            g_file_input_stream_query_info_async(stream, "standard::size", Int32(G_PRIORITY_DEFAULT), cancellable.pointer, { _, asyncResult, data in
                CallbackBox.take(data!, as: ((OpaquePointer?) -> Void).self)(asyncResult)
            }, CallbackBox.retain(done))
        }
        return (try? result.get()) ?? nil
    }

    func seek(to offset: Int) -> Bool {
        let seekable = OpaquePointer(stream)
        return g_seekable_can_seek(seekable) != 0 && g_seekable_seek(seekable, goffset(offset), G_SEEK_SET, nil, nil) != 0
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, DecodeFailure> {
        // GIO fills memory of the call's own, which lives as long as the call does: a call
        // left behind by a cancelled reader writes into nothing the reader still uses.
        let bytes = ReadBuffer(count: buffer.count)
        let result: Result<Int, DecodeFailure> = RemoteOpener.shared.wait(for: cancellation) { [self] cancellable, finish in
            let done: (OpaquePointer?) -> Void = { [self, bytes] asyncResult in
                var error: UnsafeMutablePointer<GError>?
                let n = g_input_stream_read_finish(input, asyncResult, &error)
                withExtendedLifetime(bytes) {}
                finish(n >= 0 ? .success(n) : .failure(GIORemoteFiles.failure(error) { tr("The file could not be read: %s", $0) }))
            }
            g_input_stream_read_async(input, bytes.pointer, gsize(bytes.count), Int32(G_PRIORITY_DEFAULT), cancellable.pointer, { _, asyncResult, data in
                CallbackBox.take(data!, as: ((OpaquePointer?) -> Void).self)(asyncResult)
            }, CallbackBox.retain(done))
        }
        if case .success(let n) = result, n > 0 { buffer.baseAddress!.copyMemory(from: bytes.pointer, byteCount: n) }
        return result
    }

    /// Closed on the opener's thread, not waited for: a server that stopped answering would
    /// hold the closing thread for ever. (A read still under way keeps the stream open.)
    func close() {
        RemoteOpener.shared.post { [self] in
            g_input_stream_close_async(input, Int32(G_PRIORITY_DEFAULT), nil, nil, nil)
        }
    }

    /// Memory for one read.
    private final class ReadBuffer: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let count: Int
        init(count: Int) {
            self.count = count
            pointer = UnsafeMutableRawPointer.allocate(byteCount: max(1, count), alignment: 16)
        }
        deinit { pointer.deallocate() }
    }
}
