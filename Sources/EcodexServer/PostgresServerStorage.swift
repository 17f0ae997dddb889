import EcodexCore
import EcodexStore
import Foundation
import Logging
import PostgresNIO

/// The update server's store on PostgreSQL, for deployments that outgrow one machine:
/// the same tables and answers as `SQLiteServerStorage`, behind the same `ServerStorage`
/// protocol. A connection pool (`PostgresClient`) runs for the life of the process; every
/// call is one statement or one transaction, and every value is bound, never spliced.
final class PostgresServerStorage: ServerStorage, @unchecked Sendable {
    let client: PostgresClient
    private let logger: Logger

    /// `postgres://user[:password]@host[:port]/database`. Plain connections only to this
    /// computer (or with `?sslmode=disable` said outright): TLS to the database is not built in.
    init(url: String, logger: Logger) throws {
        guard let parts = URLComponents(string: url), let host = parts.host, !host.isEmpty,
              let user = parts.user, !user.isEmpty
        else { throw ServerStorageError.database(detail: "not a postgres://user@host/database address") }
        let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        let plainAllowed = URLPolicy.isLoopback(host)
            || parts.queryItems?.contains(where: { $0.name == "sslmode" && $0.value == "disable" }) == true
        guard plainAllowed else {
            throw ServerStorageError.database(detail: "\(host): TLS to PostgreSQL is not built in; use a database on this computer or add ?sslmode=disable on a private network")
        }
        var config = PostgresClient.Configuration(host: host, port: parts.port ?? 5432, username: user,
                                                  password: parts.password, database: database.isEmpty ? nil : database,
                                                  tls: .disable)
        config.options.maximumConnections = 8
        self.logger = logger
        // The pool's own chatter (connections opened and closed) only when it fails.
        var background = logger
        background.logLevel = .error
        client = PostgresClient(configuration: config, backgroundLogger: background)
    }

    static let schema: [String] = [
        """
        CREATE TABLE IF NOT EXISTS packs (version TEXT PRIMARY KEY, major INTEGER, minor INTEGER, patch INTEGER,
            diff_from TEXT, kind TEXT NOT NULL, data_version TEXT NOT NULL, regions TEXT NOT NULL,
            checksum TEXT NOT NULL, size BIGINT NOT NULL, expires_at TEXT NOT NULL, published_at TEXT NOT NULL,
            file TEXT)
        """,
        "CREATE TABLE IF NOT EXISTS additives (code TEXT PRIMARY KEY, json TEXT NOT NULL, checksum TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, created_at TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS telemetry (id BIGSERIAL PRIMARY KEY, received_at TEXT NOT NULL, event TEXT NOT NULL)",
    ]

    /// Creates the tables when missing. Call once the client runs.
    func migrate() async throws {
        try await wrap {
            for statement in Self.schema { try await self.client.query(PostgresQuery(unsafeSQL: statement), logger: self.logger) }
        }
    }

    /// PostgreSQL's errors (which can carry the server's words) become one typed error.
    private func wrap<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let e as ServerStorageError { throw e } catch {
            throw ServerStorageError.database(detail: String(reflecting: error))
        }
    }

    func packs() async throws -> [PublishedPack] {
        try await wrap {
            let rows = try await client.query("""
                SELECT version, diff_from, kind, data_version, regions, checksum, size, expires_at, published_at
                FROM packs ORDER BY major, minor, patch
                """, logger: logger)
            var out: [PublishedPack] = []
            for try await (version, diff, kind, data, regions, checksum, size, expires, published)
                in rows.decode((String, String?, String, String, String, String, Int64, String, String).self) {
                guard let v = SemanticVersion(version) else { continue }
                out.append(PublishedPack(
                    version: v, diffFrom: diff.flatMap(SemanticVersion.init), kind: kind, dataVersion: data,
                    regions: regions.split(separator: ",").compactMap { Region(code: String($0)) },
                    checksum: checksum, size: Int(size), expiresAt: expires, publishedAt: published))
            }
            return out
        }
    }

    func packFile(version: String) async throws -> [UInt8]? {
        try await wrap {
            let rows = try await client.query("SELECT file FROM packs WHERE version = \(version)", logger: logger)
            for try await (file) in rows.decode((String?).self) { return file.map { Array($0.utf8) } }
            return nil
        }
    }

    private static func insert(_ db: PostgresConnection, _ pack: PublishedPack, file: [UInt8]?, logger: Logger) async throws {
        let v = pack.version
        let regions = pack.regions.map(\.rawValue).joined(separator: ",")
        let text = file.map { String(decoding: $0, as: UTF8.self) }
        try await db.query("""
            INSERT INTO packs VALUES (\(v.description), \(v.major), \(v.minor), \(v.patch), \(pack.diffFrom?.description),
                \(pack.kind), \(pack.dataVersion), \(regions), \(pack.checksum), \(Int64(pack.size)),
                \(pack.expiresAt), \(pack.publishedAt), \(text))
            """, logger: logger)
    }

    private static func upsert(_ db: PostgresConnection, _ records: [Additive], logger: Logger) async throws {
        for record in records {
            let stored = try SQLiteServerStorage.encode(record)
            try await db.query("""
                INSERT INTO additives VALUES (\(stored.code), \(stored.json), \(stored.checksum))
                ON CONFLICT (code) DO UPDATE SET json = EXCLUDED.json, checksum = EXCLUDED.checksum
                """, logger: logger)
        }
    }

    func publish(_ pack: PublishedPack, file: [UInt8], upsert records: [Additive], remove: [ECode]) async throws {
        let logger = self.logger
        try await wrap {
            try await client.withTransaction(logger: logger) { db in
                try await Self.insert(db, pack, file: file, logger: logger)
                try await Self.upsert(db, records, logger: logger)
                for code in remove {
                    try await db.query("DELETE FROM additives WHERE code = \(code.description)", logger: logger)
                }
            }
        }
    }

    func seed(base: PublishedPack, records: [Additive]) async throws {
        let logger = self.logger
        try await wrap {
            try await client.withTransaction(logger: logger) { db in
                // One seeder at a time: a second server starting on the same database waits here.
                try await db.query("LOCK TABLE packs IN EXCLUSIVE MODE", logger: logger)
                let rows = try await db.query("SELECT count(*) FROM packs", logger: logger)
                var count: Int64 = 0
                for try await (n) in rows.decode((Int64).self) { count = n }
                guard count == 0 else { return }
                try await Self.insert(db, base, file: nil, logger: logger)
                try await Self.upsert(db, records, logger: logger)
            }
        }
    }

    func additive(code: String) async throws -> StoredAdditive? {
        try await wrap {
            let rows = try await client.query("""
                SELECT code, json, checksum,
                    (SELECT version FROM packs ORDER BY major DESC, minor DESC, patch DESC LIMIT 1)
                FROM additives WHERE code = \(code)
                """, logger: logger)
            for try await (c, json, checksum, version) in rows.decode((String, String, String, String?).self) {
                return StoredAdditive(code: c, json: json, checksum: checksum, version: version ?? "")
            }
            return nil
        }
    }

    func allAdditives() async throws -> [Additive] {
        let texts: [String] = try await wrap {
            let rows = try await client.query("SELECT json FROM additives ORDER BY code", logger: logger)
            var out: [String] = []
            for try await (json) in rows.decode((String).self) { out.append(json) }
            return out
        }
        return try texts.map { try JSONValueDecoder().decode(Additive.self, from: JSONValue.parse(Array($0.utf8))) }
    }

    func tokenHashes() async throws -> [String] {
        try await wrap {
            let rows = try await client.query("SELECT hash FROM tokens", logger: logger)
            var out: [String] = []
            for try await (hash) in rows.decode((String).self) { out.append(hash) }
            return out
        }
    }

    func addTokenHash(_ hash: String) async throws {
        try await wrap {
            try await client.query("INSERT INTO tokens VALUES (\(hash), \(SQLiteServerStorage.now())) ON CONFLICT DO NOTHING",
                                   logger: logger)
        }
    }

    func setting(_ key: String, orInsert make: @Sendable () -> String) async throws -> String {
        try await wrap {
            let value = make()
            try await client.query("INSERT INTO settings VALUES (\(key), \(value)) ON CONFLICT DO NOTHING", logger: logger)
            let rows = try await client.query("SELECT value FROM settings WHERE key = \(key)", logger: logger)
            for try await (v) in rows.decode((String).self) { return v }
            throw ServerStorageError.database(detail: "setting \(key) missing after insert")
        }
    }

    func appendTelemetry(_ events: [String]) async throws {
        guard !events.isEmpty else { return }
        let at = SQLiteServerStorage.now()
        try await wrap {
            // One statement for the whole batch: the events arrive as one array parameter.
            try await client.query("""
                INSERT INTO telemetry (received_at, event) SELECT \(at), e FROM unnest(\(events)::text[]) AS e
                """, logger: logger)
        }
    }

    func telemetryCount() async throws -> Int {
        try await wrap {
            let rows = try await client.query("SELECT count(*) FROM telemetry", logger: logger)
            for try await (n) in rows.decode((Int64).self) { return Int(n) }
            return 0
        }
    }
}
