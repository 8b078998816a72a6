import CGdkPixbuf
import CSoup
import Dispatch
import Foundation
import PhotoCore

/// A downloaded file: the cache entry holding it, and how fresh it is.
public struct DownloadedFile: Sendable, Equatable {
    public enum Freshness: Sendable, Equatable {
        /// The body came now.
        case downloaded
        /// The server said the cached copy is current (a 304): nothing was downloaded.
        case confirmed
        /// Taken from the cache without asking the server (`CachePolicy.preferCached`).
        case cached
        /// The server could not be reached, or failed: this is the copy cached before.
        /// `WebFailure.isOffline` tells whether to say "offline".
        case stale(WebFailure)
    }

    public let entry: WebCacheEntry
    public let freshness: Freshness

    /// The body's file, complete.
    public var path: String { entry.path }

    /// Whether the copy is shown because the server could not be reached.
    public var isOffline: Bool {
        if case .stale(let failure) = freshness { return failure.isOffline }
        return false
    }
}

/// One download into the disk cache: the address's body streamed to a file in chunks (never
/// whole in memory), with progress and cancellation.
///
/// With a copy in the cache the request is conditional (If-None-Match, If-Modified-Since),
/// and a 304 keeps the copy without downloading anything. A failure leaves nothing in the
/// cache: the body is written to a temporary file, renamed into place only when it is
/// complete (its announced length reached, within the byte limit, of the content expected).
/// When the server cannot be reached (or fails, or the connection breaks), a copy cached
/// before comes back marked stale instead of the failure. A 404 removes the copy.
///
/// `run` blocks: call it on a worker thread, never the main thread (`result` does that).
/// Downloads of the same address in one process take turns, so the second is a cheap
/// revalidation.
///
/// `@unchecked Sendable`: its only mutable state is a GCancellable, which GIO documents as
/// safe to cancel from any thread.
public final class WebDownload: @unchecked Sendable {
    public let request: WebRequest
    private let client: WebClient
    private let cache: WebCache
    private let cancellable: UnsafeMutablePointer<GCancellable>

    /// How much is read at a time: all the memory a download holds for its body.
    static let chunkSize = 64 * 1024

    public init(_ request: WebRequest, client: WebClient = .shared, cache: WebCache) {
        self.request = request
        self.client = client
        self.cache = cache
        cancellable = g_cancellable_new()
    }

    deinit { g_object_unref(cancellable) }

    /// Stops the download; `run` returns `.cancelled` soon after, leaving nothing behind.
    public func cancel() { g_cancellable_cancel(cancellable) }

    public var isCancelled: Bool { g_cancellable_is_cancelled(cancellable) != 0 }

    /// Downloads (or revalidates) the address into the cache. `progress` is called on this
    /// thread after the answer's headers and after every chunk.
    public func run(progress: (DownloadProgress) -> Void = { _ in }) -> Result<DownloadedFile, WebFailure> {
        guard request.isWebAddress else { return .failure(.badAddress(request.url)) }
        if request.cachePolicy == .preferCached, let entry = cache.entry(for: request.url) {
            return .success(DownloadedFile(entry: entry, freshness: .cached))
        }
        guard cache.claim(request.url, isCancelled: { isCancelled }) else { return .failure(.cancelled) }
        defer { cache.release(request.url) }
        if isCancelled { return .failure(.cancelled) }
        let copy = cache.entry(for: request.url)
        if request.cachePolicy == .preferCached, let copy {
            return .success(DownloadedFile(entry: copy, freshness: .cached))
        }
        return client.withSession { session in
            let result = fetch(session, copy: copy, progress: progress)
            guard case .failure(let failure) = result else { return result }
            if let copy, failure.letsCachedCopyStandIn {
                return .success(DownloadedFile(entry: copy, freshness: .stale(failure)))
            }
            return result
        }
    }

    /// Runs the download on a worker thread; cancelling the task cancels it. `progress` is
    /// called on that thread.
    public func result(progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }) async -> Result<DownloadedFile, WebFailure> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // The awaiting task's work: cancelling the task cancels it (below).
                DispatchQueue.global(qos: .utility).async {
                    continuation.resume(returning: self.run(progress: progress))
                }
            }
        } onCancel: {
            cancel()
        }
    }

    // MARK: - The exchange

    private func fetch(
        _ session: UnsafeMutablePointer<SoupSession>, copy: WebCacheEntry?, progress: (DownloadProgress) -> Void
    ) -> Result<DownloadedFile, WebFailure> {
        let host = request.host
        guard let message = soup_message_new("GET", request.url) else { return .failure(.badAddress(request.url)) }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        let asked = soup_message_get_request_headers(message)
        soup_message_headers_append(asked, "Accept", request.content == .photo ? "image/*, */*;q=0.5" : "*/*")
        if let copy {
            if let etag = copy.etag { soup_message_headers_append(asked, "If-None-Match", etag) }
            if let date = copy.lastModified { soup_message_headers_append(asked, "If-Modified-Since", date) }
        }

        var error: UnsafeMutablePointer<GError>?
        guard let stream = soup_session_send(session, message, cancellable, &error) else {
            defer { g_error_free(error) }
            return .failure(.error(error, message: message, host: host))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }

        let status = Int(soup_message_get_status(message).rawValue)
        let answer = soup_message_get_response_headers(message)
        if status == 304 {
            guard let copy else {
                abandon(stream)
                return .failure(.notModifiedWithoutCopy(host: host))
            }
            g_input_stream_close(stream, nil, nil)
            let confirmed = cache.confirm(copy, etag: header(answer, "ETag"), lastModified: header(answer, "Last-Modified"),
                                          finalURL: finalURL(of: message))
            return .success(DownloadedFile(entry: confirmed, freshness: .confirmed))
        }
        guard status == 200 || status == 203 else {
            abandon(stream)
            let reason = soup_message_get_reason_phrase(message).map { String(cString: $0) }
            let failure = WebFailure.status(status, reason: reason, host: host)
            if failure.kind == .notFound { cache.remove(request.url) }
            return .failure(failure)
        }

        let contentType = soup_message_headers_get_content_type(answer, nil).map { String(cString: $0).lowercased() }
        if request.content == .photo, contentType == "text/html" || contentType == "application/xhtml+xml" {
            abandon(stream)
            return .failure(.notAPhoto)
        }
        let announced: Int64? = soup_message_headers_get_encoding(answer) == SOUP_ENCODING_CONTENT_LENGTH
            ? Int64(soup_message_headers_get_content_length(answer)) : nil
        if let announced, announced > request.byteLimit {
            abandon(stream)
            return .failure(.tooLarge(limit: request.byteLimit))
        }
        // A compressed body's announced length is that of the compressed bytes.
        let coding = header(answer, "Content-Encoding")?.lowercased()
        let total = coding == nil || coding == "identity" ? announced : nil

        let body: PendingBody
        do {
            body = try cache.beginBody(for: request.url)
        } catch {
            abandon(stream)
            return .failure(error)
        }
        if let failure = copyBody(of: stream, into: body, total: total, host: host, message: message, progress: progress) {
            body.abandon()
            abandon(stream)
            return .failure(failure)
        }
        g_input_stream_close(stream, nil, nil)
        let now = Int64(Date().timeIntervalSince1970)
        let record = EntryRecord(
            url: request.url, finalURL: finalURL(of: message), size: body.written, contentType: header(answer, "Content-Type"),
            etag: header(answer, "ETag"), lastModified: header(answer, "Last-Modified"), stored: now, checked: now
        )
        do {
            return .success(DownloadedFile(entry: try cache.store(body, as: record), freshness: .downloaded))
        } catch {
            return .failure(error)
        }
    }

    /// Copies the body into `body` a chunk at a time; nil when it came whole.
    private func copyBody(
        of stream: UnsafeMutablePointer<GInputStream>, into body: PendingBody, total: Int64?, host: String,
        message: OpaquePointer, progress: (DownloadProgress) -> Void
    ) -> WebFailure? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        progress(DownloadProgress(received: 0, total: total))
        // Progress is measured over windows of `slowest.seconds`.
        var windowStart = ProcessInfo.processInfo.systemUptime
        var windowBytes: Int64 = 0
        while true {
            var error: UnsafeMutablePointer<GError>?
            let count = g_input_stream_read(stream, buffer.baseAddress, gsize(buffer.count), cancellable, &error)
            if count < 0 {
                defer { g_error_free(error) }
                return .error(error, message: message, host: host)
            }
            if count == 0 { break }
            if body.written + Int64(count) > request.byteLimit { return .tooLarge(limit: request.byteLimit) }
            do throws(POSIXError) {
                try body.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            } catch {
                return WebCache.storeFailure(error.code.rawValue)
            }
            progress(DownloadProgress(received: body.written, total: total))
            windowBytes += Int64(count)
            let now = ProcessInfo.processInfo.systemUptime
            if now - windowStart >= request.slowest.seconds {
                if windowBytes < request.slowest.bytes { return .tooSlow(host: host) }
                windowStart = now
                windowBytes = 0
            }
        }
        if isCancelled { return .cancelled }
        // libsoup reports a body cut short of its Content-Length; this holds whatever it does.
        if let total, body.written != total { return .incomplete(host: host) }
        return nil
    }

    /// Closes an answer whose body is not wanted without reading the rest of it (libsoup
    /// would otherwise read it to the end to keep the connection): the connection is dropped.
    private func abandon(_ stream: UnsafeMutablePointer<GInputStream>) {
        let stop = g_cancellable_new()
        g_cancellable_cancel(stop)
        g_input_stream_close(stream, stop, nil)
        g_object_unref(stop)
    }

    /// The address the answer came from, after the redirections libsoup followed.
    private func finalURL(of message: OpaquePointer) -> String? {
        guard let uri = soup_message_get_uri(message), let text = g_uri_to_string(uri) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    private func header(_ headers: OpaquePointer?, _ name: String) -> String? {
        soup_message_headers_get_one(headers, name).map { String(cString: $0) }
    }
}
