internal import CSQLite3
import Foundation

/// One open SQLite database: the only owner of its `sqlite3*` handle.
///
/// Not thread-safe on its own (it is opened with `SQLITE_OPEN_NOMUTEX`); the
/// stores that own a connection serialise access with their own lock.
final class Connection {
    enum Mode {
        /// Open an existing file for reading only: the store never writes an installed pack.
        case readOnly
        /// Open an existing file for reading and writing.
        case readWrite
        /// Open for reading and writing, creating the file when missing.
        case create
        /// Open for reading a file nobody can change meanwhile (its folder is read-only): no
        /// locks and no WAL index, which a read-only folder cannot hold.
        case immutable
    }

    let handle: OpaquePointer
    let path: String
    /// Statements kept prepared for reuse, by SQL text (see `cached(_:)`).
    private var statements: [String: Statement] = [:]

    init(path: String, mode: Mode) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .immutable: flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        var name = path
        if mode == .immutable {
            name = "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path) + "?immutable=1"
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            // SQLite hands back a handle even when opening fails; it still has to be closed.
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        // close_v2 defers the real close until every statement is finalized, so
        // the order in which connection and statements are released does not matter.
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that return no rows.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// A prepared statement for `sql`, prepared once and reused: preparing costs
    /// tens of microseconds, far more than running a lookup by key.
    ///
    /// The cache holds the statements strongly while each holds the connection,
    /// so `close()` must break the cycle; the stores call it from `deinit`.
    func cached(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Drops the cached statements so connection and statements can be freed.
    func close() {
        statements.removeAll()
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
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

    /// The first column of the first row of `sql`, as an integer (0 when there is no row).
    func scalarInt(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : 0
    }

    /// The first column of the first row of `sql`, as text (empty when there is no row).
    func scalarText(_ sql: String) throws -> String {
        let statement = try prepare(sql)
        return try statement.step() ? statement.text(0) : ""
    }

    /// True when the file was opened (or SQLite fell back to) read-only.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The rowid of the last row this connection inserted.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// `PRAGMA user_version`: the schema version this file was migrated to.
    func userVersion() throws -> Int { Int(try scalarInt("PRAGMA user_version")) }

    func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    /// The error SQLite last reported on this connection.
    func lastError(code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
