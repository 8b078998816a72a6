import CGdkPixbuf
import Foundation
import Glibc
import PhotoCore
import Synchronization

/// Copies of files on other machines (sftp, smb, WebDAV, phones: any location GIO reaches
/// that is neither a local file nor the web), made as they are read so each is read over the
/// network once while the app shows it: the first bytes first (`Reach.prefix`, where a
/// photo's EXIF and embedded preview lie, enough for its date and a first look), the rest
/// when the photo itself is needed (its thumbnail, the viewer), carrying on from where the
/// first read stopped.
///
/// Copies are unlinked temporary files in the app's cache folder (nothing is left behind,
/// whatever happens to the process), handed out as descriptors of their own; the least
/// recently used go past `maxBytes` or `maxFiles`. The bytes are never parsed here: decoder
/// processes read the copies.
///
/// Blocking: call it on worker threads. Two readers of one file share one copy.
public final class RemoteFileCopies: Sendable {
    public static let shared = RemoteFileCopies()

    /// How much of a file a reader needs.
    public enum Reach: Sendable, Equatable {
        /// Its first bytes (or all of it, when it is shorter).
        case prefix(Int)
        case whole
    }

    /// The first bytes of a photo that hold its EXIF, and so its date and embedded preview,
    /// for most cameras and phones (a few KiB to tens of KiB).
    public static let metadataPrefix = 16 << 10
    /// The first bytes that hold the EXIF of any photo: a JPEG's APP1 segment is at most
    /// 64 KiB, after at most a JFIF segment; read when the first 16 KiB end within the EXIF.
    public static let largestMetadataPrefix = 128 << 10
    /// The largest file copied (a photo larger than this is not decoded from a server).
    public static let maxFileBytes = 512 << 20

    public let maxBytes: Int
    public let maxFiles: Int
    private let folder: String

    private final class Copy: @unchecked Sendable {
        /// Held while the copy grows, so one reader reads from the server at a time.
        let lock = NSLock()
        let fd: Int32
        // Guarded by `lock`.
        var copied = 0
        var isComplete = false
        var name: String?
        // Guarded by the table's mutex.
        var lastUse: UInt64 = 0
        var users = 0
        init(fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    private struct Table {
        var copies: [String: Copy] = [:]
        var clock: UInt64 = 0
        var bytesRead: Int64 = 0
        var opened = 0
        var observer: (@Sendable (String, DownloadProgress) -> Void)?
    }
    private let table = Mutex(Table())

    private let files: any RemoteFiles

    public init(folder: String = RemoteFileCopies.defaultFolder(), maxBytes: Int = 1 << 30, maxFiles: Int = 256,
                files: any RemoteFiles = GIORemoteFiles()) {
        self.folder = folder
        self.files = files
        self.maxBytes = maxBytes
        self.maxFiles = maxFiles
    }

    public static func defaultFolder() -> String {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return cache + "/gphotobrowse"
    }

    /// Whether `uri` names a file on another machine: not a local file, not the web.
    public static func isRemote(_ uri: String) -> Bool {
        !uri.lowercased().hasPrefix("file:") && !WebAddress.isWebAddress(uri) && uri.contains(":")
    }

    /// Calls `observer` (on the reading thread) as a copy of the whole file grows: at most
    /// ten times a second a file, and at its end. One observer for the process.
    public func observeProgress(_ observer: @escaping @Sendable (_ uri: String, _ progress: DownloadProgress) -> Void) {
        table.withLock { $0.observer = observer }
    }

    /// Bytes read from servers so far, and the files opened there, for benchmarks.
    public var totals: (bytes: Int64, files: Int) { table.withLock { ($0.bytesRead, $0.opened) } }

    /// A descriptor of the copy of `uri` holding at least `reach` of it (positioned at its
    /// start, closed by the caller), and the file's name.
    public func open(_ uri: String, reach: Reach, cancellation: CancellationFlag)
        -> Result<(fd: Int32, name: String?), DecodeFailure> {
        let copy: Copy
        switch take(uri) {
        case .success(let taken): copy = taken
        case .failure(let failure): return .failure(failure)
        }
        defer { giveBack(copy) }
        copy.lock.lock()
        defer { copy.lock.unlock() }
        let wanted: Int? = switch reach {
        case .prefix(let bytes): bytes
        case .whole: nil
        }
        if !copy.isComplete, wanted.map({ copy.copied < $0 }) ?? true {
            if let failure = grow(copy, uri: uri, to: wanted, cancellation: cancellation) { return .failure(failure) }
        }
        // A descriptor of its own (its own offset), from the copy's open file.
        let fd = Glibc.open("/proc/self/fd/\(copy.fd)", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(DecodeFailure(.unreadable, tr("The file could not be copied for decoding.")))
        }
        return .success((fd, copy.name))
    }

    /// Whether the whole of `uri` is here already.
    public func hasWhole(_ uri: String) -> Bool {
        guard let copy = table.withLock({ $0.copies[uri] }) else { return false }
        copy.lock.lock()
        defer { copy.lock.unlock() }
        return copy.isComplete
    }

    /// Forgets the copies of files within `folderURI` (the folder was closed).
    public func forget(under folderURI: String) {
        let prefix = folderURI.hasSuffix("/") ? folderURI : folderURI + "/"
        table.withLock { table in
            for (uri, copy) in table.copies where uri.hasPrefix(prefix) && copy.users == 0 { table.copies[uri] = nil }
        }
    }

    // MARK: The table

    private func take(_ uri: String) -> Result<Copy, DecodeFailure> {
        if let copy = table.withLock({ table -> Copy? in
            guard let copy = table.copies[uri] else { return nil }
            table.clock += 1
            copy.lastUse = table.clock
            copy.users += 1
            return copy
        }) {
            return .success(copy)
        }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var template = Array((folder + "/remote-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        guard fd >= 0 else { return .failure(DecodeFailure(.unreadable, tr("The file could not be copied for decoding."))) }
        // Unlinked at once: the copy lives as long as its descriptor.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let made = Copy(fd: fd)
        return .success(table.withLock { table in
            // Another reader may have made one meanwhile: theirs is kept.
            let copy = table.copies[uri] ?? made
            table.copies[uri] = copy
            table.clock += 1
            copy.lastUse = table.clock
            copy.users += 1
            return copy
        })
    }

    private func giveBack(_ copy: Copy) {
        table.withLock { table in
            copy.users -= 1
            evict(&table)
        }
    }

    /// Lets the least recently used copies go, past the limits (not those being read).
    private func evict(_ table: inout Table) {
        func size(_ copy: Copy) -> Int {
            var status = stat()
            return fstat(copy.fd, &status) == 0 ? Int(status.st_size) : 0
        }
        var total = table.copies.values.reduce(0) { $0 + size($1) }
        guard total > maxBytes || table.copies.count > maxFiles else { return }
        for (uri, copy) in table.copies.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where copy.users == 0 {
            guard total > maxBytes || table.copies.count > maxFiles else { break }
            total -= size(copy)
            table.copies[uri] = nil
        }
    }

    // MARK: Reading from the server

    /// Copies more of the file: up to `limit` bytes (a little more: whole chunks), or all of
    /// it. Called with the copy's lock held.
    private func grow(_ copy: Copy, uri: String, to limit: Int?, cancellation: CancellationFlag) -> DecodeFailure? {
        let stream: any RemoteStream
        switch files.open(uri, cancellation: cancellation) {
        case .success(let opened): stream = opened
        case .failure(let failure): return failure
        }
        defer { stream.close() }
        if copy.name == nil { copy.name = stream.name }
        table.withLock { $0.opened += 1 }
        let total: Int64? = limit == nil ? stream.size : nil
        // Carry on from where the last read stopped: seek where the server allows it, else
        // read past what is here already (the start of a photo, a few KiB).
        if copy.copied > 0, !stream.seek(to: copy.copied) {
            var left = copy.copied
            var scratch = [UInt8](repeating: 0, count: 64 << 10)
            while left > 0 {
                switch scratch.withUnsafeMutableBytes({ stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0.prefix(left))) }) {
                case .failure(let failure): return failure
                case .success(0): return DecodeFailure(.unreadable, tr("The file could not be read: %s", tr("it is shorter than before")))
                case .success(let n):
                    left -= n
                    table.withLock { $0.bytesRead += Int64(n) }
                }
            }
        }
        let observer = limit == nil ? table.withLock({ $0.observer }) : nil
        var lastTold = 0.0
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while limit.map({ copy.copied < $0 }) ?? true {
            if cancellation.isCancelled { return DecodeFailure(.cancelled, "Cancelled") }
            let n: Int
            // No more than is asked for: the first bytes of thousands of photos add up.
            let wanted = limit.map { max(4096, min(buffer.count, $0 - copy.copied)) } ?? buffer.count
            switch buffer.withUnsafeMutableBytes({ stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0.prefix(wanted))) }) {
            case .failure(let failure): return failure
            case .success(let read): n = read
            }
            if n == 0 {
                copy.isComplete = true
                break
            }
            table.withLock { $0.bytesRead += Int64(n) }
            guard copy.copied + n <= Self.maxFileBytes else {
                return DecodeFailure(.tooLarge, tr("The file is too large to open safely from this location."))
            }
            let written = buffer.withUnsafeBytes { pwrite(copy.fd, $0.baseAddress, n, off_t(copy.copied)) }
            guard written == n else { return DecodeFailure(.unreadable, tr("The file could not be copied for decoding.")) }
            copy.copied += n
            if let observer {
                let now = Date.timeIntervalSinceReferenceDate
                if now - lastTold >= 0.1 {
                    lastTold = now
                    observer(uri, DownloadProgress(received: Int64(copy.copied), total: total))
                }
            }
        }
        if copy.isComplete, let observer { observer(uri, DownloadProgress(received: Int64(copy.copied), total: Int64(copy.copied))) }
        return nil
    }
}
