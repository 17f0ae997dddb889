import EcodexCore
internal import CSQLite3
import Foundation

/// The user's own data (`user.sqlite`): every scan's result, so `scan history`
/// can list and show them again without re-scanning, and a product cache by barcode.
///
/// Nothing personal goes in: an input is kept as a file name (never a path)
/// or as `text` for typed ingredients (never the text itself), and results
/// hold no images. A store rebuild never touches this file. Preferences live
/// in a config file, not here.
public final class UserStore: @unchecked Sendable {
    public let location: StoreLocation
    public let retention: Retention
    /// True when the file or its folder is read-only: saving throws `HistoryError.readOnly`.
    public let isReadOnly: Bool
    private let db: Connection
    private let shared: SerializedConnection

    /// How much history is kept: the newest `maxEntries` scans, none older than
    /// `maxAge` before the newest. Older ones are deleted as each scan is saved.
    public struct Retention: Sendable, Equatable {
        public var maxEntries: Int
        public var maxAge: TimeInterval

        public init(maxEntries: Int, maxAge: TimeInterval) {
            self.maxEntries = maxEntries
            self.maxAge = maxAge
        }

        /// 1,000 scans, one year.
        public static let standard = Retention(maxEntries: 1_000, maxAge: 365 * 86_400)
    }

    /// How long a write waits for another process's write before it is retried.
    static let busyTimeoutMs = 5_000
    /// Attempts at a write that still finds the file busy after the timeout.
    static let writeAttempts = 3

    /// Opens `user.sqlite`, creating the folder and file when missing and
    /// bringing an older schema up to date.
    ///
    /// Many `scan` processes may save history at once: the file is in WAL mode
    /// (readers never block the writer), each write waits for the others (busy
    /// timeout) and is retried when it still finds the file busy, and creating the
    /// schema happens in one write transaction, so two first runs cannot both try it.
    ///
    /// - Throws: `lookup_error` when the file is damaged, made by a newer version,
    ///   or cannot be created or upgraded because the folder or file is read-only.
    public init(location: StoreLocation, retention: Retention = .standard) throws {
        self.location = location
        self.retention = retention
        let path = location.userPath
        try DataFolder.prepare(location.directory)
        do {
            let exists = FileManager.default.fileExists(atPath: path.path)
            if exists && (location.isReadOnly || access(path.path, W_OK) != 0) {
                // A read-only folder or file: history is listed, saving says it is read-only.
                isReadOnly = true
                let db = try UserStore.openReadOnly(path)
                let version = try db.userVersion()
                if version > UserSchema.version {
                    throw HistoryError.newerSchema(path: path, found: version, supported: UserSchema.version)
                }
                // An older file cannot be brought up to date here.
                guard version == UserSchema.version else { throw HistoryError.readOnly(path: path) }
                self.db = db
                shared = SerializedConnection(db) { UserStore.translate($0, path: path) }
                return
            }
            isReadOnly = false
            if !exists {
                if location.isReadOnly { throw HistoryError.readOnly(path: path) }
                do { try DataFolder.createPrivateFile(path.path) } catch {
                    throw HistoryError.unavailable(path: path, detail: "\(error)")
                }
            } else {
                // A file made by an older version (0644) becomes the user's own too.
                DataFolder.makePrivate(path.path)
            }
            let db = try Connection(path: path.path, mode: .create)
            try db.execute("PRAGMA busy_timeout = \(UserStore.busyTimeoutMs); PRAGMA foreign_keys = ON")
            try UserStore.retryingBusy {
                // WAL is a property of the file: set once, kept by every later open.
                // A read-only file stays in its mode, and reading still works.
                if try db.scalarText("PRAGMA journal_mode") != "wal" { try? db.execute("PRAGMA journal_mode = WAL") }
            }
            try db.execute("PRAGMA synchronous = NORMAL")
            func check(_ version: Int) throws {
                if version > UserSchema.version {
                    throw HistoryError.newerSchema(path: path, found: version, supported: UserSchema.version)
                }
                if version > 0 {
                    // A file with a version but not our tables is not ours, or damaged.
                    let tables = try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'scan_history'")
                    if tables == 0 { throw HistoryError.damaged(path: path, detail: "no scan_history table") }
                } else if try db.scalarInt("SELECT count(*) FROM sqlite_schema") > 0 {
                    throw HistoryError.damaged(path: path, detail: "tables present but no Ecodex schema version")
                }
            }
            let seen = try db.userVersion()
            // Version 0 is checked only inside the transaction below: read outside it, another
            // first run may create the tables between the version read and the table count.
            if seen > 0 { try check(seen) }
            if seen < UserSchema.version {
                // Version read again inside the write transaction: of several first runs at
                // once, one creates the schema and the others find it made.
                try UserStore.retryingBusy {
                    try db.transaction {
                        let version = try db.userVersion()
                        try check(version)
                        try db.applyMigrations(UserSchema.migrations, from: version)
                    }
                }
            }
            self.db = db
            shared = SerializedConnection(db) { UserStore.translate($0, path: path) }
        } catch let error as SQLiteError {
            throw UserStore.translate(error, path: path)
        }
    }

    /// Opens `path` for reading only. In a read-only folder SQLite cannot make the WAL index
    /// a WAL file needs, so the file is then read as immutable (nobody can write it there).
    static func openReadOnly(_ path: URL) throws -> Connection {
        if let db = try? Connection(path: path.path, mode: .readOnly), (try? db.userVersion()) != nil { return db }
        return try Connection(path: path.path, mode: .immutable)
    }

    /// Runs `body`, again when SQLite still reports the file busy (or locked) after its timeout.
    static func retryingBusy<T>(_ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && attempt < writeAttempts {
                attempt += 1
                usleep(useconds_t.random(in: 10_000...50_000))
            }
        }
    }

    /// Moves a damaged `user.sqlite` aside (to `user.sqlite.damaged-<time>`) so the
    /// next open starts a new one; the old file is kept for recovery. Returns its new
    /// location, or nil when there was no file.
    @discardableResult
    public static func setAside(location: StoreLocation, now: Date = Date()) throws -> URL? {
        let fm = FileManager.default
        guard fm.fileExists(atPath: location.userPath.path) else { return nil }
        let stamp = Int(now.timeIntervalSince1970)
        let target = location.directory.appendingPathComponent("user.sqlite.damaged-\(stamp)")
        do {
            try fm.moveItem(at: location.userPath, to: target)
            for suffix in ["-journal", "-wal", "-shm"] {
                try? fm.removeItem(atPath: location.userPath.path + suffix)
            }
        } catch {
            throw StoreError.cannotWrite(folder: location.directory, detail: "\(error)")
        }
        return target
    }

    // MARK: - Scan history

    /// Saves one scan's result and returns its history id. The stored JSON result is the
    /// report rendered with its `input` replaced by the privacy-safe label the row keeps.
    public func recordScan(_ report: ScanReport, at time: Date = Date()) throws -> Int64 {
        let (label, kind) = UserStore.inputLabel(for: report)
        var labelled = report
        labelled.input = label
        // Rendered once with the label (was: rendered, parsed back and rendered again, a
        // fifth of `scan text`'s time).
        let stored = JSONRenderer.render(labelled)
        let summary = report.summary
        return try writing { try UserStore.retryingBusy { try db.transaction {
            try db.cached("""
                INSERT INTO scan_history (scanned_at, input_label, input_kind, region, codes, flagged, neutral,
                                          unmatched, data_version, pack_version, result_json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).run([
                    .text(UserStore.timestamp(time)), .text(label), .text(kind.rawValue), .text(report.region.rawValue),
                    .text(report.additives.map(\.code.description).joined(separator: ",")),
                    .int(Int64(summary.flagged)), .int(Int64(summary.neutral)), .int(Int64(summary.unmatched)),
                    .text(report.dataVersion), .text(report.packVersion), .text(stored),
                ])
            let id = try db.scalarInt("SELECT last_insert_rowid()")
            try db.cached("DELETE FROM scan_history WHERE scanned_at < ?")
                .run([.text(UserStore.timestamp(time.addingTimeInterval(-retention.maxAge)))])
            try db.cached("""
                DELETE FROM scan_history WHERE id NOT IN
                    (SELECT id FROM scan_history ORDER BY scanned_at DESC, id DESC LIMIT ?)
                """).run([.int(Int64(max(1, retention.maxEntries)))])
            return id
        } } }
    }

    /// The newest `limit` scans, newest first.
    public func history(limit: Int = 20) throws -> [HistoryEntry] {
        try withConnection {
            var out: [HistoryEntry] = []
            try db.cached("\(HistoryEntry.select) ORDER BY scanned_at DESC, id DESC LIMIT ?")
                .forEachRow([.int(Int64(max(0, limit)))]) { out.append(HistoryEntry(row: $0)) }
            return out
        }
    }

    /// One past scan, with its JSON result to show again; nil when there is no such id.
    public func historyEntry(id: Int64) throws -> HistoryEntry? {
        try withConnection {
            let statement = try db.cached("\(HistoryEntry.select) WHERE id = ?")
            defer { statement.reset() }
            try statement.bind([.int(id)])
            return try statement.step() ? HistoryEntry(row: statement) : nil
        }
    }

    /// Deletes every saved scan. The product cache stays.
    public func clearHistory() throws {
        try writing { try UserStore.retryingBusy { try db.execute("DELETE FROM scan_history") } }
    }

    // MARK: - Product cache

    /// Saves (or replaces) a product's ingredients by barcode.
    public func cacheProduct(_ product: CachedProduct) throws {
        try writing { try UserStore.retryingBusy {
            try db.cached("""
                INSERT OR REPLACE INTO product_cache (barcode, ingredients_text, additives_found, timestamp, region)
                VALUES (?, ?, ?, ?, ?)
                """).run([
                    .text(product.barcode), .text(product.ingredientsText),
                    .text(product.additivesFound.map(\.description).joined(separator: ",")),
                    .text(UserStore.timestamp(product.timestamp)), .text(product.region.rawValue),
                ])
        } }
    }

    /// The cached product for `barcode`, or nil.
    public func cachedProduct(barcode: String) throws -> CachedProduct? {
        try withConnection {
            let statement = try db.cached("""
                SELECT barcode, ingredients_text, additives_found, timestamp, region FROM product_cache WHERE barcode = ?
                """)
            try statement.bind([.text(barcode)])
            defer { statement.reset() }
            guard try statement.step() else { return nil }
            return CachedProduct(
                barcode: statement.text(0), ingredientsText: statement.text(1),
                additivesFound: statement.text(2).split(separator: ",").compactMap { ECode(String($0)) },
                timestamp: UserStore.date(statement.text(3)),
                region: Region(rawValue: statement.text(4)) ?? .eu)
        }
    }

    // MARK: - Internals

    enum InputKind: String {
        case image, text, code, barcode
    }

    private static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "png", "tif", "tiff", "bmp", "gif", "webp", "pnm", "pgm", "ppm", "heic", "heif", "avif",
    ]

    /// What history keeps of an input: an image's file name without its folders,
    /// a code, barcode digits, or just `text` for typed ingredients.
    static func inputLabel(for report: ScanReport) -> (String, InputKind) {
        let input = report.input.trimmingCharacters(in: .whitespacesAndNewlines)
        let url = URL(fileURLWithPath: input)
        if report.ocr != nil || (!input.contains("\n") && (input.contains("/")
            || imageExtensions.contains(url.pathExtension.lowercased()))) {
            let name = url.lastPathComponent
            return (name.isEmpty ? "image" : String(name.prefix(255)), .image)
        }
        if let barcode = report.barcode, input == barcode.digits { return (barcode.digits, .barcode) }
        if input.count <= 16, let code = ECode(input) { return (code.description, .code) }
        return ("text", .text)
    }


    private func withConnection<T>(_ body: () throws -> T) throws -> T {
        try shared.run { _ in try body() }
    }

    /// `withConnection` for a change: refused at once when the file is read-only.
    private func writing<T>(_ body: () throws -> T) throws -> T {
        if isReadOnly { throw HistoryError.readOnly(path: location.userPath) }
        return try withConnection(body)
    }

    static func translate(_ error: SQLiteError, path: URL) -> HistoryError {
        if error.isDamage { return .damaged(path: path, detail: error.description) }
        if error.primaryCode == SQLITE_READONLY { return .readOnly(path: path) }
        return .unavailable(path: path, detail: error.description)
    }

    /// ISO 8601 with milliseconds, UTC: sorts as text in time order.
    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func timestamp(_ date: Date) -> String {
        timeFormat.format(date)
    }

    static func date(_ text: String) -> Date {
        (try? timeFormat.parse(text)) ?? Date(timeIntervalSince1970: 0)
    }
}

/// One saved scan.
public struct HistoryEntry: Sendable, Equatable {
    public var id: Int64
    public var scannedAt: Date
    /// The image's file name, the code, the barcode, or `text` for typed ingredients.
    public var input: String
    public var region: String
    /// Canonical codes found, in ingredient order.
    public var codes: [String]
    /// Counts as in the result's `summary` (red or yellow / green / codes not in the store).
    public var flagged: Int
    public var neutral: Int
    public var unmatched: Int
    public var dataVersion: String
    public var packVersion: String
    /// The JSON result as it was printed (with `input` set to the label above).
    public var json: String

    static let select = """
        SELECT id, scanned_at, input_label, region, codes, flagged, neutral, unmatched, data_version, pack_version,
               result_json FROM scan_history
        """

    init(row: Statement) {
        id = row.int64(0)
        scannedAt = UserStore.date(row.text(1))
        input = row.text(2)
        region = row.text(3)
        codes = row.text(4).split(separator: ",").map(String.init)
        flagged = Int(row.int64(5))
        neutral = Int(row.int64(6))
        unmatched = Int(row.int64(7))
        dataVersion = row.text(8)
        packVersion = row.text(9)
        json = row.text(10)
    }
}

/// A product's ingredients, cached by barcode (REQUIREMENTS §8.2).
public struct CachedProduct: Sendable, Equatable {
    public var barcode: String
    public var ingredientsText: String
    /// Canonical codes found in the ingredients.
    public var additivesFound: [ECode]
    public var timestamp: Date
    public var region: Region

    public init(barcode: String, ingredientsText: String, additivesFound: [ECode], timestamp: Date = Date(), region: Region) {
        self.barcode = barcode
        self.ingredientsText = ingredientsText
        self.additivesFound = additivesFound
        self.timestamp = timestamp
        self.region = region
    }
}

/// The schema of `user.sqlite`. Scan history came first; the product cache was added in version 2.
enum UserSchema {
    static let migrations: [Migration] = [
        Migration(version: 1, sql: """
            CREATE TABLE scan_history (
                id           INTEGER PRIMARY KEY AUTOINCREMENT,
                scanned_at   TEXT NOT NULL CHECK (scanned_at GLOB '[0-9][0-9][0-9][0-9]-*'),
                input_label  TEXT NOT NULL CHECK (length(input_label) BETWEEN 1 AND 255),
                input_kind   TEXT NOT NULL CHECK (input_kind IN ('image', 'text', 'code', 'barcode')),
                region       TEXT NOT NULL CHECK (length(region) BETWEEN 2 AND 3),
                codes        TEXT NOT NULL,
                flagged      INTEGER NOT NULL CHECK (flagged >= 0),
                neutral      INTEGER NOT NULL CHECK (neutral >= 0),
                unmatched    INTEGER NOT NULL CHECK (unmatched >= 0),
                data_version TEXT NOT NULL,
                pack_version TEXT NOT NULL,
                result_json  TEXT NOT NULL CHECK (json_valid(result_json))
            );
            CREATE INDEX scan_history_time ON scan_history (scanned_at DESC);
            """),
        Migration(version: 2, sql: """
            CREATE TABLE product_cache (
                barcode          TEXT NOT NULL PRIMARY KEY
                                 CHECK (length(barcode) BETWEEN 6 AND 14 AND barcode NOT GLOB '*[^0-9]*'),
                ingredients_text TEXT NOT NULL,
                additives_found  TEXT NOT NULL,
                timestamp        TEXT NOT NULL,
                region           TEXT NOT NULL CHECK (length(region) BETWEEN 2 AND 3)
            ) WITHOUT ROWID;
            """),
    ]

    static var version: Int { migrations.last!.version }
}
