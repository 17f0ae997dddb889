import EcodexCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Applying a delta pack in place: the store's meta rows and the records a delta adds,
/// replaces or removes, written into the copy that replaces the installed store.
extension PackInstaller {
    /// Adds the install record to the meta table of the store file at `path`.
    static func writeMeta(_ meta: [(String, String)], at path: String) throws {
        let db = try Connection(path: path, mode: .readWrite)
        defer { db.close() }
        try db.execute("PRAGMA journal_mode = OFF")
        try db.transaction {
            let insert = try db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
            for (key, value) in meta { try insert.run([.text(key), .text(value)]) }
        }
    }

    /// Applies `delta` to the store file at `path` (a private copy) in one transaction,
    /// with the install record `meta`. `known` is the set of codes the store holds afterwards.
    ///
    /// The work follows the delta: a changed record's row is rewritten in place
    /// and only the names that differ leave and join the name index, so the
    /// names that stay keep their rows (and their order, as in a fresh build).
    static func patch(_ path: String, with delta: PackDelta, known: Set<ECode>, meta: [(String, String)]) throws {
        let db = try Connection(path: path, mode: .readWrite)
        defer { db.close() }
        // The copy is private until renamed, and flushed once before that.
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON")
        try db.transaction {
            // The stored names of the records the delta removes or changes, in one pass over
            // `names`, which has no index on its code (see AdditiveSchema).
            struct StoredName { var id: Int64; var key: String; var row: StoreBuilder.NameRow }
            var stored: [String: [StoredName]] = [:]
            let touched = delta.removed.map(\.description) + delta.changed.map(\.code.description)
            let touchedJSON = String(decoding: try JSONEncoder().encode(touched), as: UTF8.self)
            try db.prepare("""
                SELECT id, key, name, lang, context_only, exact, code FROM names
                WHERE code IN (SELECT value FROM json_each(?)) ORDER BY id
                """).forEachRow([.text(touchedJSON)]) {
                stored[$0.text(6), default: []].append(StoredName(id: $0.int64(0), key: $0.text(1), row: StoreBuilder.NameRow(
                    name: $0.text(2), lang: $0.text(3), contextOnly: $0.int64(4) != 0, exact: $0.int64(5) != 0)))
            }
            // names_fts indexes `names` as external content: rows leave the index by a 'delete' command.
            let unindex = try db.prepare("INSERT INTO names_fts (names_fts, rowid, key) VALUES ('delete', ?, ?)")
            let index = try db.prepare("INSERT INTO names_fts (rowid, key) VALUES (?, ?)")
            let deleteName = try db.prepare("DELETE FROM names WHERE id = ?")
            let deleteRecord = try db.prepare("DELETE FROM additives WHERE code = ?")
            func remove(_ name: StoredName) throws {
                try unindex.run([.int(name.id), .text(name.key)])
                try deleteName.run([.int(name.id)])
            }

            for code in delta.removed {
                for name in stored[code.description] ?? [] { try remove(name) }
                try deleteRecord.run([.text(code.description)])
            }
            let writer = try StoreBuilder.RecordWriter(db)
            for additive in delta.changed {
                try writer.update(additive, parent: StoreBuilder.parentCode(of: additive, known: known))
                // The rows a fresh insert would make: the first of each (lang, name).
                let wanted = StoreBuilder.uniqueNameRows(of: additive)
                let wantedSet = Set(wanted)
                var kept = Set<StoreBuilder.NameRow>()
                for name in stored[additive.code.description] ?? [] {
                    if wantedSet.contains(name.row) {
                        kept.insert(name.row)
                    } else {
                        try remove(name)
                    }
                }
                for row in wanted where !kept.contains(row) {
                    if let added = try writer.insertName(row, of: additive) {
                        try index.run([.int(added.id), .text(added.key)])
                    }
                }
            }
            for additive in delta.added {
                for added in try writer.insert(additive, parent: StoreBuilder.parentCode(of: additive, known: known)) {
                    try index.run([.int(added.id), .text(added.key)])
                }
            }
            // A record added or removed can change which ancestor other records hang under.
            // When no code comes or goes, a record's parent (its declared one if present,
            // else its closest present ancestor) can change only for the records the
            // delta changes, and those were just written with theirs.
            if !delta.added.isEmpty || !delta.removed.isEmpty {
                var updates: [(String, String?)] = []
                var orphans: [String] = []
                try db.prepare("SELECT code, parent, declared_parent FROM additives").forEachRow { row in
                    guard let code = ECode(row.text(0)) else { return }
                    let declared = row.optionalText(2).flatMap(ECode.init)
                    if let declared, !known.contains(declared) { orphans.append(code.description) }
                    let parent = StoreBuilder.parentCode(of: code, declared: declared, known: known)?.description
                    if parent != row.optionalText(1) { updates.append((code.description, parent)) }
                }
                if let orphan = orphans.first {
                    throw PackError.schema("\(orphan) names a parent the update removes")
                }
                let setParent = try db.prepare("UPDATE additives SET parent = ? WHERE code = ?")
                for (code, parent) in updates { try setParent.run([parent.map { .text($0) } ?? .null, .text(code)]) }
            }
            let insertMeta = try db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
            for (key, value) in meta { try insertMeta.run([.text(key), .text(value)]) }
        }
    }

    /// The codes in the store file at `path`.
    static func installedCodes(_ path: URL) throws -> Set<ECode> {
        do {
            let db = try Connection(path: path.path, mode: .readOnly)
            var codes = Set<ECode>()
            try db.prepare("SELECT code FROM additives").forEachRow { if let c = ECode($0.text(0)) { codes.insert(c) } }
            return codes
        } catch let error as SQLiteError {
            throw StoreError.damaged(path: path, detail: error.description)
        }
    }
}
