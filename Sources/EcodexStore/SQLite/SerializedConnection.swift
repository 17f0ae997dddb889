import Foundation

/// One SQLite connection that the threads of a store take turns on: the one owner of
/// "lock, open when first needed, turn SQLite's errors into the store's".
///
/// A connection handed over open stays open for the owner's life (its prepared
/// statements depend on it). A connection opened lazily is dropped after a SQLite
/// failure and opened again on the next use, so a file replaced or repaired
/// meanwhile is read afresh.
final class SerializedConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: Connection?
    private let open: (() throws -> Connection?)?
    private let translate: (SQLiteError) -> Error

    /// Wraps a connection that is already open.
    init(_ connection: Connection, translate: @escaping (SQLiteError) -> Error) {
        self.connection = connection
        self.open = nil
        self.translate = translate
    }

    /// Opens with `open` on first use; `open` returns nil when there is nothing to open
    /// yet (a missing file), and is asked again next time.
    init(lazy open: @escaping () throws -> Connection?, translate: @escaping (SQLiteError) -> Error) {
        self.open = open
        self.translate = translate
    }

    deinit {
        connection?.close()
    }

    /// Runs `body` under the lock with the connection (nil when a lazy one has nothing to
    /// open). A `SQLiteError` from opening or from `body` comes out translated.
    func run<T>(_ body: (Connection?) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            if connection == nil, let open { connection = try open() }
            return try body(connection)
        } catch let error as SQLiteError {
            if open != nil {
                connection?.close()
                connection = nil
            }
            throw translate(error)
        }
    }
}
