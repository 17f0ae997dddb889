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
        let fm = FileManager.default
        let temporary = location.directory.appendingPathComponent(
            temporaryPrefix + "\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? fm.removeItem(at: temporary) }
        do {
            try build(pack, at: temporary.path, builtAt: builtAt, fromBundledPack: fromBundledPack)
            guard DataFolder.syncFile(temporary.path) else {
                throw StoreErrors.cannotWrite(location.directory, detail: "fsync: \(String(cString: strerror(errno)))")
            }
        } catch let error as DataFolder.SystemError {
            throw StoreErrors.cannotWrite(location.directory, detail: error.description)
        } catch let error as SQLiteError {
            if error.isReadOnly { throw StoreErrors.cannotWrite(location.directory, detail: error.description) }
            throw EcodexError.lookup("The additive list could not be built. Reinstall Ecodex, or restore it.", advice: .rebuildStore,
                                     detail: error.description)
        }
        // A rollback journal left by a crash while the old file was being migrated
        // would be replayed into the new file: it belongs to the old one, so it goes first.
        for suffix in ["-journal", "-wal", "-shm"] {
            try? fm.removeItem(atPath: location.additivesPath.path + suffix)
        }
        guard rename(temporary.path, location.additivesPath.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw StoreErrors.cannotWrite(location.directory, detail: "rename: \(reason)")
        }
        // Make the rename itself durable; failure here only risks losing the new file on power loss.
        _ = DataFolder.syncFile(location.directory.path)
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
            for (key, value) in entries { try meta.run([.text(key), .text(value)]) }

            let writer = try RecordWriter(db)
            for additive in pack.additives.sorted(by: { $0.code < $1.code }) {
                try writer.insert(additive, parent: parentCode(of: additive, known: codes))
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
        let encoder = JSONEncoder()

        init(_ db: Connection) throws {
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            insertAdditive = try db.prepare("""
                INSERT INTO additives (code, number, parent, canonical_name, classes, evidence_level, label_frequency, record)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """)
            updateAdditive = try db.prepare("""
                UPDATE additives SET number = ?2, parent = ?3, canonical_name = ?4, classes = ?5, evidence_level = ?6,
                    label_frequency = ?7, record = ?8
                WHERE code = ?1
                """)
            insertName = try db.prepare("""
                INSERT OR IGNORE INTO names (key, name, code, lang, context_only, kind) VALUES (?, ?, ?, ?, ?, ?)
                """)
        }

        /// The `additives` row's values, in the order both statements number them.
        private func columns(_ additive: Additive, parent: ECode?) throws -> [SQLValue] {
            let record = String(decoding: try encoder.encode(additive), as: UTF8.self)
            return [
                .text(additive.code.description), .int(Int64(additive.code.number)),
                parent.map { .text($0.description) } ?? .null, .text(additive.canonicalName),
                .text(additive.classes.joined(separator: ",")), .text(additive.evidenceLevel.rawValue),
                .int(Int64(max(0, additive.labelFrequency))), .text(record),
            ]
        }

        /// Adds the record and its names (not to `names_fts`: a build rebuilds the index, a patch indexes what it adds).
        func insert(_ additive: Additive, parent: ECode?) throws {
            try insertAdditive.run(columns(additive, parent: parent))
            for row in nameRows(of: additive) { try insertName(row, of: additive) }
        }

        /// Rewrites the row of a record the store has, leaving its names alone.
        func update(_ additive: Additive, parent: ECode?) throws {
            try updateAdditive.run(columns(additive, parent: parent))
        }

        /// Adds one of the record's names; false when its key is empty, so it is not stored.
        @discardableResult
        func insertName(_ row: NameRow, of additive: Additive) throws -> Bool {
            let key = NameKey.normalize(row.name)
            guard !key.isEmpty else { return false }
            try insertName.run([
                .text(key), .text(row.name), .text(additive.code.description), .text(row.lang),
                .int(row.contextOnly ? 1 : 0), .text(row.exact ? "exact" : "alias"),
            ])
            return true
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

    /// Removes build files left by a crashed build. Only old ones: a fresh one
    /// may belong to another process building right now.
    static func removeStaleTemporaryFiles(in directory: URL, olderThan age: TimeInterval = 600) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { return }
        let cutoff = Date().addingTimeInterval(-age)
        for name in names where name.hasPrefix(temporaryPrefix) {
            let url = directory.appendingPathComponent(name)
            if let modified = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
               modified < cutoff {
                try? fm.removeItem(at: url)
            }
        }
    }
}
