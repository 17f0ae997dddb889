internal import CSQLite3

/// A value to bind to a statement parameter.
enum SQLValue {
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// One prepared statement: the only owner of its `sqlite3_stmt*`.
///
/// Prepared once and reused: `reset()` and new bindings make it ready to run again.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    /// Kept strongly so the connection outlives every statement prepared on it.
    let connection: Connection

    init(connection: Connection, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw connection.lastError(code: rc, sql: sql)
        }
        handle = stmt
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Clears the previous run and binds `values` to parameters 1, 2, ...
    func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .int(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .double(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, transientDestructor)
            case .blob(let v) where v.isEmpty: rc = sqlite3_bind_zeroblob(handle, index, 0)
            case .blob(let v):
                rc = v.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transientDestructor) }
            case .null: rc = sqlite3_bind_null(handle, index)
            }
            if rc != SQLITE_OK { throw connection.lastError(code: rc, sql: sql) }
        }
    }

    /// Ends the current run so the statement releases its read lock; bindings stay.
    func reset() { sqlite3_reset(handle) }

    /// Advances to the next row: true when there is one, false when the statement is done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.lastError(code: rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds `values` and runs the statement to completion.
    func run(_ values: [SQLValue] = []) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Binds `values` and calls `row` for each result row.
    func forEachRow(_ values: [SQLValue] = [], _ row: (Statement) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() { try row(self) }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// The column's bytes, valid only inside `body` (until the statement moves on).
    func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let bytes = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: count))
    }

    func blob(_ column: Int32) -> [UInt8] { withBlob(column) { Array($0) } }
}

/// SQLite's `SQLITE_TRANSIENT`: tells it to copy bound text, because Swift
/// strings do not promise a stable buffer beyond the call.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
