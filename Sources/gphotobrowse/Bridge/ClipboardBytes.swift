import Bridge
import CGtk
import Foundation

/// Reading what the clipboard holds as bytes of a MIME type, asynchronously on the main loop
/// (the clipboard's streams are fed by the display's events): GDK's read, then a splice into
/// memory, bounded. Nothing here looks at the bytes.
@MainActor
enum ClipboardBytes {
    /// The clipboard's content as one of `types` (a NULL-ended list), as a stream; nil when it
    /// offers none of them.
    static func readAsync(_ clipboard: OpaquePointer?, types: inout [UnsafePointer<CChar>?],
                          _ done: @escaping @MainActor (UnsafeMutablePointer<GInputStream>?) -> Void) {
        typealias Done = @MainActor (UnsafeMutablePointer<GInputStream>?) -> Void
        types.withUnsafeMutableBufferPointer { list in
            gdk_clipboard_read_async(clipboard, list.baseAddress, Int32(G_PRIORITY_DEFAULT), nil, { source, result, data in
                let stream = gdk_clipboard_read_finish(OpaquePointer(source), result, nil, nil)
                let done = CallbackBox.take(data!, as: Done.self)
                let address = stream.map { UInt(bitPattern: $0) }
                MainActor.assumeIsolated { done(address.flatMap { UnsafeMutablePointer(bitPattern: $0) }) }
            }, CallbackBox.retain(done as Done))
        }
    }

    /// All of `stream` (which this closes and lets go), at most `limit` bytes, read a chunk
    /// at a time; nil when it fails or holds more.
    static func read(_ stream: UnsafeMutablePointer<GInputStream>, limit: Int, _ done: @escaping @MainActor (Data?) -> Void) {
        Reading(stream: stream, limit: limit, done: done).next()
    }

    /// One stream being read: its bytes so far.
    private final class Reading {
        let stream: UnsafeMutablePointer<GInputStream>
        let limit: Int
        let done: @MainActor (Data?) -> Void
        var bytes = Data()

        init(stream: UnsafeMutablePointer<GInputStream>, limit: Int, done: @escaping @MainActor (Data?) -> Void) {
            self.stream = stream
            self.limit = limit
            self.done = done
        }

        @MainActor func next() {
            typealias Chunk = @MainActor (OpaquePointer?) -> Void
            let chunk: Chunk = { [self] read in
                guard let read else { return end(nil) }
                defer { g_bytes_unref(read) }
                var size: gsize = 0
                guard let data = g_bytes_get_data(read, &size), size > 0 else { return end(bytes) }
                guard bytes.count + Int(size) <= limit else { return end(nil) }
                bytes.append(data.assumingMemoryBound(to: UInt8.self), count: Int(size))
                next()
            }
            g_input_stream_read_bytes_async(stream, 64 << 10, Int32(G_PRIORITY_DEFAULT), nil, { source, result, data in
                let read = g_input_stream_read_bytes_finish(UnsafeMutablePointer(OpaquePointer(source)), result, nil)
                let chunk = CallbackBox.take(data!, as: Chunk.self)
                let address = read.map { UInt(bitPattern: $0) }
                MainActor.assumeIsolated { chunk(address.flatMap { OpaquePointer(bitPattern: $0) }) }
            }, CallbackBox.retain(chunk))
        }

        @MainActor private func end(_ result: Data?) {
            g_input_stream_close(stream, nil, nil)
            g_object_unref(stream)
            done(result)
        }
    }
}
