import EcodexCore
import Foundation

/// The update server's embedded store: one SQLite file (WAL), one connection
/// behind the project's `SerializedConnection`. Reads are single indexed lookups,
/// so one serialised connection keeps up with the HTTP front end.
public final class SQLiteServerStorage: ServerStorage, @unchecked Sendable {
    private let shared: SerializedConnection

    static let migrations = [
        Migration(version: 1, sql: """
            CREATE TABLE packs (version TEXT PRIMARY KEY, major INTEGER, minor INTEGER, patch INTEGER,
                diff_from TEXT, kind TEXT NOT NULL, data_version TEXT NOT NULL, regions TEXT NOT NULL,
                checksum TEXT NOT NULL, size INTEGER NOT NULL, expires_at TEXT NOT NULL, published_at TEXT NOT NULL,
                file TEXT);
            CREATE TABLE additives (code TEXT PRIMARY KEY, json TEXT NOT NULL, checksum TEXT NOT NULL);
            CREATE TABLE tokens (hash TEXT PRIMARY KEY, created_at TEXT NOT NULL);
            CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE telemetry (id INTEGER PRIMARY KEY, received_at TEXT NOT NULL, event TEXT NOT NULL);
            """),
    ]

    /// Opens (creating when missing) the database at `path`. It holds the download-link key,
    /// so it and its WAL and shm files are the owner's only (0600), whatever the umask.
    public init(path: String) throws {
        do {
            if !FileManager.default.fileExists(atPath: path) { try DataFolder.createPrivateFile(path) }
        } catch {
            throw ServerStorageError.database(detail: "\(path): \(error)")
        }
        // Files an older version left readable by others; SQLite's new WAL and shm copy the database's mode.
        for suffix in ["", "-wal", "-shm", "-journal"] { DataFolder.makePrivate(path + suffix) }
        let db = try Connection(path: path, mode: .create)
        try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000")
        try db.migrate(Self.migrations)
        shared = SerializedConnection(db) { error in
            ServerStorageError.database(detail: "\(path): \(error)")
        }
    }

    private func run<T>(_ body: (Connection) throws -> T) throws -> T {
        try shared.run { db in try body(db!) }
    }

    public func packs() async throws -> [PublishedPack] {
        try run { db in
            var out: [PublishedPack] = []
            try db.cached("""
                SELECT version, diff_from, kind, data_version, regions, checksum, size, expires_at, published_at
                FROM packs ORDER BY major, minor, patch
                """).forEachRow { row in
                guard let version = SemanticVersion(row.text(0)) else { return }
                out.append(PublishedPack(
                    version: version, diffFrom: row.optionalText(1).flatMap(SemanticVersion.init), kind: row.text(2),
                    dataVersion: row.text(3), regions: row.text(4).split(separator: ",").compactMap { Region(code: String($0)) },
                    checksum: row.text(5), size: Int(row.int64(6)), expiresAt: row.text(7), publishedAt: row.text(8)))
            }
            return out
        }
    }

    public func packFile(version: String) async throws -> [UInt8]? {
        try run { db in
            var file: String?
            try db.cached("SELECT file FROM packs WHERE version = ?").forEachRow([.text(version)]) { file = $0.optionalText(0) }
            return file.map { Array($0.utf8) }
        }
    }

    private func insert(_ db: Connection, _ pack: PublishedPack, file: [UInt8]?) throws {
        let v = pack.version
        try db.cached("INSERT INTO packs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").run([
            .text(v.description), .int(Int64(v.major)), .int(Int64(v.minor)), .int(Int64(v.patch)),
            pack.diffFrom.map { .text($0.description) } ?? .null, .text(pack.kind), .text(pack.dataVersion),
            .text(pack.regions.map(\.rawValue).joined(separator: ",")), .text(pack.checksum), .int(Int64(pack.size)),
            .text(pack.expiresAt), .text(pack.publishedAt), file.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null,
        ])
    }

    private func upsert(_ db: Connection, _ records: [Additive]) throws {
        let statement = try db.cached("INSERT OR REPLACE INTO additives VALUES (?, ?, ?)")
        for record in records {
            let stored = try Self.encode(record)
            try statement.run([.text(stored.code), .text(stored.json), .text(stored.checksum)])
        }
    }

    public func publish(_ pack: PublishedPack, file: [UInt8], upsert records: [Additive], remove: [ECode]) async throws {
        try run { db in
            try db.transaction {
                try insert(db, pack, file: file)
                try upsert(db, records)
                for code in remove { try db.cached("DELETE FROM additives WHERE code = ?").run([.text(code.description)]) }
            }
        }
    }

    public func seed(base: PublishedPack, records: [Additive]) async throws {
        try run { db in
            try db.transaction {
                guard try db.scalarInt("SELECT count(*) FROM packs") == 0 else { return }
                try insert(db, base, file: nil)
                try upsert(db, records)
            }
        }
    }

    public func additive(code: String) async throws -> StoredAdditive? {
        try run { db in
            var found: StoredAdditive?
            try db.cached("""
                SELECT code, json, checksum,
                    (SELECT version FROM packs ORDER BY major DESC, minor DESC, patch DESC LIMIT 1)
                FROM additives WHERE code = ?
                """).forEachRow([.text(code)]) {
                found = StoredAdditive(code: $0.text(0), json: $0.text(1), checksum: $0.text(2), version: $0.optionalText(3) ?? "")
            }
            return found
        }
    }

    public func allAdditives() async throws -> [Additive] {
        let texts: [String] = try run { db in
            var out: [String] = []
            try db.cached("SELECT json FROM additives ORDER BY code").forEachRow { out.append($0.text(0)) }
            return out
        }
        return try texts.map { try JSONValueDecoder().decode(Additive.self, from: JSONValue.parse(Array($0.utf8))) }
    }

    public func tokenHashes() async throws -> [String] {
        try run { db in
            var out: [String] = []
            try db.cached("SELECT hash FROM tokens").forEachRow { out.append($0.text(0)) }
            return out
        }
    }

    public func addTokenHash(_ hash: String) async throws {
        try run { db in
            try db.cached("INSERT OR IGNORE INTO tokens VALUES (?, ?)").run([.text(hash), .text(Self.now())])
        }
    }

    public func setting(_ key: String, orInsert make: @Sendable () -> String) async throws -> String {
        try run { db in
            try db.cached("INSERT OR IGNORE INTO settings VALUES (?, ?)").run([.text(key), .text(make())])
            var value = ""
            try db.cached("SELECT value FROM settings WHERE key = ?").forEachRow([.text(key)]) { value = $0.text(0) }
            return value
        }
    }

    public func appendTelemetry(_ events: [String]) async throws {
        let at = Self.now()
        try run { db in
            try db.transaction {
                let statement = try db.cached("INSERT INTO telemetry (received_at, event) VALUES (?, ?)")
                for event in events { try statement.run([.text(at), .text(event)]) }
            }
        }
    }

    public func telemetryCount() async throws -> Int {
        try run { db in Int(try db.scalarInt("SELECT count(*) FROM telemetry")) }
    }

    public static func now() -> String { ISO8601DateFormatter().string(from: Date()) }
}
