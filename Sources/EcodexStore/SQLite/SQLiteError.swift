internal import CSQLite3

/// A failure reported by SQLite, with the context needed to diagnose it:
/// the extended result code, SQLite's message and the SQL that failed.
struct SQLiteError: Error, CustomStringConvertible {
    /// Extended result code (`SQLITE_CORRUPT`, `SQLITE_READONLY_DBMOVED`, ...).
    var code: Int32
    var message: String
    var sql: String?

    /// The primary result code: the low byte of the extended code.
    var primaryCode: Int32 { code & 0xff }

    /// True when the file is not a database or its pages are damaged.
    var isDamage: Bool {
        primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_FORMAT
    }

    /// True when another connection held the lock past the busy timeout.
    var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// True when SQLite could not write because of permissions or a read-only medium.
    var isReadOnly: Bool {
        primaryCode == SQLITE_READONLY || primaryCode == SQLITE_PERM || primaryCode == SQLITE_CANTOPEN
            || primaryCode == SQLITE_AUTH
    }

    /// A store that lacks what its schema promises (reported as damage, like a bad page).
    static func corrupt(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: message, sql: sql)
    }

    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " — in \($0)" } ?? "")
    }
}
