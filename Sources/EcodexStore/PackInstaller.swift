import EcodexCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Installs verified pack updates into the additive store, keeps the version
/// before for `rollback`, and remembers updates that could not be fetched.
///
/// An install never edits `additives.sqlite`: it builds the new store in a
/// temporary file, flushes it, keeps the current file as
/// `additives.previous.sqlite` (a hard link, so the old bytes are untouched),
/// and renames the new file over the current one. That rename is the commit
/// point: a crash before it leaves the old store, after it the new one.
/// Every check (signatures, checksum, records, version order, delta base)
/// runs before the first byte is written.
public final class PackInstaller {
    public let location: StoreLocation
    public let trust: TrustedKeys
    /// The base pack that builds a missing store; nil means the one bundled with the program.
    public let basePackURL: URL?

    public init(location: StoreLocation, trust: TrustedKeys = .shipped, basePackURL: URL? = nil) {
        self.location = location
        self.trust = trust
        self.basePackURL = basePackURL
    }

    /// The store as it was before the last install; `rollback` puts it back.
    public var previousPath: URL { location.directory.appendingPathComponent("additives.previous.sqlite") }
    /// An update `scan update` could not fetch yet.
    public var pendingPath: URL { location.directory.appendingPathComponent("pending-update.json") }
    /// One line per install and rollback, for `scan pack status`.
    public var logPath: URL { location.directory.appendingPathComponent("pack-updates.log") }
    private var lockPath: URL { location.directory.appendingPathComponent("pack.lock") }

    /// What an install or rollback did.
    public struct Outcome: Sendable, Equatable {
        public var from: DataVersions?
        public var to: DataVersions
        public var signers: [String]
    }

    // MARK: - Apply

    /// Verifies `bytes` as a pack file and installs it.
    ///
    /// - Parameter source: where the pack came from, for the log (a path or URL).
    /// - Throws: `PackError` when the pack is refused (nothing is written), or an
    ///   `EcodexError` when the store cannot be read or written.
    @discardableResult
    public func apply(_ bytes: [UInt8], source: String, now: Date = Date()) throws -> Outcome {
        let verified = try PackVerifier.verify(bytes, trust: trust)
        PackFault.point("verified")
        return try withLock { try install(verified, source: source, now: now) }
    }

    private func install(_ verified: VerifiedPack, source: String, now: Date) throws -> Outcome {
        // The log and the store's metadata are shown by `status`: never with a password in them.
        let source = URLText.redacted(source)
        let m = verified.manifest
        let current = try? AdditiveStore(location: location, basePackURL: basePackURL)
        let installed = current.map(\.versions)
        let installedVersion = installed.flatMap { SemanticVersion($0.packVersion) }
        var meta: [(String, String)] = [
            ("installed_at", ISO8601DateFormatter().string(from: now)),
            ("installed_from", source),
            ("installed_kind", m.payload.kind.rawValue),
            ("installed_checksum", m.checksum),
            ("installed_signers", verified.signers.joined(separator: ",")),
        ]
        if let installed {
            meta.append(("previous_pack_version", installed.packVersion))
            meta.append(("previous_data_version", installed.dataVersion))
        }
        switch verified.payload {
        case .full(let all):
            if let store = current, let v = installedVersion, m.version <= v {
                guard !store.integrityCheck() else {
                    throw PackError.notNewer("This pack is version \(m.version) and version \(v) is installed; "
                        + "a pack only replaces an older one (unless the installed data is damaged)")
                }
            }
            let pack = Pack(version: m.version.description, dataVersion: m.dataVersion, regions: m.regions, additives: all)
            try replaceStore(keepPrevious: current != nil) { path in
                try StoreBuilder.build(pack, at: path, builtAt: now)
                try Self.writeMeta(meta, at: path)
            }
        case .delta(let delta):
            guard current != nil, let v = installedVersion else {
                throw PackError.wrongBase("This update changes version \(m.diffFrom!), but the installed data cannot be read")
            }
            guard m.diffFrom == v else {
                throw m.version <= v
                    ? PackError.notNewer("This update is version \(m.version) and version \(v) is already installed")
                    : PackError.wrongBase("This update changes version \(m.diffFrom!), but version \(v) is installed")
            }
            let codes = try Self.installedCodes(location.additivesPath)
            let after = try delta.resultingCodes(from: codes)
            try delta.checkContent(resultingCodes: after, version: m.version.description, dataVersion: m.dataVersion, regions: m.regions)
            meta += [("pack_version", m.version.description), ("data_version", m.dataVersion),
                     ("regions", m.regions.map(\.rawValue).joined(separator: ",")),
                     ("built_at", ISO8601DateFormatter().string(from: now))]
            try replaceStore(keepPrevious: true) { path in
                // A copy of the installed store, changed in one transaction: the work is
                // proportional to the delta, not to the whole store.
                try FileManager.default.copyItem(atPath: location.additivesPath.path, toPath: path)
                try Self.patch(path, with: delta, known: after, meta: meta)
            }
        }
        appendLog(["event": "apply", "version": m.version.description, "data_version": m.dataVersion,
                   "from": installed?.packVersion ?? "none", "source": source], now: now)
        return Outcome(from: installed, to: DataVersions(dataVersion: m.dataVersion, packVersion: m.version.description),
                       signers: verified.signers)
    }

    /// Makes the new store in a temporary file with `make`, then swaps it in
    /// (see the type's doc for the order of steps).
    private func replaceStore(keepPrevious: Bool, make: (String) throws -> Void) throws {
        let fm = FileManager.default
        let dir = location.directory
        let temporary = dir.appendingPathComponent(StoreBuilder.temporaryPrefix + "\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? fm.removeItem(at: temporary) }
        do {
            try make(temporary.path)
        } catch let error as SQLiteError {
            if error.isReadOnly { throw StoreErrors.cannotWrite(dir, detail: error.description) }
            throw EcodexError.update("The update could not be built. Nothing was changed; try again.", detail: error.description)
        } catch let error as PackError {
            throw error
        } catch let error as EcodexError {
            throw error
        } catch {
            throw EcodexError.update("The update could not be written in \(dir.path). Nothing was changed; check the folder is writable and has space.",
                                     detail: "\(error)")
        }
        PackFault.point("built")
        guard StoreBuilder.syncFile(temporary.path) else { throw ioError("fsync") }
        PackFault.point("synced")
        if keepPrevious {
            // Hard-link the current store under a temporary name, then rename it:
            // `additives.previous.sqlite` is always either the old previous or the current store.
            let hardLink = dir.appendingPathComponent(StoreBuilder.temporaryPrefix + "prev-\(getpid())")
            unlink(hardLink.path)
            guard link(location.additivesPath.path, hardLink.path) == 0 else { throw ioError("link") }
            guard rename(hardLink.path, previousPath.path) == 0 else { unlink(hardLink.path); throw ioError("rename") }
            PackFault.point("previous-kept")
        }
        guard rename(temporary.path, location.additivesPath.path) == 0 else { throw ioError("rename") }
        PackFault.point("committed")
        _ = StoreBuilder.syncFile(dir.path)
    }

    /// Adds the install record to the meta table of the store file at `path`.
    private static func writeMeta(_ meta: [(String, String)], at path: String) throws {
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
    private static func patch(_ path: String, with delta: PackDelta, known: Set<ECode>, meta: [(String, String)]) throws {
        let db = try Connection(path: path, mode: .readWrite)
        defer { db.close() }
        // The copy is private until renamed, and flushed once before that.
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON")
        try db.transaction {
            let names = try db.prepare("SELECT id, key, name, lang, context_only, kind FROM names WHERE code = ? ORDER BY id")
            // names_fts indexes `names` as external content: rows leave the index by a 'delete' command.
            let unindex = try db.prepare("INSERT INTO names_fts (names_fts, rowid, key) VALUES ('delete', ?, ?)")
            let indexAll = try db.prepare("INSERT INTO names_fts (rowid, key) SELECT id, key FROM names WHERE code = ?")
            let indexOne = try db.prepare("INSERT INTO names_fts (rowid, key) SELECT id, key FROM names WHERE code = ? AND lang = ? AND name = ?")
            let deleteName = try db.prepare("DELETE FROM names WHERE id = ?")
            let deleteNames = try db.prepare("DELETE FROM names WHERE code = ?")
            let deleteRecord = try db.prepare("DELETE FROM additives WHERE code = ?")

            struct StoredName { var id: Int64; var key: String; var row: StoreBuilder.NameRow }
            struct LangName: Hashable { var lang: String; var name: String }
            func storedNames(_ code: ECode) throws -> [StoredName] {
                var rows: [StoredName] = []
                try names.forEachRow([.text(code.description)]) {
                    rows.append(StoredName(id: $0.int64(0), key: $0.text(1), row: StoreBuilder.NameRow(
                        name: $0.text(2), lang: $0.text(3), contextOnly: $0.int64(4) != 0, exact: $0.text(5) == "exact")))
                }
                return rows
            }

            for code in delta.removed {
                for stored in try storedNames(code) { try unindex.run([.int(stored.id), .text(stored.key)]) }
                try deleteNames.run([.text(code.description)])
                try deleteRecord.run([.text(code.description)])
            }
            let writer = try StoreBuilder.RecordWriter(db)
            for additive in delta.changed {
                let code = additive.code.description
                try writer.update(additive, parent: StoreBuilder.parentCode(of: additive, known: known))
                // The rows a fresh insert would make: the first of each (lang, name) wins, as INSERT OR IGNORE does.
                var taken = Set<LangName>()
                let wanted = StoreBuilder.nameRows(of: additive).filter { taken.insert(LangName(lang: $0.lang, name: $0.name)).inserted }
                let wantedSet = Set(wanted)
                var kept = Set<StoreBuilder.NameRow>()
                for stored in try storedNames(additive.code) {
                    if wantedSet.contains(stored.row) {
                        kept.insert(stored.row)
                    } else {
                        try unindex.run([.int(stored.id), .text(stored.key)])
                        try deleteName.run([.int(stored.id)])
                    }
                }
                for row in wanted where !kept.contains(row) {
                    if try writer.insertName(row, of: additive) {
                        try indexOne.run([.text(code), .text(row.lang), .text(row.name)])
                    }
                }
            }
            for additive in delta.added {
                try writer.insert(additive, parent: StoreBuilder.parentCode(of: additive, known: known))
                try indexAll.run([.text(additive.code.description)])
            }
            // A record added or removed can change which ancestor other records hang under.
            // When no code comes or goes, a record's parent (its declared one if present,
            // else its closest present ancestor) can change only for the records the
            // delta changes, and those were just written with theirs.
            if !delta.added.isEmpty || !delta.removed.isEmpty {
                var updates: [(String, String?)] = []
                var orphans: [String] = []
                try db.prepare("SELECT code, parent, json_extract(record, '$.parent') FROM additives").forEachRow { row in
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
    private static func installedCodes(_ path: URL) throws -> Set<ECode> {
        do {
            let db = try Connection(path: path.path, mode: .readOnly)
            var codes = Set<ECode>()
            try db.prepare("SELECT code FROM additives").forEachRow { if let c = ECode($0.text(0)) { codes.insert(c) } }
            return codes
        } catch let error as SQLiteError {
            throw StoreErrors.damaged(path, detail: error.description)
        }
    }

    private func ioError(_ call: String) -> EcodexError {
        let reason = String(cString: strerror(errno))
        return EcodexError.update("The update could not be saved in \(location.directory.path). Nothing was changed; check the folder is writable and has space.",
                                  detail: "\(call): \(reason)")
    }

    // MARK: - Rollback

    /// Puts back the store as it was before the last install. The version
    /// rolled back from is not kept: apply it again to return to it.
    @discardableResult
    public func rollback(now: Date = Date()) throws -> Outcome {
        try withLock {
            guard FileManager.default.fileExists(atPath: previousPath.path) else {
                throw EcodexError.update("There is no earlier version to roll back to.")
            }
            let previous = try Self.readVersions(previousPath)
            guard previous.healthy else {
                throw EcodexError.update("The earlier version on this computer is damaged, so it cannot be restored.", advice: .rebuildStore)
            }
            let current = try? Self.readVersions(location.additivesPath)
            guard rename(previousPath.path, location.additivesPath.path) == 0 else { throw ioError("rename") }
            PackFault.point("rolled-back")
            _ = StoreBuilder.syncFile(location.directory.path)
            appendLog(["event": "rollback", "version": previous.versions.packVersion, "data_version": previous.versions.dataVersion,
                       "from": current?.versions.packVersion ?? "none"], now: now)
            return Outcome(from: current?.versions, to: previous.versions, signers: [])
        }
    }

    // MARK: - Status

    /// What `scan pack status` shows.
    public struct Status: Sendable {
        public var versions: DataVersions
        public var regions: [Region]
        /// When the installed data was put in place (ISO 8601), and from where.
        public var installedAt: String
        public var installedFrom: String
        public var signers: [String]
        /// The version `rollback` would restore.
        public var rollbackTo: DataVersions?
        public var pending: PendingUpdate?
        /// The last install or rollback, from the log.
        public var lastEvent: String?
    }

    public func status() throws -> Status {
        let store = try AdditiveStore(location: location, basePackURL: basePackURL)
        let meta = try Self.readMeta(location.additivesPath)
        let previous = FileManager.default.fileExists(atPath: previousPath.path) ? try? Self.readVersions(previousPath) : nil
        let lastLine = (try? String(contentsOf: logPath, encoding: .utf8))?.split(separator: "\n").last.map(String.init)
        return Status(
            versions: store.versions,
            regions: (meta["regions"] ?? "").split(separator: ",").compactMap { Region(rawValue: String($0)) },
            installedAt: meta["installed_at"] ?? meta["built_at"] ?? "",
            installedFrom: meta["installed_from"] ?? "the pack built into Ecodex",
            signers: (meta["installed_signers"] ?? "").split(separator: ",").map(String.init),
            rollbackTo: previous?.healthy == true ? previous?.versions : nil,
            pending: pending(),
            lastEvent: lastLine)
    }

    // MARK: - Pending updates

    /// An update that was asked for but could not be fetched (offline); `scan update` retries it.
    public struct PendingUpdate: Codable, Sendable, Equatable {
        public var source: String
        public var recordedAt: String
        public var reason: String

        public init(source: String, recordedAt: String, reason: String) {
            self.source = source
            self.recordedAt = recordedAt
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey { case source, recordedAt = "recorded_at", reason }
    }

    public func pending() -> PendingUpdate? {
        guard let data = FileManager.default.contents(atPath: pendingPath.path) else { return nil }
        return try? JSONDecoder().decode(PendingUpdate.self, from: data)
    }

    public func recordPending(source: String, reason: String, now: Date = Date()) throws {
        try FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Credentials in the address are not written down: the user gives them again.
        let entry = PendingUpdate(source: URLText.redacted(source), recordedAt: ISO8601DateFormatter().string(from: now), reason: reason)
        try encoder.encode(entry).write(to: pendingPath, options: .atomic)
    }

    public func clearPending() {
        try? FileManager.default.removeItem(at: pendingPath)
    }

    // MARK: - Internals

    private func withLock<T>(_ body: () throws -> T) throws -> T {
        do {
            try FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
        } catch {
            throw StoreErrors.cannotWrite(location.directory, detail: "\(error)")
        }
        let fd = open(lockPath.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreErrors.cannotWrite(location.directory, detail: "open lock: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        // Another `scan` installing at the same time waits here instead of racing the rename.
        guard flock(fd, LOCK_EX) == 0 else { throw ioError("flock") }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private func appendLog(_ fields: [String: String], now: Date) {
        var entry = fields
        entry["at"] = ISO8601DateFormatter().string(from: now)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(entry) else { return }
        line.append(0x0A)
        if let handle = try? FileHandle(forWritingTo: logPath) {
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: line)
        } else {
            try? line.write(to: logPath)
        }
    }

    private static func readMeta(_ path: URL) throws -> [String: String] {
        do {
            let db = try Connection(path: path.path, mode: .readOnly)
            var meta: [String: String] = [:]
            try db.prepare("SELECT key, value FROM meta").forEachRow { meta[$0.text(0)] = $0.text(1) }
            return meta
        } catch let error as SQLiteError {
            throw StoreErrors.damaged(path, detail: error.description)
        }
    }

    /// The versions a store file holds, and whether SQLite finds it sound.
    private static func readVersions(_ path: URL) throws -> (versions: DataVersions, healthy: Bool) {
        let meta = try readMeta(path)
        let versions = DataVersions(dataVersion: meta["data_version"] ?? "?", packVersion: meta["pack_version"] ?? "?")
        let healthy = (try? AdditiveStore.openChecked(path)).map { db -> Bool in
            guard let check = try? db.prepare("PRAGMA integrity_check"), (try? check.step()) == true else { return false }
            return check.text(0) == "ok"
        } ?? false
        return (versions, healthy && meta["pack_version"] != nil)
    }
}

/// Crash points for tests: when `ECODEX_PACK_FAULT` names a point, the process
/// kills itself there with SIGKILL, as a power cut or `kill -9` would.
enum PackFault {
    static func point(_ name: String) {
        guard let wanted = getenv("ECODEX_PACK_FAULT"), String(cString: wanted) == name else { return }
        kill(getpid(), SIGKILL)
    }
}

extension PackInstaller {
    /// Applies the packs in `directory` (files ending in `.pack`) that lead on
    /// from the installed version: at each step the highest-versioned full pack
    /// newer than the installed one, or delta based on it, until none is left.
    /// Each step is verified and installed on its own, atomically.
    public func applyFolder(_ directory: URL, now: Date = Date()) throws -> [Outcome] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else {
            throw EcodexError.update("Cannot list the folder \(directory.path).")
        }
        var candidates: [(manifest: PackManifest, url: URL)] = []
        for name in names.sorted() where name.hasSuffix(".pack") {
            let url = directory.appendingPathComponent(name)
            // A regular file only: a FIFO named x.pack must not hang the update.
            let data = try InputFile.read(url.path, role: .pack, limit: PackFile.maximumBytes,
                                          tooLarge: .update("\(url.path) is too large to be an Ecodex pack."))
            guard let file = try? PackFile(bytes: data) else {
                throw EcodexError.update("\(url.path) is not an Ecodex pack. Remove it from the folder or download it again.")
            }
            candidates.append((file.manifest, url))
        }
        var outcomes: [Outcome] = []
        while true {
            let installed = try AdditiveStore(location: location, basePackURL: basePackURL).versions
            let version = SemanticVersion(installed.packVersion)
            let next = candidates.filter { c in
                guard let v = version else { return c.manifest.diffFrom == nil }
                return c.manifest.version > v && (c.manifest.diffFrom == nil || c.manifest.diffFrom == v)
            }.max { $0.manifest.version < $1.manifest.version }
            guard let next else { break }
            let bytes = try InputFile.read(next.url.path, role: .pack, limit: PackFile.maximumBytes,
                                           tooLarge: .update("\(next.url.path) is too large to be an Ecodex pack."))
            outcomes.append(try apply(bytes, source: next.url.path, now: now))
        }
        return outcomes
    }
}
