import EcodexCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The on-disk additive store (`additives.sqlite`): lookups by code, by name,
/// and fuzzy by name, for the pipeline and for `scan code` / `scan lookup`.
///
/// Opening creates the store from the base pack when the file is missing, so
/// the very first scan works offline. An installed store is opened read-only:
/// only a rebuild or a pack install replaces it, always as a whole file.
/// Every failure is a `StoreError` (a `lookup_error`).
///
/// One instance may be shared between threads; a lock serialises access to
/// the connection and the caches.
public final class AdditiveStore: AdditiveCatalog, @unchecked Sendable {
    public let location: StoreLocation
    public let versions: DataVersions
    /// When the installed store was built (ISO 8601), from its meta table.
    public let builtAt: String
    /// The signed manifest of the pack the data was installed from; nil for data built from a
    /// pack file given to the program (the bundled one) or installed by an older program.
    public let installedManifest: PackManifest?
    /// Whether the keys built into the program accept the data (see `isAnswerable(to:)`), checked at open.
    public private(set) var dataIsVerified = true

    private let db: Connection
    /// Serialises access to `db`, the statements and the caches.
    private let shared: SerializedConnection
    private let decoder = JSONDecoder()
    /// Decompresses the records (the store's own dictionary).
    private let codec: RecordCodec
    private var records: [ECode: Additive] = [:]
    private var cachedLexicon: Lexicon?
    private var cachedParser: IngredientParser?
    private let parserLock = NSLock()
    /// The store file's identity when it was opened (see `imageStamp`); nil when it changed meanwhile.
    private let fileIdentity: String?
    private let byCode: Statement
    private let byParent: Statement
    let byKey: Statement
    let byShortKey: Statement
    let bySubstring: Statement
    let byTrigrams: Statement
    let byPrefix: Statement
    /// Parsed codes by their text, so building the lexicon parses each code once.
    var parsedCodes: [String: ECode] = [:]

    /// Opens the store at `location`, building it from the base pack first when
    /// it does not exist yet.
    ///
    /// - Parameter basePackURL: the pack to build from; nil means the pack bundled with the program.
    /// - Throws: `lookup_error` when the file is damaged, made by a newer version,
    ///   or cannot be created or upgraded because the folder or file is read-only.
    public convenience init(location: StoreLocation, basePackURL: URL? = nil) throws {
        let path = location.additivesPath
        try DataFolder.prepare(location.directory)
        StoreBuilder.removeStaleTemporaryFiles(in: location.directory)
        if !FileManager.default.fileExists(atPath: path.path) {
            // First run: build under the writers' lock, unless another process built it meanwhile.
            try FolderLock.withLock(FolderLock.additives, in: location.directory) {
                guard !FileManager.default.fileExists(atPath: path.path) else { return }
                try StoreBuilder.install(try AdditiveStore.loadPack(basePackURL), at: location,
                                         fromBundledPack: basePackURL == nil)
            }
        }
        // A new program brings new base data under the same pack version (`data_version` moves):
        // a store built from the older base pack is rebuilt once, under the writers' lock.
        // Only a store built from a bundled pack is replaced; an installed update or a store built
        // from another pack file is the user's choice.
        func stale() -> Bool {
            guard let meta = try? AdditiveStore.meta(path), meta["base"] == "bundled" else { return false }
            return meta["pack_version"] == bundled?.packVersion && meta["data_version"] != bundled?.dataVersion
        }
        let bundled = basePackURL == nil ? AdditiveStore.bundledBasePackURL.flatMap(BundledPackVersions.read) : nil
        if bundled != nil, stale() {
            try FolderLock.withLock(FolderLock.additives, in: location.directory) {
                guard stale() else { return }
                try StoreBuilder.install(try AdditiveStore.loadPack(nil), at: location, fromBundledPack: true)
            }
        }
        try self.init(opening: location)
    }

    /// Opens the store at `location` as it is: no first-run build, no rebuild of stale data.
    init(opening location: StoreLocation) throws {
        self.location = location
        let path = location.additivesPath
        let identity = AdditiveStore.fileIdentity(path)
        let db = try AdditiveStore.openChecked(path)
        do {
            var meta: [String: String] = [:]
            try db.prepare("SELECT key, value FROM meta").forEachRow { meta[$0.text(0)] = $0.text(1) }
            guard let pack = meta["pack_version"], let data = meta["data_version"] else {
                throw StoreError.damaged(path: path, detail: "meta table has no pack or data version")
            }
            versions = DataVersions(dataVersion: data, packVersion: pack)
            builtAt = meta["built_at"] ?? ""
            installedManifest = meta["installed_manifest"].flatMap { try? JSONValue.parse(canonical: Array($0.utf8)) }
                .flatMap { try? PackManifest(json: $0) }
            if meta["installed_manifest"] != nil, installedManifest == nil {
                throw StoreError.damaged(path: path, detail: "the installed pack's manifest cannot be read")
            }
            let dictionary = try db.prepare("SELECT dictionary FROM record_dictionary WHERE id = 1")
            guard try dictionary.step() else { throw StoreError.damaged(path: path, detail: "no record dictionary") }
            codec = RecordCodec(dictionary: dictionary.blob(0))
            dictionary.reset()
            byCode = try db.prepare("SELECT record FROM additives WHERE code = ?")
            byParent = try db.prepare("SELECT record FROM additives WHERE parent = ? ORDER BY number, code")
            // A whole key: the rows holding all of its trigrams (?1), then the key itself (?2).
            // Main names first, then by label frequency.
            byKey = try db.prepare("""
                SELECT n.name, n.code, n.lang, n.exact, a.label_frequency
                FROM names_fts f JOIN names n ON n.id = f.rowid JOIN additives a ON a.code = n.code
                WHERE names_fts MATCH ?1 AND n.key = ?2 ORDER BY n.exact DESC, a.label_frequency DESC, n.id
                """)
            // Keys shorter than a trigram are not in names_fts; the partial index holds them.
            byShortKey = try db.prepare("""
                SELECT n.name, n.code, n.lang, n.exact, a.label_frequency
                FROM names n JOIN additives a ON a.code = n.code
                WHERE n.key = ?1 AND length(n.key) < 3 ORDER BY n.exact DESC, a.label_frequency DESC, n.id
                """)
            // Names containing the query: the rows holding all of its trigrams (?1), then the
            // substring itself (?3). The most frequent on labels come first, since that is the tiebreak.
            bySubstring = try db.prepare("""
                SELECT n.key, n.name, n.code, n.lang, a.label_frequency
                FROM names_fts f JOIN names n ON n.id = f.rowid JOIN additives a ON a.code = n.code
                WHERE names_fts MATCH ?1 AND instr(n.key, ?3) > 0 ORDER BY a.label_frequency DESC, n.id LIMIT ?2
                """)
            // Typo candidates: names holding all the trigrams of one piece of the query and
            // close to it in length (k edits change the length by at most k). Ranking them with
            // bm25 would cost more than measuring their edit distance, so the caller does that.
            byTrigrams = try db.prepare("""
                SELECT n.key, n.name, n.code, n.lang, a.label_frequency
                FROM names_fts f JOIN names n ON n.id = f.rowid JOIN additives a ON a.code = n.code
                WHERE names_fts MATCH ?1 AND length(n.key) BETWEEN ?2 AND ?3
                """)
            // Names starting with a query shorter than a trigram: a scan of the names (a
            // b-tree over every key would add half their size again, for this one rare query).
            // Ordered as that index used to give them, so the same 200 are kept.
            byPrefix = try db.prepare("""
                SELECT n.key, n.name, n.code, n.lang, a.label_frequency
                FROM names n JOIN additives a ON a.code = n.code
                WHERE n.key >= ?1 AND n.key < ?1 || char(1114111) ORDER BY n.key, n.exact, n.code, n.id LIMIT ?2
                """)
        } catch let error as SQLiteError {
            // This SQL is known to be right, so a failure here means the file does
            // not have the schema its version promises: treat it as damaged.
            throw StoreError.damaged(path: path, detail: error.description)
        }
        self.db = db
        fileIdentity = identity == AdditiveStore.fileIdentity(path) ? identity : nil
        shared = SerializedConnection(db) { AdditiveStore.translate($0, path: path) }
        dataIsVerified = isAnswerable(to: .shipped)
    }

    /// True when `trust` accepts the data: built from a pack file the program was given (the
    /// bundled one), or installed from a pack whose signed manifest those keys accept now. Checked
    /// again at every open, so data installed with other keys stays marked as such.
    public func isAnswerable(to trust: TrustedKeys) -> Bool {
        guard let installedManifest else { return true }
        return (try? PackVerifier.checkSignatures(installedManifest, trust: trust)) != nil
    }

    /// The content checksum of every record (`PackPayload.contentChecksum`): what a delta's base must be.
    public func contentChecksum() throws -> String {
        try PackPayload.contentChecksum(of: allAdditives())
    }

    /// An installed store's meta table (versions, build time, `base: bundled`).
    static func meta(_ path: URL) throws -> [String: String] {
        let db = try openChecked(path)
        var meta: [String: String] = [:]
        try db.prepare("SELECT key, value FROM meta").forEachRow { meta[$0.text(0)] = $0.text(1) }
        return meta
    }

    /// The pack bundled with the program, from which a first run builds the store.
    /// The data and pack versions this program bundles, read without building a store.
    public static var bundledVersions: DataVersions? { bundledBasePackURL.flatMap(BundledPackVersions.read) }

    public static var bundledBasePackURL: URL? {
        Bundle.module.url(forResource: "base-pack", withExtension: "json")
    }

    /// Replaces `additives.sqlite` with a fresh build of the base pack.
    ///
    /// The new file is built beside the old one and renamed over it, so a crash
    /// leaves the old store in place. `user.sqlite` (history, product cache) is
    /// never touched. Instances already open keep reading the old file until released.
    public static func rebuild(location: StoreLocation, basePackURL: URL? = nil) throws {
        try StoreBuilder.install(try loadPack(basePackURL), at: location, fromBundledPack: basePackURL == nil)
    }

    /// Installs `pack` as the additive store, atomically (for pack updates).
    public static func install(_ pack: Pack, location: StoreLocation) throws {
        try StoreBuilder.install(pack, at: location)
    }

    // MARK: - Lookups

    /// The record for `code`, or for its closest known parent (E160a(ii) → E160a → E160).
    public func additive(code: ECode) throws -> Additive? {
        try withConnection {
            for c in code.lineage { if let found = try record(c) { return found } }
            return nil
        }
    }

    /// The sub-forms of `code` (E160a(i), E160a(ii), ... for E160a), in code order.
    public func children(of code: ECode) throws -> [Additive] {
        try withConnection {
            var out: [Additive] = []
            try byParent.forEachRow([.text(code.description)]) { out.append(try decode($0)) }
            return out
        }
    }

    /// Every additive in the store, in code order.
    public func allAdditives() throws -> [Additive] {
        try withConnection {
            var out: [Additive] = []
            try db.prepare("SELECT record FROM additives ORDER BY number, code").forEachRow {
                let additive = try decode($0)
                records[additive.code] = additive
                out.append(additive)
            }
            return out
        }
    }

    /// Decodes every record into memory now, so that later lookups by code cost
    /// well under a microsecond instead of a JSON decode (tens of microseconds)
    /// each. Worth calling on a spare thread while OCR runs; never required.
    public func preload() throws {
        _ = try allAdditives()
    }

    /// Every name the parser should know, context-only names included. Built once per instance.
    public func lexicon() throws -> Lexicon {
        try withConnection {
            if let cachedLexicon { return cachedLexicon }
            var entries: [LexiconEntry] = []
            var known = Set<ECode>()
            var functions: [ECode: [String]] = [:]
            try db.prepare("SELECT code, classes FROM additives").forEachRow {
                guard let c = parseCode($0.text(0)) else { return }
                known.insert(c)
                functions[c] = $0.text(1).split(separator: ",").map(String.init)
            }
            try db.prepare("SELECT name, code, lang, context_only FROM names ORDER BY id").forEachRow {
                guard let code = parseCode($0.text(1)) else { return }
                entries.append(LexiconEntry(name: $0.text(0), code: code, lang: $0.text(2), contextOnly: $0.int64(3) != 0))
            }
            let lexicon = Lexicon(entries: entries, knownCodes: known, functions: functions)
            cachedLexicon = lexicon
            return lexicon
        }
    }

    // MARK: - The parser

    /// The parser for this store's names, once per instance.
    ///
    /// It is mapped from the image saved beside the store (`additives.index`, see `ParserImage`)
    /// when that image was made from this very store file by this program, and checks out;
    /// otherwise it is built from the names and the image is saved for the next process.
    /// Saving is best effort: a read-only folder, or a writer of the store holding its lock,
    /// only costs the next process the same build.
    public func parser() throws -> IngredientParser {
        // Its own lock: building takes the connection's (through `lexicon()`).
        parserLock.lock()
        defer { parserLock.unlock() }
        if let cachedParser { return cachedParser }
        if let stamp = imageStamp, let loaded = ParserImage.load(path: location.parserImagePath.path, stamp: stamp) {
            cachedParser = loaded
            return loaded
        }
        let built = IngredientParser(lexicon: try lexicon())
        cachedParser = built
        try? FolderLock.withLockIfFree(FolderLock.additives, in: location.directory) { saveImage(of: built) }
        return built
    }

    /// Writes `parser`'s image for this store. The caller holds the writers' lock, under which
    /// the store cannot be replaced: saved only when the file is still the one this instance read.
    private func saveImage(of parser: IngredientParser) {
        guard let stamp = imageStamp, AdditiveStore.fileIdentity(location.additivesPath) == fileIdentity else { return }
        try? ParserImage.withEncoded(parser, stamp: stamp) { head, payload in
            try head.withUnsafeBytes { try DataFolder.writeAtomically(parts: [$0, payload], to: location.parserImagePath) }
        }
    }

    /// Builds and saves the parser image for the store now at `location`, after a build, an
    /// install or a rollback put a new file in place. The caller holds the writers' lock.
    /// Best effort: without an image the next process builds the parser and saves it.
    static func refreshParserImage(_ location: StoreLocation) {
        guard let store = try? AdditiveStore(opening: location),
              let lexicon = try? store.lexicon() else {
            try? FileManager.default.removeItem(at: location.parserImagePath)
            return
        }
        store.saveImage(of: IngredientParser(lexicon: lexicon))
    }

    /// What a parser image must carry to be this store's: the versions, build time and the
    /// identity of the file itself (a rebuild or install renames a new file into place).
    /// Nil when the file changed while it was being opened.
    var imageStamp: String? {
        guard let fileIdentity else { return nil }
        return "pack \(versions.packVersion); data \(versions.dataVersion); built \(builtAt); file \(fileIdentity)"
    }

    /// Device, inode, size and modification time of the file at `url`, or nil.
    static func fileIdentity(_ url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// Checks the store file for damage; true when it is sound (see `isSound`).
    public func integrityCheck() -> Bool {
        (try? withConnection { AdditiveStore.isSound(location.additivesPath) }) ?? false
    }

    /// SQLite's full `PRAGMA integrity_check`, FTS5's own check of the name index
    /// against the `names` table, every record decompressed against its zlib
    /// checksum (bytes changed inside a record leave every page well-formed, and
    /// only that checksum finds them), and no name without its record; true when all pass.
    ///
    /// The check runs on a read-write connection when the file allows one: on SQLite
    /// 3.40 a read-only connection does not report a row that breaks a CHECK
    /// constraint, so a zeroed or altered page could pass. Nothing is written.
    ///
    /// A file SQLite can only open read-only (a read-only folder or mount) is checked on a
    /// private copy in the temporary folder, so read-only never passes for damage.
    static func isSound(_ path: URL) -> Bool {
        guard let db = (try? Connection(path: path.path, mode: .readWrite)) ?? (try? Connection(path: path.path, mode: .readOnly))
        else { return false }
        defer { db.close() }
        if db.isReadOnly, let sound = onPrivateCopy(of: path, isSound) { return sound }
        do {
            let check = try db.prepare("PRAGMA integrity_check")
            guard try check.step(), check.text(0) == "ok", try !check.step() else { return false }
            // 'integrity-check' with rank 1 compares the index with its external content table.
            // A write statement: without a copy to check, a read-only file skips only this check.
            if !db.isReadOnly { try db.execute("INSERT INTO names_fts (names_fts, rank) VALUES ('integrity-check', 1)") }
            // A store of the first layout (kept for rollback) holds plain JSON, which the
            // integrity check already validated (a CHECK constraint).
            guard try db.userVersion() >= 2 else { return true }
            guard try db.scalarInt("SELECT count(*) FROM names WHERE code NOT IN (SELECT code FROM additives)") == 0 else {
                return false
            }
            let dictionary = try db.prepare("SELECT dictionary FROM record_dictionary WHERE id = 1")
            guard try dictionary.step() else { return false }
            let codec = RecordCodec(dictionary: dictionary.blob(0))
            dictionary.reset()
            try db.prepare("SELECT record FROM additives").forEachRow { row in
                _ = try row.withBlob(0) { try codec.decompress($0) }
            }
            return true
        } catch {
            return false
        }
    }

    /// Runs `body` on a byte-for-byte private copy of `path` in the temporary folder, removed
    /// afterwards; nil when the copy cannot be made or is itself read-only.
    private static func onPrivateCopy<T>(of path: URL, _ body: (URL) -> T) -> T? {
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("ecodex-check-\(getpid())-\(UUID().uuidString.prefix(8)).sqlite")
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(copy.path + suffix) }
        }
        let source = open(path.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { return nil }
        defer { close(source) }
        guard let target = try? PrivateFile.create(copy.path, flags: O_WRONLY | O_CREAT | O_EXCL) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied = true
        while copied {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { copied = n == 0; break }
            copied = buffer.withUnsafeBytes { write(target, $0.baseAddress, n) } == n
        }
        close(target)
        guard copied, let probe = try? Connection(path: copy.path, mode: .readWrite), !probe.isReadOnly else { return nil }
        probe.close()
        return body(copy)
    }

    // MARK: - Internals

    func record(_ code: ECode) throws -> Additive? {
        if let cached = records[code] { return cached }
        try byCode.bind([.text(code.description)])
        defer { byCode.reset() }
        guard try byCode.step() else { return nil }
        let additive = try decode(byCode)
        records[code] = additive
        return additive
    }

    /// The stored JSON of one record, decompressed but not decoded (for measuring the SQLite part of a lookup).
    func recordJSON(_ code: ECode) throws -> String? {
        try withConnection {
            try byCode.bind([.text(code.description)])
            defer { byCode.reset() }
            return try byCode.step() ? String(decoding: try json(byCode), as: UTF8.self) : nil
        }
    }

    /// The JSON of the record in column 0 of the current row.
    private func json(_ row: Statement) throws -> [UInt8] {
        do {
            return try row.withBlob(0) { try codec.decompress($0) }
        } catch {
            throw StoreError.damaged(path: location.additivesPath, detail: "record does not decompress: \(error)")
        }
    }

    /// The record in column 0 of the current row.
    private func decode(_ row: Statement) throws -> Additive {
        let json = try json(row)
        do {
            return try decoder.decode(Additive.self, from: Data(json))
        } catch {
            throw StoreError.damaged(path: location.additivesPath, detail: "record does not decode: \(error)")
        }
    }

    /// Runs `body` under the lock, turning SQLite failures into shopper-facing lookup errors.
    func withConnection<T>(_ body: () throws -> T) throws -> T {
        try shared.run { _ in try body() }
    }

    static func translate(_ error: SQLiteError, path: URL) -> StoreError {
        if error.isDamage { return .damaged(path: path, detail: error.description) }
        return .readFailed(path: path, detail: "\(error)")
    }

    static func loadPack(_ url: URL?) throws -> Pack {
        guard let url = url ?? bundledBasePackURL else {
            throw StoreError.basePackMissing(detail: "no base-pack.json in the program's resources")
        }
        do {
            return try Pack.read(from: url)
        } catch {
            throw StoreError.basePackMissing(detail: "\(url.path): \(error)")
        }
    }

    /// Opens an installed store read-only and checks that it is one this program can read,
    /// upgrading its schema in place when it is older.
    static func openChecked(_ path: URL, migrations: [Migration] = AdditiveSchema.migrations) throws -> Connection {
        let supported = migrations.last?.version ?? 0
        do {
            var db = try Connection(path: path.path, mode: .readOnly)
            let version = try db.userVersion()
            // An empty or foreign SQLite file has user_version 0 and none of our tables.
            guard version > 0 else { throw StoreError.damaged(path: path, detail: "no Ecodex schema (user_version 0)") }
            if version > supported {
                throw StoreError.newerSchema(path: path, found: version, supported: supported)
            }
            if version < supported {
                // An upgrade in place writes the store: it takes the writers' lock like a rebuild.
                let directory = path.deletingLastPathComponent()
                guard access(directory.path, W_OK) == 0 else {
                    throw StoreError.readOnlyUpgrade(path: path, detail: "the folder is not writable")
                }
                try FolderLock.withLock(FolderLock.additives, in: directory) {
                    do {
                        let writer = try Connection(path: path.path, mode: .readWrite)
                        // Read again under the lock: another process may have upgraded it meanwhile.
                        let current = try writer.userVersion()
                        if current > 0, current < migrations[0].version {
                            writer.close()
                            try StoreBuilder.upgrade(path)
                        } else {
                            try writer.migrate(migrations)
                        }
                    } catch let error as SQLiteError where error.isReadOnly {
                        throw StoreError.readOnlyUpgrade(path: path, detail: error.description)
                    }
                }
                db = try Connection(path: path.path, mode: .readOnly)
            }
            try checkLength(db, path: path)
            return db
        } catch let error as SQLiteError {
            if error.isReadOnly && !error.isDamage { throw StoreError.unreadable(path: path, detail: error.description) }
            throw translate(error, path: path)
        }
    }

    /// Catches a truncated file at open: SQLite only notices missing pages when a
    /// query reaches them, but the header records how many pages there should be.
    private static func checkLength(_ db: Connection, path: URL) throws {
        let pages = try db.scalarInt("PRAGMA page_count")
        let pageSize = try db.scalarInt("PRAGMA page_size")
        let attributes = try? FileManager.default.attributesOfItem(atPath: path.path)
        guard let size = (attributes?[.size] as? NSNumber)?.int64Value else { return }
        if size < pages * pageSize {
            throw StoreError.damaged(path: path, detail: "file is \(size) bytes, header says \(pages * pageSize)")
        }
    }
}

/// The versions of the bundled base pack, read from the end of the file without decoding
/// its records: `scan pack build` writes sorted keys, so `data_version`, `regions` and
/// `version` follow the `additives` array. Nil when the tail does not have that shape.
enum BundledPackVersions {
    static func read(_ url: URL) -> DataVersions? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return nil }
        try? handle.seek(toOffset: size > 512 ? size - 512 : 0)
        guard let data = try? handle.readToEnd(), let tail = String(data: data, encoding: .utf8),
              let start = tail.range(of: "\"data_version\"", options: .backwards) else { return nil }
        let object = "{" + tail[start.lowerBound...]
        guard let json = try? JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any],
              let dataVersion = json["data_version"] as? String, let version = json["version"] as? String else { return nil }
        return DataVersions(dataVersion: dataVersion, packVersion: version)
    }
}
