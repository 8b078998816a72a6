import CGdkPixbuf
import Foundation
import PhotoCore
import Synchronization

/// The photo index: what was read of each photo (its marks, the camera and date its EXIF
/// names) kept between runs, so that a folder opened again knows them without reading a
/// file. It is not searched itself: a search scans the folder's `SearchCorpus` in memory,
/// which takes the marks and facts the index gives at open (see docs/benchmarks.md: a word
/// index finds a word's start only, and a word most photos hold in more time than a key has).
///
/// A cache and nothing more: the sidecars and the photos stay the truth. Each row holds the
/// file's size and modification time, and a stamp of its sidecars (`PhotoMarksStore
/// .sidecarStamp`) when its marks were read; a row whose file or sidecars changed since is not
/// used. The database is `<cache home>/gphotobrowse/index-v1.sqlite`, written through
/// SQLite's own journal (WAL); one that is damaged, not SQLite, or of another version is
/// deleted and made again. Deleting it loses nothing but time.
///
/// Blocking: call on a worker. Calls are serialised by a lock.
public final class PhotoIndex: Sendable {
    public static let formatVersion: Int64 = 3

    /// What the index knows of a photo whose file (and sidecars) are what they were.
    public struct Known: Sendable, Equatable {
        /// Nil when its marks were not read, or its sidecars changed since.
        public var marks: PhotoMarks?
        /// Nil when its EXIF was not read.
        public var facts: Facts?
    }

    /// What a photo's EXIF names that a search looks at.
    public struct Facts: Sendable, Equatable {
        public var camera: String
        /// µs since 1970 (`ExifDate`); nil when it names no date.
        public var taken: Int64?

        public init(camera: String, taken: Int64?) {
            self.camera = camera
            self.taken = taken
        }
    }

    /// A photo's file as it is on disk.
    public struct FileState: Sendable, Equatable {
        public var uri: String
        public var size: Int64
        public var modified: Int64

        public init(uri: String, size: Int64, modified: Int64) {
            self.uri = uri
            self.size = size
            self.modified = modified
        }
    }

    /// One thing read of a photo, to keep.
    public enum Update: Sendable, Equatable {
        case marks(PhotoMarks, file: FileState, sidecarStamp: Int64)
        case facts(Facts, file: FileState)
        /// The photo is gone.
        case removed(String)
    }

    public let path: String
    private let connection = Mutex<Connection?>(nil)

    /// The process's index, under the user's cache folder.
    public static let shared = PhotoIndex()

    /// - Parameter cacheHome: the folder holding `gphotobrowse/index-v1.sqlite`; nil for the
    ///   user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`). Tests pass a temporary one.
    public init(cacheHome: String? = nil) {
        let home = cacheHome ?? String(cString: g_get_user_cache_dir())
        path = home + "/gphotobrowse/index-v1.sqlite"
    }

    /// What is known of each of `files` still valid, by URI; `sidecarStamp` gives each photo's
    /// sidecars' stamp now (asked only of photos whose marks are kept).
    public func known(_ files: [FileState], sidecarStamp: (String) -> Int64) -> [String: Known] {
        var result: [String: Known] = [:]
        known(files, sidecarStamp: sidecarStamp) { result[files[$0].uri] = $1 }
        return result
    }

    /// What is known of each of `files` still valid, given to `found` with the file's place in
    /// `files` as the table is read: for a folder of 100,000 photos no table of every row, nor
    /// of every photo's marks and facts (about 100 MB together), is held at once.
    public func known(_ files: [FileState], sidecarStamp: (String) -> Int64, found: (Int, Known) -> Void) {
        _ = use { db throws -> Bool in
            func take(_ row: [SQLiteDatabase.Value], _ place: Int) {
                let file = files[place]
                guard row[1].int == file.size, row[2].int == file.modified else { return }
                var entry = Known()
                if let stamp = row[3].int, stamp == sidecarStamp(file.uri) {
                    entry.marks = PhotoMarks(favourite: row[4].int == 1, rating: Int(row[5].int ?? 0),
                                             tags: (row[6].text ?? "").split(separator: "\n").map(String.init),
                                             places: PlaceNames(lines: row[10].text ?? ""))
                }
                if row[7].int == 1 { entry.facts = Facts(camera: CameraNames.shared(row[8].text ?? ""), taken: row[9].int) }
                if entry.marks != nil || entry.facts != nil { found(place, entry) }
            }
            let columns = "SELECT uri, size, modified, sidecar, favourite, rating, tags, facts, camera, taken, places FROM photos"
            if files.count < 256 {
                let find = try db.prepare(columns + " WHERE uri = ?")
                for (place, file) in files.enumerated() { try find.run([.text(file.uri)]) { take($0, place) } }
                return true
            }
            // One pass over the table: for a folder of 100,000 photos, quicker than 100,000 look-ups.
            var places: [String: Int] = [:]
            places.reserveCapacity(files.count)
            for (place, file) in files.enumerated() where places[file.uri] == nil { places[file.uri] = place }
            try db.prepare(columns).run { row in
                if let uri = row[0].text, let place = places[uri] { take(row, place) }
            }
            return true
        }
    }

    /// Keeps what was read, in one transaction. A photo whose file changed since its row was
    /// written keeps only what is given now.
    public func record(_ updates: [Update]) {
        guard !updates.isEmpty else { return }
        _ = use { db throws -> Void in
            try db.transaction { () throws -> Void in
                let find = try db.prepare("SELECT size, modified FROM photos WHERE uri = ?")
                let insert = try db.prepare("""
                    INSERT INTO photos(uri, size, modified) VALUES(?, ?, ?)
                    ON CONFLICT(uri) DO UPDATE SET size = excluded.size, modified = excluded.modified,
                        sidecar = NULL, favourite = NULL, rating = NULL, tags = NULL, places = NULL, facts = 0, camera = NULL, taken = NULL
                    """)
                let marks = try db.prepare("UPDATE photos SET sidecar = ?, favourite = ?, rating = ?, tags = ?, places = ? WHERE uri = ?")
                let facts = try db.prepare("UPDATE photos SET facts = 1, camera = ?, taken = ? WHERE uri = ?")
                let remove = try db.prepare("DELETE FROM photos WHERE uri = ?")
                func row(for file: FileState) throws {
                    var same = false
                    try find.run([.text(file.uri)]) { same = $0[0].int == file.size && $0[1].int == file.modified }
                    if !same { try insert.run([.text(file.uri), .int(file.size), .int(file.modified)]) }
                }
                for update in updates {
                    switch update {
                    case .marks(let value, let file, let stamp):
                        try row(for: file)
                        try marks.run([.int(stamp), .int(value.favourite ? 1 : 0), .int(Int64(value.rating)),
                                       .text(value.tags.joined(separator: "\n")), .text(value.places.lines), .text(file.uri)])
                    case .facts(let value, let file):
                        try row(for: file)
                        try facts.run([.text(value.camera), value.taken.map { .int($0) } ?? .null, .text(file.uri)])
                    case .removed(let uri):
                        try remove.run([.text(uri)])
                    }
                }
            }
        }
    }

    /// How many photos the index holds.
    public var count: Int {
        use { db in try db.rows("SELECT count(*) FROM photos").first?.first?.int.map(Int.init) ?? 0 } ?? 0
    }

    // MARK: The database

    private struct Connection: @unchecked Sendable {
        let db: SQLiteDatabase
    }

    /// Runs `body` on the open database, opening (or making again) it first; nil when it
    /// fails. A database found damaged is deleted, to be made again next time.
    private func use<T: Sendable>(_ body: (SQLiteDatabase) throws -> T) -> T? {
        connection.withLock { connection in
            for attempt in 0..<2 {
                if connection == nil { connection = openOrMake().map(Connection.init) }
                guard let db = connection?.db else { return nil }
                do {
                    return try body(db)
                } catch let failure as SQLiteDatabase.Failure where Self.isDamage(failure.code) && attempt == 0 {
                    connection = nil
                    deleteFiles()
                } catch {
                    return nil
                }
            }
            return nil
        }
    }

    private static func isDamage(_ code: Int32) -> Bool {
        let primary = code & 0xFF
        return primary == 11 /* SQLITE_CORRUPT */ || primary == 26 /* SQLITE_NOTADB */
    }

    private func deleteFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// The database at `path`, made with this version's tables when new; one of another
    /// version, or not a database, is deleted and made again.
    private func openOrMake() -> SQLiteDatabase? {
        let folder = (path as NSString).deletingLastPathComponent
        guard g_mkdir_with_parents(folder, 0o700) == 0 else { return nil }
        for _ in 0..<2 {
            do {
                let db = try SQLiteDatabase(path: path)
                let version = try db.rows("PRAGMA user_version").first?.first?.int ?? 0
                if version == Self.formatVersion { try Self.configure(db); return db }
                let tables = try db.rows("SELECT count(*) FROM sqlite_master").first?.first?.int ?? 0
                if version == 0 && tables == 0 {
                    try Self.configure(db)
                    try db.execute(Self.schema)
                    return db
                }
            } catch {}
            deleteFiles()
        }
        return nil
    }

    private static func configure(_ db: SQLiteDatabase) throws {
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
    }

    static let schema = """
        BEGIN;
        CREATE TABLE photos(
            id INTEGER PRIMARY KEY,
            uri TEXT NOT NULL UNIQUE,
            size INTEGER NOT NULL,
            modified INTEGER NOT NULL,
            sidecar INTEGER,
            favourite INTEGER,
            rating INTEGER,
            tags TEXT,
            places TEXT,
            facts INTEGER NOT NULL DEFAULT 0,
            camera TEXT,
            taken INTEGER);
        PRAGMA user_version = \(formatVersion);
        COMMIT;
        """
}
