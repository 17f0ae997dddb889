import EcodexCore
import Foundation

/// One pack the update server has accepted, as `GET /v1/packs/latest` lists it.
public struct PublishedPack: Sendable, Equatable {
    public var version: SemanticVersion
    /// The version a delta applies to; nil for a full pack or the server's base.
    public var diffFrom: SemanticVersion?
    /// `full`, `delta`, or `base` (the records the server started from; no file).
    public var kind: String
    public var dataVersion: String
    public var regions: [Region]
    /// `sha256:<hex>` of the whole pack file, as downloaded.
    public var checksum: String
    public var size: Int
    public var expiresAt: String
    public var publishedAt: String

    public init(version: SemanticVersion, diffFrom: SemanticVersion?, kind: String, dataVersion: String, regions: [Region],
                checksum: String, size: Int, expiresAt: String, publishedAt: String) {
        self.version = version
        self.diffFrom = diffFrom
        self.kind = kind
        self.dataVersion = dataVersion
        self.regions = regions
        self.checksum = checksum
        self.size = size
        self.expiresAt = expiresAt
        self.publishedAt = publishedAt
    }
}

/// One additive record as the server serves it: its JSON, ready to send, and that JSON's checksum.
public struct StoredAdditive: Sendable, Equatable {
    public var code: String
    public var json: String
    public var checksum: String
    /// The newest published version when the record was read (in the same query), or "".
    public var version: String

    public init(code: String, json: String, checksum: String, version: String = "") {
        self.code = code
        self.json = json
        self.checksum = checksum
        self.version = version
    }
}

/// What the update server keeps: SQLite (`SQLiteServerStorage`, the default) or PostgreSQL
/// (`PostgresServerStorage` in the server); every call is one short query or one transaction.
public protocol ServerStorage: Sendable {
    /// Every accepted pack and the base, oldest version first.
    func packs() async throws -> [PublishedPack]
    /// The bytes of a published pack file.
    func packFile(version: String) async throws -> [UInt8]?
    /// Records a verified pack and the records it leaves, in one transaction.
    func publish(_ pack: PublishedPack, file: [UInt8], upsert: [Additive], remove: [ECode]) async throws
    /// Seeds an empty store with the server's starting records (a no-op once anything is there).
    func seed(base: PublishedPack, records: [Additive]) async throws
    /// One record and the newest published version, read together (one round trip).
    func additive(code: String) async throws -> StoredAdditive?
    func allAdditives() async throws -> [Additive]
    /// SHA-256 hashes (hex) of the publishing tokens; the tokens themselves are never stored.
    func tokenHashes() async throws -> [String]
    func addTokenHash(_ hash: String) async throws
    /// A server-wide value (the download-URL key), created by `make` the first time.
    func setting(_ key: String, orInsert make: @Sendable () -> String) async throws -> String
    /// Appends validated telemetry events (each a canonical JSON object).
    func appendTelemetry(_ events: [String]) async throws
    func telemetryCount() async throws -> Int
}

extension ServerStorage {
    /// The JSON the server stores and serves for a record: sorted keys, `/` unescaped, and its checksum.
    public static func encode(_ additive: Additive) throws -> StoredAdditive {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = try encoder.encode(additive)
        return StoredAdditive(code: additive.code.description, json: String(decoding: bytes, as: UTF8.self),
                              checksum: PackFile.checksum(Array(bytes)))
    }
}

/// Why the update server's storage failed; the server answers 500 and logs it.
public enum ServerStorageError: ClassifiedError, Equatable {
    /// The database refused a query or could not be opened (`detail`: where and why).
    case database(detail: String)

    public var errorClass: ErrorClass { .lookup }

    public var description: String {
        switch self {
        case .database(let detail): "server database: \(detail)"
        }
    }
}
