import CGdkPixbuf
import Foundation
import Glibc
import PhotoCore
import Synchronization

/// The disk cache of downloads: `$XDG_CACHE_HOME/gphotobrowse/http/`.
///
/// An entry is two files named by the SHA-256 of its address: `KEY.data`, the body, and
/// `KEY.entry`, a small record of our own (address, ETag, Last-Modified, content type, size,
/// dates; `EntryRecord`). A body is written to a temporary name in the folder (`PendingBody`)
/// and renamed only once complete, so a half-downloaded body is never taken for an entry; an
/// entry counts only when its record names its address and its body has the recorded size.
///
/// The cache keeps to a size (`capacity`, 1 GiB by default): storing past it removes the
/// entries least recently used first, never the one just stored. "Used" is the body's
/// modification time, set to a stamp of our own at every store, revalidation and lookup,
/// so processes sharing the folder share the order too.
///
/// This layer moves bytes and never parses a body. Everything here is file I/O: call it on
/// worker threads.
public final class WebCache: Sendable {
    public static let defaultCapacity: Int64 = 1 << 30

    /// `$XDG_CACHE_HOME/gphotobrowse/http`.
    public static var defaultFolder: String {
        String(cString: g_get_user_cache_dir()) + "/gphotobrowse/http"
    }

    public let folder: String
    /// The most bytes the entries may take together.
    public let capacity: Int64

    private struct State {
        /// The bytes the entries take, as far as this process knows; nil until first counted.
        var estimatedSize: Int64?
        /// The entries being downloaded by this process, one download per entry at a time.
        var busy: Set<String> = []
    }

    private let state = Mutex(State())
    /// Signalled when an entry stops being busy.
    private let released = NSCondition()

    public init(folder: String = WebCache.defaultFolder, capacity: Int64 = WebCache.defaultCapacity) {
        self.folder = folder
        self.capacity = capacity
    }

    // MARK: - Looking up

    /// The complete entry for `url`, marked as just used; nil when there is none.
    public func entry(for url: String) -> WebCacheEntry? {
        guard let entry = validEntry(for: url) else { return nil }
        markUsed(entry.path)
        return entry
    }

    /// Whether a complete entry for `url` is stored (without marking it used).
    public func contains(_ url: String) -> Bool { validEntry(for: url) != nil }

    /// Removes the entry for `url`, if any.
    public func remove(_ url: String) {
        let key = Self.key(for: url)
        let data = dataPath(key)
        var status = stat()
        let size = stat(data, &status) == 0 ? Int64(status.st_size) : 0
        if unlink(data) == 0 {
            state.withLock { if let known = $0.estimatedSize { $0.estimatedSize = max(0, known - size) } }
        }
        unlink(recordPath(key))
    }

    /// The bytes the entries take now (a walk of the folder).
    public func storedSize() -> Int64 {
        scan().entries.reduce(0) { $0 + $1.size }
    }

    // MARK: - Names

    /// The SHA-256 of the address, in hexadecimal: an entry's name.
    static func key(for url: String) -> String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, url, -1)!
        defer { g_free(digest) }
        return String(cString: digest)
    }

    func dataPath(_ key: String) -> String { folder + "/" + key + ".data" }
    func recordPath(_ key: String) -> String { folder + "/" + key + ".entry" }

    private func validEntry(for url: String) -> WebCacheEntry? {
        let key = Self.key(for: url)
        guard let record = EntryRecord.load(recordPath(key)), record.url == url else { return nil }
        var status = stat()
        let data = dataPath(key)
        guard stat(data, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int64(status.st_size) == record.size else {
            return nil
        }
        return record.entry(path: data)
    }

    // MARK: - Storing (for `WebDownload`)

    /// Waits until no other download of this process is busy with `url`'s entry, then marks
    /// it busy; false when `isCancelled` became true while waiting.
    func claim(_ url: String, isCancelled: () -> Bool) -> Bool {
        let key = Self.key(for: url)
        released.lock()
        defer { released.unlock() }
        while !state.withLock({ $0.busy.insert(key).inserted }) {
            if isCancelled() { return false }
            _ = released.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        return true
    }

    /// Ends a `claim`.
    func release(_ url: String) {
        let key = Self.key(for: url)
        released.lock()
        state.withLock { _ = $0.busy.remove(key) }
        released.broadcast()
        released.unlock()
    }

    /// A temporary file for `url`'s body, in the cache folder.
    func beginBody(for url: String) throws(WebFailure) -> PendingBody {
        guard g_mkdir_with_parents(folder, 0o700) == 0 else { throw Self.storeFailure(errno) }
        do {
            return try PendingBody(key: Self.key(for: url), folder: folder)
        } catch {
            throw Self.storeFailure(error.code.rawValue)
        }
    }

    /// Makes the complete `body` the entry for `record.url` (replacing any), then keeps the
    /// cache to its capacity. On failure nothing of it is left.
    func store(_ body: PendingBody, as record: EntryRecord) throws(WebFailure) -> WebCacheEntry {
        do {
            try body.finish()
        } catch {
            body.abandon()
            throw Self.storeFailure(error.code.rawValue)
        }
        markUsed(body.path)
        let data = dataPath(body.key), recordFile = recordPath(body.key)
        guard rename(body.path, data) == 0 else {
            let code = errno
            body.abandon()
            throw Self.storeFailure(code)
        }
        body.committed()
        if let problem = record.save(recordFile) {
            unlink(data)
            unlink(recordFile)
            throw WebFailure(.cannotStore, tr("The download could not be kept in the cache: %s", problem))
        }
        let added = record.size
        let overCapacity = state.withLock { state -> Bool in
            guard let known = state.estimatedSize else { return true }
            state.estimatedSize = known + added
            return known + added > capacity
        }
        if overCapacity { trim(keeping: body.key) }
        return record.entry(path: data)
    }

    /// Records that the server confirmed `entry` (a 304), with the validators it sent, and
    /// marks it used.
    func confirm(_ entry: WebCacheEntry, etag: String?, lastModified: String?, finalURL: String? = nil,
                 now: Date = Date()) -> WebCacheEntry {
        let record = EntryRecord(
            url: entry.url, finalURL: finalURL ?? entry.finalURL, size: entry.size, contentType: entry.contentType,
            etag: etag ?? entry.etag, lastModified: lastModified ?? entry.lastModified,
            stored: Int64(entry.stored.timeIntervalSince1970), checked: Int64(now.timeIntervalSince1970)
        )
        // The record is only advice: a failure to rewrite it keeps the old one, still valid.
        _ = record.save(recordPath(Self.key(for: entry.url)))
        markUsed(entry.path)
        return record.entry(path: entry.path)
    }

    static func storeFailure(_ code: Int32) -> WebFailure {
        WebFailure(.cannotStore, tr("The download could not be kept in the cache: %s", String(cString: strerror(code))))
    }

    // MARK: - Least recently used

    /// Sets the body's times to a stamp later than any this process gave before.
    private func markUsed(_ path: String) {
        let stamp = UseStamp.next()
        let time = timespec(tv_sec: Int(stamp / 1_000_000_000), tv_nsec: Int(stamp % 1_000_000_000))
        var times = [time, time]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// Removes the entries least recently used until the cache fits its capacity, never
    /// `kept` or an entry another download of this process is busy with; removes leftovers
    /// (temporary files, halves of entries) older than an hour, which no download still writes.
    public func trim(keeping kept: String? = nil) {
        let found = scan()
        let busy = state.withLock { $0.busy }
        for leftover in found.leftovers { unlink(folder + "/" + leftover) }
        var total = found.entries.reduce(0) { $0 + $1.size }
        for entry in found.entries.sorted(by: { $0.used < $1.used }) {
            guard total > capacity else { break }
            guard entry.key != kept, !busy.contains(entry.key) else { continue }
            unlink(dataPath(entry.key))
            unlink(recordPath(entry.key))
            total -= entry.size
        }
        state.withLock { $0.estimatedSize = total }
    }

    private struct ScannedEntry {
        let key: String
        /// The body's and the record's bytes.
        let size: Int64
        /// The body's modification time, in nanoseconds.
        let used: Int64
    }

    /// The folder's entries, and the names of leftovers to remove.
    private func scan(now: Date = Date()) -> (entries: [ScannedEntry], leftovers: [String]) {
        guard let directory = opendir(folder) else { return ([], []) }
        defer { closedir(directory) }
        var data: [String: (size: Int64, used: Int64, age: Double)] = [:]
        var records: [String: (size: Int64, age: Double)] = [:]
        var others: [(name: String, age: Double)] = []
        let clock = now.timeIntervalSince1970
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            if name == "." || name == ".." { continue }
            var status = stat()
            guard lstat(folder + "/" + name, &status) == 0 else { continue }
            let used = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
            let age = clock - Double(status.st_mtim.tv_sec)
            if name.hasSuffix(".data"), status.st_mode & S_IFMT == S_IFREG {
                data[String(name.dropLast(5))] = (Int64(status.st_size), used, age)
            } else if name.hasSuffix(".entry"), status.st_mode & S_IFMT == S_IFREG {
                records[String(name.dropLast(6))] = (Int64(status.st_size), age)
            } else {
                others.append((name, age))
            }
        }
        let hour = 3600.0
        var entries: [ScannedEntry] = []
        var leftovers = others.filter { $0.age > hour }.map(\.name)
        for (key, body) in data {
            if let record = records[key] {
                entries.append(ScannedEntry(key: key, size: body.size + record.size, used: body.used))
            } else if body.age > hour {
                leftovers.append(key + ".data")
            }
        }
        for (key, record) in records where data[key] == nil && record.age > hour {
            leftovers.append(key + ".entry")
        }
        return (entries, leftovers)
    }
}

/// Use stamps: nanoseconds of the wall clock, strictly increasing within the process (two
/// uses in the same clock tick still get an order).
private enum UseStamp {
    private static let last = Mutex<Int64>(0)

    static func next() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let clock = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        return last.withLock { last in
            last = max(clock, last + 1)
            return last
        }
    }
}
