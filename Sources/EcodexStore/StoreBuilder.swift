import EcodexCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `additives.sqlite` from a pack and puts it in place atomically.
///
/// The store is written to a temporary file in the data directory, flushed to
/// disk, and renamed over the old one. rename() within a directory is atomic,
/// so a reader (or a crash) only ever sees the old store or the new one, never
/// a half-written file.
enum StoreBuilder {
    /// Temporary build files start with this; stale ones are removed on open.
    static let temporaryPrefix = "additives.sqlite.tmp-"

    /// Builds the store for `pack` and replaces `location.additivesPath` with it, holding
    /// the lock every writer of the store takes (so a pack install cannot interleave).
    /// `fromBundledPack` records that the store holds the program's own base pack, which a
    /// newer program may replace when it brings new base data (see `AdditiveStore.init`).
    static func install(_ pack: Pack, at location: StoreLocation, builtAt: Date = Date(),
                        fromBundledPack: Bool = false) throws {
        try FolderLock.withLock(FolderLock.additives, in: location.directory) {
            try installLocked(pack, at: location, builtAt: builtAt, fromBundledPack: fromBundledPack)
        }
    }

    private static func installLocked(_ pack: Pack, at location: StoreLocation, builtAt: Date,
                                      fromBundledPack: Bool) throws {
        try replace(location.additivesPath) { temporary in
            try build(pack, at: temporary, builtAt: builtAt, fromBundledPack: fromBundledPack)
        }
        AdditiveStore.refreshParserImage(location)
    }

    /// Writes a new store with `make` into a temporary file beside `target`, flushes it
    /// and renames it over `target`. The caller holds the writers' lock.
    private static func replace(_ target: URL, make: (String) throws -> Void) throws {
        let fm = FileManager.default
        let directory = target.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            temporaryPrefix + "\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? fm.removeItem(at: temporary) }
        do {
            try make(temporary.path)
            guard DataFolder.syncFile(temporary.path) else {
                throw StoreError.cannotWrite(folder: directory, detail: "fsync: \(String(cString: strerror(errno)))")
            }
        } catch let error as DataFolder.SystemError {
            throw StoreError.cannotWrite(folder: directory, detail: error.description)
        } catch let error as SQLiteError {
            if error.isReadOnly { throw StoreError.cannotWrite(folder: directory, detail: error.description) }
            throw StoreError.buildFailed(detail: error.description)
        } catch let error as RecordCodec.Failure {
            throw StoreError.buildFailed(detail: "compressing a record: \(error)")
        }
        // A rollback journal left by a crash while the old file was being migrated
        // would be replayed into the new file: it belongs to the old one, so it goes first.
        for suffix in ["-journal", "-wal", "-shm"] {
            try? fm.removeItem(atPath: target.path + suffix)
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw StoreError.cannotWrite(folder: directory, detail: "rename: \(reason)")
        }
        // Make the rename itself durable; failure here only risks losing the new file on power loss.
        _ = DataFolder.syncFile(directory.path)
    }

    /// Brings a store of a layout older than the first migration (`AdditiveSchema`) to the
    /// current one: a new file built from the store's own records, with all of its metadata
    /// (versions, build time, install record), renamed over it. The caller holds the writers' lock.
    static func upgrade(_ path: URL) throws {
        var meta: [(String, String)] = []
        var additives: [Additive] = []
        do {
            let old = try Connection(path: path.path, mode: .readOnly)
            defer { old.close() }
            try old.prepare("SELECT key, value FROM meta").forEachRow { meta.append(($0.text(0), $0.text(1))) }
            let decoder = JSONDecoder()
            try old.prepare("SELECT record FROM additives").forEachRow {
                additives.append(try decoder.decode(Additive.self, from: Data($0.text(0).utf8)))
            }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw StoreError.damaged(path: path, detail: "record does not decode: \(error)")
        }
        let values = Dictionary(meta, uniquingKeysWith: { _, last in last })
        guard let version = values["pack_version"], let dataVersion = values["data_version"] else {
            throw StoreError.damaged(path: path, detail: "meta table has no pack or data version")
        }
        let regions = (values["regions"] ?? "").split(separator: ",").compactMap { Region(rawValue: String($0)) }
        let pack = Pack(version: version, dataVersion: dataVersion, regions: regions, additives: additives)
        try replace(path) { temporary in
            try build(pack, at: temporary, builtAt: Date())
            let db = try Connection(path: temporary, mode: .readWrite)
            defer { db.close() }
            try db.execute("PRAGMA journal_mode = OFF")
            try db.transaction {
                let insert = try db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
                for (key, value) in meta where key != "schema_version" { try insert.run([.text(key), .text(value)]) }
            }
        }
    }

    /// Writes the whole store for `pack` into a new file at `path`.
    static func build(_ pack: Pack, at path: String, builtAt: Date, fromBundledPack: Bool = false) throws {
        try DataFolder.createPrivateFile(path)
        let db = try Connection(path: path, mode: .readWrite)
        // A build file nobody reads yet needs no rollback journal; it is
        // discarded whole if anything fails, and flushed once before the rename.
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON")
        try db.migrate(AdditiveSchema.migrations)
        let codes = Set(pack.additives.map(\.code))
        let formatter = ISO8601DateFormatter()
        try db.transaction {
            let meta = try db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)")
            var entries: [(String, String)] = fromBundledPack ? [("base", "bundled")] : []
            entries += [
                ("schema_version", String(AdditiveSchema.version)),
                ("pack_version", pack.version),
                ("data_version", pack.dataVersion),
                ("regions", pack.regions.map(\.rawValue).joined(separator: ",")),
                ("built_at", formatter.string(from: builtAt)),
            ]
            // Only knowledge that differs from the program's own is kept (the base store stays small).
            if let knowledge = pack.knowledge, knowledge != LabelKnowledge.shipped {
                entries.append((AdditiveStore.knowledgeKey, String(decoding: try knowledge.encoded(), as: UTF8.self)))
            }
            for (key, value) in entries { try meta.run([.text(key), .text(value)]) }

            let encoder = RecordWriter.makeEncoder()
            var json: [ECode: [UInt8]] = [:]
            for additive in pack.additives { json[additive.code] = Array(try encoder.encode(additive)) }
            let byFrequency = pack.additives.sorted {
                $0.labelFrequency != $1.labelFrequency ? $0.labelFrequency > $1.labelFrequency : $0.code < $1.code
            }
            let codec = RecordCodec(dictionary: RecordCodec.dictionary(from: byFrequency.compactMap { json[$0.code] }))
            try db.prepare("INSERT INTO record_dictionary (id, dictionary) VALUES (1, ?)").run([.blob(codec.dictionary)])
            let writer = try RecordWriter(db, codec: codec)
            for additive in pack.additives.sorted(by: { $0.code < $1.code }) {
                try writer.insert(additive, parent: parentCode(of: additive, known: codes), json: json[additive.code])
            }
            try db.execute("INSERT INTO names_fts (names_fts) VALUES ('rebuild')")
        }
        try db.execute("INSERT INTO names_fts (names_fts) VALUES ('optimize'); ANALYZE; VACUUM")
    }

    /// Inserts records and their names (a pack build, or a delta applied to a copy of the store).
    struct RecordWriter {
        let insertAdditive: Statement
        let updateAdditive: Statement
        let insertName: Statement
        let codec: RecordCodec
        private let compressor: RecordCodec.Compressor
        let encoder = RecordWriter.makeEncoder()
        private let db: Connection

        /// The record JSON the store keeps: the pack schema with sorted keys.
        static func makeEncoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }

        /// A writer that compresses records with `codec`, or with the store's own dictionary when nil.
        init(_ db: Connection, codec: RecordCodec? = nil) throws {
            self.db = db
            if let codec {
                self.codec = codec
            } else {
                let read = try db.prepare("SELECT dictionary FROM record_dictionary WHERE id = 1")
                defer { read.reset() }
                guard try read.step() else { throw SQLiteError.corrupt("no record dictionary", sql: read.sql) }
                self.codec = RecordCodec(dictionary: read.blob(0))
            }
            compressor = try RecordCodec.Compressor(self.codec)
            insertAdditive = try db.prepare("""
                INSERT INTO additives (code, number, parent, declared_parent, canonical_name, classes, evidence_level,
                                       label_frequency, record)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                """)
            updateAdditive = try db.prepare("""
                UPDATE additives SET number = ?2, parent = ?3, declared_parent = ?4, canonical_name = ?5, classes = ?6,
                    evidence_level = ?7, label_frequency = ?8, record = ?9
                WHERE code = ?1
                """)
            insertName = try db.prepare("""
                INSERT INTO names (key, name, code, lang, context_only, exact) VALUES (?, ?, ?, ?, ?, ?)
                """)
        }

        /// The `additives` row's values, in the order both statements number them.
        private func columns(_ additive: Additive, parent: ECode?, json: [UInt8]?) throws -> [SQLValue] {
            let record = try compressor.compress(json ?? Array(encoder.encode(additive)))
            return [
                .text(additive.code.description), .int(Int64(additive.code.number)),
                parent.map { .text($0.description) } ?? .null, additive.parent.map { .text($0.description) } ?? .null,
                .text(additive.canonicalName), .text(additive.classes.joined(separator: ",")),
                .text(additive.evidenceLevel.rawValue), .int(Int64(max(0, additive.labelFrequency))), .blob(record),
            ]
        }

        /// Adds the record and its names (not to `names_fts`: a build rebuilds the index, a patch
        /// indexes what it adds). Returns the rowids and keys of the names it stored.
        @discardableResult
        func insert(_ additive: Additive, parent: ECode?, json: [UInt8]? = nil) throws -> [(id: Int64, key: String)] {
            try insertAdditive.run(columns(additive, parent: parent, json: json))
            return try StoreBuilder.uniqueNameRows(of: additive).compactMap { try insertName($0, of: additive) }
        }

        /// Rewrites the row of a record the store has, leaving its names alone.
        func update(_ additive: Additive, parent: ECode?) throws {
            try updateAdditive.run(columns(additive, parent: parent, json: nil))
        }

        /// Adds one of the record's names and returns its rowid and key; nil when its key is empty,
        /// so it is not stored.
        @discardableResult
        func insertName(_ row: NameRow, of additive: Additive) throws -> (id: Int64, key: String)? {
            let key = NameKey.normalize(row.name)
            guard !key.isEmpty else { return nil }
            try insertName.run([
                .text(key), .text(row.name), .text(additive.code.description), .text(row.lang),
                .int(row.contextOnly ? 1 : 0), .int(row.exact ? 1 : 0),
            ])
            return (db.lastInsertRowID, key)
        }
    }

    /// The record's own `parent` when the pack has it, else the closest ancestor
    /// code the pack has (E160a(ii) → E160a → E160), so `children(of:)` works
    /// even for packs that leave `parent` out.
    static func parentCode(of additive: Additive, known: Set<ECode>) -> ECode? {
        parentCode(of: additive.code, declared: additive.parent, known: known)
    }

    static func parentCode(of code: ECode, declared: ECode?, known: Set<ECode>) -> ECode? {
        if let p = declared, known.contains(p), p != code { return p }
        return code.lineage.dropFirst().first(where: known.contains)
    }

    struct NameRow: Hashable {
        var name: String
        var lang: String
        var contextOnly: Bool
        var exact: Bool
    }

    /// The names to index, in the same order and with the same context flags
    /// as `Lexicon(additives:)`, so the parser sees the same lexicon either way.
    static func nameRows(of additive: Additive) -> [NameRow] {
        let contextual = Set(additive.contextNames.map { $0.lowercased() })
        var rows: [NameRow] = []
        var seen = Set<String>()
        for (lang, names) in additive.names.sorted(by: { $0.key < $1.key }) {
            for (i, name) in names.enumerated() {
                seen.insert(name.lowercased())
                rows.append(NameRow(name: name, lang: lang, contextOnly: contextual.contains(name.lowercased()),
                                    exact: i == 0))
            }
        }
        for name in additive.contextNames where !seen.contains(name.lowercased()) {
            rows.append(NameRow(name: name, lang: "en", contextOnly: true, exact: false))
        }
        return rows
    }

    /// `nameRows` without repeats: the first row of each (lang, name) is the one stored.
    static func uniqueNameRows(of additive: Additive) -> [NameRow] {
        struct LangName: Hashable { var lang: String; var name: String }
        var taken = Set<LangName>()
        return nameRows(of: additive).filter { taken.insert(LangName(lang: $0.lang, name: $0.name)).inserted }
    }

    /// Removes build files left by a crashed build. Only old ones: a fresh one
    /// may belong to another process building right now.
    static func removeStaleTemporaryFiles(in directory: URL, olderThan age: TimeInterval = 600) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { return }
        let cutoff = Date().addingTimeInterval(-age)
        // The parser image's temporary files too (`DataFolder.writeAtomically`).
        for name in names where name.hasPrefix(temporaryPrefix) || name.hasPrefix("additives.index.tmp-") {
            let url = directory.appendingPathComponent(name)
            if let modified = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
               modified < cutoff {
                try? fm.removeItem(at: url)
            }
        }
    }
}
