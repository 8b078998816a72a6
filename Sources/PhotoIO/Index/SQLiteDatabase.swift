import CSQLite
import Foundation

/// One SQLite connection, the little of the C API the photo index uses: statements run with
/// bound values, rows read by column. Not shared between threads: its owner serialises calls
/// (`PhotoIndex` holds it under a lock).
final class SQLiteDatabase {
    struct Failure: Error, Equatable, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { "SQLite \(code): \(message)" }
    }

    /// A value bound to a statement's parameter, or read from a row.
    enum Value: Equatable, Sendable {
        case null
        case int(Int64)
        case text(String)
    }

    private let handle: OpaquePointer

    /// Opens (creating) the database at `path`; `:memory:` for one in memory.
    init(path: String) throws(Failure) {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw Failure(code: code, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 2000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` (one statement or more, no parameters).
    func execute(_ sql: String) throws(Failure) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "error"
            sqlite3_free(error)
            throw Failure(code: code, message: message)
        }
    }

    /// A prepared statement, run as many times as wanted with other values.
    final class Statement {
        fileprivate let statement: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(_ statement: OpaquePointer, _ database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        /// Runs the statement with `values` bound in order, calling `row` with each row's
        /// columns.
        func run(_ values: [Value] = [], row: ([Value]) throws -> Void = { _ in }) throws {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (n, value) in values.enumerated() {
                let index = Int32(n + 1)
                switch value {
                case .null: sqlite3_bind_null(statement, index)
                case .int(let number): sqlite3_bind_int64(statement, index, number)
                case .text(let text): sqlite3_bind_text(statement, index, text, -1, gpb_sqlite_transient())
                }
            }
            let columns = sqlite3_column_count(statement)
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw database.failure(code) }
                try row((0..<columns).map { column in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: return .int(sqlite3_column_int64(statement, column))
                    case SQLITE_NULL: return .null
                    default: return sqlite3_column_text(statement, column).map { .text(String(cString: $0)) } ?? .null
                    }
                })
            }
            sqlite3_reset(statement)
        }
    }

    func prepare(_ sql: String) throws(Failure) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        return Statement(statement, self)
    }

    /// The rows `sql` gives with `values` bound.
    func rows(_ sql: String, _ values: [Value] = []) throws -> [[Value]] {
        var rows: [[Value]] = []
        try prepare(sql).run(values) { rows.append($0) }
        return rows
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    fileprivate func failure(_ code: Int32) -> Failure {
        Failure(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

extension SQLiteDatabase.Value {
    var int: Int64? { if case .int(let value) = self { return value } else { return nil } }
    var text: String? { if case .text(let value) = self { return value } else { return nil } }
}
