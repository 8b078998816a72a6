import CGdkPixbuf
import PhotoCore

/// Where `RemoteFileCopies` reads files from: GIO's locations (`GIORemoteFiles`), or, in
/// tests, files kept in memory.
public protocol RemoteFiles: Sendable {
    func open(_ uri: String) -> Result<any RemoteStream, DecodeFailure>
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

/// GIO's streams: any location GVfs reaches (sftp, smb, WebDAV, MTP…), opened on the one
/// thread of `RemoteOpener`.
public struct GIORemoteFiles: RemoteFiles {
    public init() {}

    public func open(_ uri: String) -> Result<any RemoteStream, DecodeFailure> {
        RemoteOpener.shared.read(uri).map { $0 as any RemoteStream }
    }

    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        defer { if let error { g_error_free(error) } }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }
}

/// A `GFileInputStream`, owned.
final class GIORemoteStream: RemoteStream {
    private let stream: UnsafeMutablePointer<GFileInputStream>
    private var input: UnsafeMutablePointer<GInputStream> { UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self) }
    let name: String?

    init(_ stream: UnsafeMutablePointer<GFileInputStream>, name: String?) {
        self.stream = stream
        self.name = name
    }

    deinit { unref(stream) }

    var size: Int64? {
        guard let info = g_file_input_stream_query_info(stream, "standard::size", nil, nil) else { return nil }
        defer { unref(info) }
        return g_file_info_has_attribute(info, "standard::size") != 0 ? Int64(g_file_info_get_size(info)) : nil
    }

    func seek(to offset: Int) -> Bool {
        let seekable = OpaquePointer(stream)
        return g_seekable_can_seek(seekable) != 0 && g_seekable_seek(seekable, goffset(offset), G_SEEK_SET, nil, nil) != 0
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, DecodeFailure> {
        var error: UnsafeMutablePointer<GError>?
        let n = g_input_stream_read(input, buffer.baseAddress, gsize(buffer.count), nil, &error)
        guard n >= 0 else { return .failure(DecodeFailure(.unreadable, tr("The file could not be read: %s", GIORemoteFiles.take(error)))) }
        return .success(n)
    }

    func close() { g_input_stream_close(input, nil, nil) }
}
