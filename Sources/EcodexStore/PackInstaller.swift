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

    /// Where `trust` came from when it is not the keys the program answers to (a publisher's
    /// file); written to the log and the store with every install. Nil for the program's own keys.
    /// An install with other keys raises only their own record of the highest version (`RollbackGuard`),
    /// and its data stays marked as not verified until data the program's keys accept replaces it.
    public let trustOrigin: String?

    public init(location: StoreLocation, trust: TrustedKeys = .shipped, trustOrigin: String? = nil, basePackURL: URL? = nil) {
        self.location = location
        self.trust = trust
        self.trustOrigin = trustOrigin
        self.basePackURL = basePackURL
    }

    /// What an install may do beyond the default rules. Each exception is written to the log.
    public struct ApplyOptions: Sendable, Equatable {
        /// Install a full pack older than the highest version ever installed here, or not
        /// newer than the installed one: a repair. Signatures are still checked. Default false.
        public var allowDowngrade: Bool
        /// Install a pack whose signed expiry has passed. Default false.
        public var allowExpired: Bool

        public init(allowDowngrade: Bool = false, allowExpired: Bool = false) {
            self.allowDowngrade = allowDowngrade
            self.allowExpired = allowExpired
        }
    }

    /// The store as it was before the last install; `rollback` puts it back.
    public var previousPath: URL { location.directory.appendingPathComponent("additives.previous.sqlite") }
    /// An update `scan update` could not fetch yet.
    public var pendingPath: URL { location.directory.appendingPathComponent("pending-update.json") }
    /// One line per install and rollback, for `scan pack status`.
    public var logPath: URL { location.directory.appendingPathComponent("pack-updates.log") }
    /// The highest pack version ever installed here (see `RollbackGuard`).
    public var statePath: URL { location.directory.appendingPathComponent(RollbackGuard.fileName) }
    /// The record of the highest version for the keys in force: each trust root has its own.
    private var rollbackGuard: RollbackGuard { RollbackGuard(path: statePath, keys: trustOrigin == nil ? nil : trust.fingerprint) }

    /// What an install or rollback did.
    public struct Outcome: Sendable, Equatable {
        public var from: DataVersions?
        public var to: DataVersions
        public var signers: [String]
        /// Set when the install went below the highest version installed before (`allowDowngrade`).
        public var below: SemanticVersion?
        /// Set when the pack had expired and was installed anyway (`allowExpired`).
        public var expiredAt: String?
    }

    // MARK: - Apply

    /// Verifies `bytes` as a pack file and installs it.
    ///
    /// - Parameter source: where the pack came from, for the log (a path or URL).
    /// - Throws: `PackError` when the pack is refused (nothing is written), or an
    ///   a `StoreError` or `UpdateError` when the store cannot be read or written.
    @discardableResult
    public func apply(_ bytes: [UInt8], source: String, now: Date = Date(), options: ApplyOptions = .init()) throws -> Outcome {
        let verified = try PackVerifier.verify(bytes, trust: trust, now: now, allowExpired: options.allowExpired)
        PackFault.point("verified")
        return try withLock { try install(verified, source: source, now: now, options: options) }
    }

    /// Verifies every pack of a chain (each file's bytes and where it came from), then installs
    /// them in order, each step atomically. A step below the highest version installed before
    /// is allowed when the chain ends at or above it: after a rebuild, the way back up.
    @discardableResult
    public func applyChain(_ files: [(bytes: [UInt8], source: String)], now: Date = Date(),
                           options: ApplyOptions = .init()) throws -> [Outcome] {
        var chain: [(pack: VerifiedPack, source: String)] = []
        for file in files {
            chain.append((try PackVerifier.verify(file.bytes, trust: trust, now: now, allowExpired: options.allowExpired), file.source))
        }
        let top = try climbTarget(chain.map(\.pack))
        var outcomes: [Outcome] = []
        for step in chain {
            outcomes.append(try withLock { try install(step.pack, source: step.source, now: now, options: options, climbingTo: top) })
        }
        return outcomes
    }

    /// The chain's last version when its steps may pass below the highest version installed
    /// before: it ends at or above that version, and every step fits the records the one
    /// before leaves (applied in memory first), so a chain that breaks half-way cannot be used
    /// to leave the client on an older version. Nil when no step needs it.
    private func climbTarget(_ chain: [VerifiedPack]) throws -> SemanticVersion? {
        guard let highest = rollbackGuard.highest(), let top = chain.last?.manifest.version, top >= highest,
              chain.contains(where: { $0.manifest.version < highest }) else { return nil }
        let (current, version) = installedStore()
        var records: [Additive]?
        var at: SemanticVersion?
        if let current, let version {
            (records, at) = (try current.allAdditives(), version)
        } else if current != nil, let pack = try? AdditiveStore.loadPack(basePackURL) {
            (records, at) = (pack.additives, SemanticVersion(pack.version))
        }
        for step in chain {
            let m = step.manifest
            switch step.payload {
            case .full(let all): records = all
            case .delta(let delta):
                guard let base = records, m.diffFrom == at, try PackPayload.contentChecksum(of: base) == m.baseChecksum else {
                    throw PackError.wrongBase("Update \(m.version) does not lead on from the data before it")
                }
                records = try delta.apply(to: base)
            }
            at = m.version
        }
        return top
    }

    /// The installed store, and its version when it counts: data the keys in force do not
    /// accept (installed with other keys) holds back no pack.
    private func installedStore() -> (store: AdditiveStore?, version: SemanticVersion?) {
        guard let store = try? AdditiveStore(location: location, basePackURL: basePackURL) else { return (nil, nil) }
        return (store, store.isAnswerable(to: trust) ? SemanticVersion(store.versions.packVersion) : nil)
    }

    /// `climbingTo`: the last version of the chain this install is a step of (see `applyChain`).
    private func install(_ verified: VerifiedPack, source: String, now: Date, options: ApplyOptions,
                         climbingTo top: SemanticVersion? = nil) throws -> Outcome {
        // The log and the store's metadata are shown by `status`: never with a password in them.
        let source = URLText.redacted(source)
        let m = verified.manifest
        let (current, installedVersion) = installedStore()
        let installed = current.map(\.versions)
        let guardFile = rollbackGuard
        let highest = [guardFile.highest(), installedVersion].compactMap { $0 }.max()
        var below: SemanticVersion?
        if let highest, m.version < highest, !(top.map { $0 >= highest } ?? false) {
            guard options.allowDowngrade else { throw PackError.downgrade(offered: m.version, highest: highest) }
            below = highest
        }
        let record = { try guardFile.record(m.version, now: now) }
        let expiredAt = m.isExpired(at: now) ? m.expiresAt : nil
        var meta: [(String, String)] = [
            ("installed_at", ISO8601DateFormatter().string(from: now)),
            ("installed_from", source),
            ("installed_kind", m.payload.kind.rawValue),
            ("installed_checksum", m.checksum),
            ("installed_signers", verified.signers.joined(separator: ",")),
            ("installed_expires_at", m.expiresAt),
            // Checked again against the keys in force at every open (`AdditiveStore.isAnswerable`).
            ("installed_manifest", String(decoding: m.json.encoded, as: UTF8.self)),
            ("installed_trusted_keys", trustOrigin ?? ""),
        ]
        if let installed {
            meta.append(("previous_pack_version", installed.packVersion))
            meta.append(("previous_data_version", installed.dataVersion))
        }
        switch verified.payload {
        case .full(let all):
            if let store = current, let v = installedVersion, m.version <= v, !options.allowDowngrade {
                guard !store.integrityCheck() else {
                    throw PackError.notNewer("This pack is version \(m.version) and version \(v) is installed; "
                        + "a pack only replaces an older one (unless the installed data is damaged)")
                }
            }
            let pack = Pack(version: m.version.description, dataVersion: m.dataVersion, regions: m.regions, additives: all,
                            knowledge: verified.knowledge)
            try replaceStore(keepPrevious: current != nil, beforeCommit: record) { path in
                try StoreBuilder.build(pack, at: path, builtAt: now)
                try Self.writeMeta(meta, at: path)
            }
        case .delta(let delta):
            let basePack = try deltaBase(m, current: current, installedVersion: installedVersion)
            let codes = try basePack.map { Set($0.additives.map(\.code)) } ?? Self.installedCodes(location.additivesPath)
            let after = try delta.resultingCodes(from: codes)
            try delta.checkContent(resultingCodes: after, version: m.version.description, dataVersion: m.dataVersion, regions: m.regions)
            PackFault.point("delta-checked")
            meta += [("pack_version", m.version.description), ("data_version", m.dataVersion),
                     ("regions", m.regions.map(\.rawValue).joined(separator: ",")),
                     ("built_at", ISO8601DateFormatter().string(from: now))]
            try replaceStore(keepPrevious: true, beforeCommit: record) { path in
                if let pack = basePack {
                    try StoreBuilder.build(pack, at: path, builtAt: now)
                } else {
                    // A copy of the installed store, changed in one transaction: the work is
                    // proportional to the delta, not to the whole store.
                    try FileManager.default.copyItem(atPath: location.additivesPath.path, toPath: path)
                    DataFolder.makePrivate(path)
                }
                try Self.patch(path, with: delta, known: after, meta: meta)
            }
        }
        var entry = ["event": "apply", "version": m.version.description, "data_version": m.dataVersion,
                     "from": installed?.packVersion ?? "none", "source": source]
        if let below { entry["downgrade_below"] = below.description }
        if let expiredAt { entry["expired_at"] = expiredAt }
        if let trustOrigin { entry["trusted_keys"] = trustOrigin }
        appendLog(entry, now: now)
        return Outcome(from: installed, to: DataVersions(dataVersion: m.dataVersion, packVersion: m.version.description),
                       signers: verified.signers, below: below, expiredAt: expiredAt)
    }

    /// The records a delta applies to: the installed store (nil) when the keys in force accept it
    /// and its version and content are the delta's base; when they do not accept it, the base pack
    /// this program builds from, if that is the base. Data installed with other keys thus gives way
    /// to a genuine update. A delta never applies to a store that cannot be read.
    private func deltaBase(_ m: PackManifest, current: AdditiveStore?, installedVersion: SemanticVersion?) throws -> Pack? {
        let from = m.diffFrom!
        guard let store = current else {
            throw PackError.wrongBase("This update changes version \(from), but the installed data cannot be read")
        }
        if let v = installedVersion {
            guard from == v else {
                throw m.version <= v
                    ? PackError.notNewer("This update is version \(m.version) and version \(v) is already installed")
                    : PackError.wrongBase("This update changes version \(from), but version \(v) is installed")
            }
            guard try store.contentChecksum() == m.baseChecksum else {
                throw PackError.wrongBase("This update was made for other data than the version \(v) installed here")
            }
            return nil
        }
        // Installed with other keys: the update applies to the base pack instead, when made from it.
        guard let pack = try? AdditiveStore.loadPack(basePackURL), SemanticVersion(pack.version) == from,
              try PackPayload.contentChecksum(of: pack.additives) == m.baseChecksum else {
            throw PackError.wrongBase("This update changes version \(from), but the installed data was not installed from it")
        }
        return pack
    }

    /// Makes the new store in a temporary file with `make`, then swaps it in
    /// (see the type's doc for the order of steps).
    private func replaceStore(keepPrevious: Bool, beforeCommit: () throws -> Void, make: (String) throws -> Void) throws {
        let fm = FileManager.default
        let dir = location.directory
        let temporary = dir.appendingPathComponent(StoreBuilder.temporaryPrefix + "\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? fm.removeItem(at: temporary) }
        do {
            try make(temporary.path)
        } catch let error as SQLiteError {
            if error.isReadOnly { throw StoreError.cannotWrite(folder: dir, detail: error.description) }
            throw UpdateError.buildFailed(detail: error.description)
        } catch let error as any ClassifiedError {
            throw error
        } catch {
            throw UpdateError.writeFailed(folder: dir, detail: "\(error)")
        }
        PackFault.point("built")
        guard DataFolder.syncFile(temporary.path) else { throw ioError("fsync") }
        PackFault.point("synced")
        // The version is recorded before the store that carries it commits: a crash in
        // between leaves the record ahead, which only refuses packs older than one that verified.
        do { try beforeCommit() } catch { throw ioError("record the installed version") }
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
        _ = DataFolder.syncFile(dir.path)
        AdditiveStore.refreshParserImage(location)
    }

    private func ioError(_ call: String) -> UpdateError {
        let reason = String(cString: strerror(errno))
        return .saveFailed(folder: location.directory, detail: "\(call): \(reason)")
    }

    // MARK: - Rollback

    /// Puts back the store as it was before the last install. The version
    /// rolled back from is not kept: apply it again to return to it.
    @discardableResult
    public func rollback(now: Date = Date()) throws -> Outcome {
        try withLock {
            guard FileManager.default.fileExists(atPath: previousPath.path) else {
                throw UpdateError.nothingToRollBack
            }
            let previous = try Self.readVersions(previousPath)
            guard previous.healthy else {
                throw UpdateError.previousDamaged
            }
            let current = try? Self.readVersions(location.additivesPath)
            guard rename(previousPath.path, location.additivesPath.path) == 0 else { throw ioError("rename") }
            PackFault.point("rolled-back")
            _ = DataFolder.syncFile(location.directory.path)
            AdditiveStore.refreshParserImage(location)
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
        /// The highest version ever installed here: older packs are refused.
        public var highestVersion: SemanticVersion?
        /// When the installed pack expires (ISO 8601); nil for the built-in data.
        public var expiresAt: String?
        /// False when the keys in force do not accept the installed data (installed with other keys).
        public var verified: Bool
        /// The trusted-keys file the data was installed with, when not the program's own keys.
        public var trustedKeysFile: String?
        /// The version updates continue from: the installed one, or when it is not verified,
        /// that of the base pack the program builds from (a genuine update replaces the data).
        public var updatesFrom: String
    }

    public func status() throws -> Status {
        let store = try AdditiveStore(location: location, basePackURL: basePackURL)
        let meta = try Self.readMeta(location.additivesPath)
        let previous = FileManager.default.fileExists(atPath: previousPath.path) ? try? Self.readVersions(previousPath) : nil
        let lastLine = (try? String(contentsOf: logPath, encoding: .utf8))?.split(separator: "\n").last.map(String.init)
        let verified = store.isAnswerable(to: trust)
        let counted = verified ? SemanticVersion(store.versions.packVersion) : nil
        return Status(
            versions: store.versions,
            regions: (meta["regions"] ?? "").split(separator: ",").compactMap { Region(rawValue: String($0)) },
            installedAt: meta["installed_at"] ?? meta["built_at"] ?? "",
            installedFrom: meta["installed_from"] ?? "the pack built into Ecodex",
            signers: (meta["installed_signers"] ?? "").split(separator: ",").map(String.init),
            rollbackTo: previous?.healthy == true ? previous?.versions : nil,
            pending: pending(),
            lastEvent: lastLine,
            highestVersion: [rollbackGuard.highest(), counted].compactMap { $0 }.max(),
            expiresAt: meta["installed_expires_at"],
            verified: verified,
            trustedKeysFile: meta["installed_trusted_keys"].flatMap { $0.isEmpty ? nil : $0 },
            updatesFrom: counted?.description ?? answerableBaseVersion()?.description ?? store.versions.packVersion)
    }

    /// The version of the base pack this program builds a store from.
    private func answerableBaseVersion() -> SemanticVersion? {
        (basePackURL ?? AdditiveStore.bundledBasePackURL).flatMap(BundledPackVersions.read).flatMap { SemanticVersion($0.packVersion) }
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
        try DataFolder.prepare(location.directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Credentials in the address are not written down: the user gives them again.
        let entry = PendingUpdate(source: URLText.redacted(source), recordedAt: ISO8601DateFormatter().string(from: now), reason: reason)
        try DataFolder.writeAtomically(try encoder.encode(entry), to: pendingPath)
    }

    public func clearPending() {
        try? FileManager.default.removeItem(at: pendingPath)
    }

    // MARK: - Internals

    /// Another `scan` writing the store at the same time (an install, a rollback, a
    /// rebuild, a first-run build) waits here instead of racing the rename.
    private func withLock<T>(_ body: () throws -> T) throws -> T {
        try FolderLock.withLock(FolderLock.additives, in: location.directory, body)
    }

    private func appendLog(_ fields: [String: String], now: Date) {
        var entry = fields
        entry["at"] = ISO8601DateFormatter().string(from: now)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(entry) else { return }
        line.append(0x0A)
        DataFolder.appendLine(line, to: logPath)
    }

    private static func readMeta(_ path: URL) throws -> [String: String] {
        do {
            let db = try Connection(path: path.path, mode: .readOnly)
            var meta: [String: String] = [:]
            try db.prepare("SELECT key, value FROM meta").forEachRow { meta[$0.text(0)] = $0.text(1) }
            return meta
        } catch let error as SQLiteError {
            throw StoreError.damaged(path: path, detail: error.description)
        }
    }

    /// The versions a store file holds, and whether SQLite finds it sound.
    private static func readVersions(_ path: URL) throws -> (versions: DataVersions, healthy: Bool) {
        let meta = try readMeta(path)
        let versions = DataVersions(dataVersion: meta["data_version"] ?? "?", packVersion: meta["pack_version"] ?? "?")
        return (versions, AdditiveStore.isSound(path) && meta["pack_version"] != nil)
    }
}

/// Crash points for tests (pack apply, product import): when `ECODEX_PACK_FAULT` names a
/// point, the process kills itself there with SIGKILL, as a power cut or `kill -9` would.
/// `ECODEX_PACK_PAUSE=point:/gate/file` stops it there: it creates `/gate/file.reached` and
/// waits until the gate file exists, so a test acts at that point whatever the machine's speed.
enum PackFault {
    static func point(_ name: String) {
        if let wanted = getenv("ECODEX_PACK_FAULT"), String(cString: wanted) == name { kill(getpid(), SIGKILL) }
        if let wanted = getenv("ECODEX_PACK_PAUSE") {
            let parts = String(cString: wanted).split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0] == name, !parts[1].isEmpty else { return }
            let gate = parts[1]
            close(open(gate + ".reached", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
            // At most 10 minutes, so a process a test forgot does not wait for ever.
            var waited = 0
            while access(gate, F_OK) != 0 && waited < 600_000 { usleep(10_000); waited += 10 }
        }
    }
}

extension PackInstaller {
    /// Applies the packs in `directory` (files ending in `.pack`) that lead on
    /// from the installed version: at each step the highest-versioned full pack
    /// newer than the installed one, or delta based on it, until none is left.
    /// Each step is installed on its own, atomically.
    ///
    /// Every file is verified before any is chosen: a chain is picked from packs whose
    /// signatures check out, so a forged or damaged file (whatever version it claims)
    /// cannot block a valid chain. Refused files are reported to `refused`; when nothing
    /// could be applied and a file was refused, the first refusal is thrown.
    public func applyFolder(_ directory: URL, now: Date = Date(), options: ApplyOptions = .init(),
                            refused: (URL, PackError) -> Void = { _, _ in }) throws -> [Outcome] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else {
            throw UpdateError.cannotListFolder(directory)
        }
        var candidates: [(pack: VerifiedPack, url: URL)] = []
        var firstRefusal: PackError?
        for name in names.sorted() where name.hasSuffix(".pack") {
            let url = directory.appendingPathComponent(name)
            do {
                // A regular file only: a FIFO named x.pack must not hang the update.
                let data = try InputFile.read(url.path, role: .pack, limit: PackFile.maximumBytes)
                let verified = try PackVerifier.verify(data, trust: trust, now: now, allowExpired: options.allowExpired)
                candidates.append((verified, url))
            } catch let error as PackError {
                refused(url, error)
                if firstRefusal == nil { firstRefusal = error }
            }
        }
        // The chain is chosen before the first step, so each step knows where it ends (`applyChain`).
        var chain: [(pack: VerifiedPack, url: URL)] = []
        // A store installed with other keys counts as the base pack; one that cannot be read, as nothing.
        var at: SemanticVersion? = try withLock {
            let (store, version) = installedStore()
            return store == nil ? nil : version ?? answerableBaseVersion()
        }
        while let next = (candidates.filter { c in
            let m = c.pack.manifest
            guard let at else { return m.diffFrom == nil }
            return m.version > at && (m.diffFrom == nil || m.diffFrom == at)
        }.max { $0.pack.manifest.version < $1.pack.manifest.version }) {
            chain.append(next)
            at = next.pack.manifest.version
        }
        let top = try climbTarget(chain.map(\.pack))
        var outcomes: [Outcome] = []
        for step in chain {
            outcomes.append(try withLock { try install(step.pack, source: step.url.path, now: now, options: options, climbingTo: top) })
        }
        if outcomes.isEmpty, let firstRefusal { throw firstRefusal }
        return outcomes
    }
}
