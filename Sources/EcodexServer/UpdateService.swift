import Crypto
import EcodexCore
import EcodexStore
import Foundation

/// What the endpoints do, apart from HTTP: pack chains, publishing, signed download URLs.
///
/// Publishing is serialised by the actor, so two publishers cannot both build on the
/// same version; reads go straight to the storage.
actor UpdateService {
    let storage: any ServerStorage
    let trust: TrustedKeys
    /// How long a download URL stays valid.
    let urlLifetime: TimeInterval
    /// The time download links are issued and checked at (tests set it).
    let now: @Sendable () -> Date
    /// The key of the download-URL signatures (kept in the database, so links survive a restart).
    private let urlKey: [UInt8]

    init(storage: any ServerStorage, trust: TrustedKeys, urlLifetime: TimeInterval, basePackURL: URL?,
         now: @escaping @Sendable () -> Date = Date.init) async throws {
        self.storage = storage
        self.trust = trust
        self.urlLifetime = urlLifetime
        self.now = now
        let secret = try await storage.setting("download-url-key") {
            Hex.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        }
        urlKey = Hex.decode(secret) ?? []
        // The records the server starts from: the base pack built into the program.
        guard let url = basePackURL ?? AdditiveStore.bundledBasePackURL else { throw ServiceError.internal("no base pack") }
        let bytes = try Array(Data(contentsOf: url))
        let base = try Pack.decode(bytes)
        guard let version = SemanticVersion(base.version) else { throw ServiceError.internal("the base pack's version is not semantic") }
        try await storage.seed(base: PublishedPack(
            version: version, diffFrom: nil, kind: "base", dataVersion: base.dataVersion, regions: base.regions,
            checksum: PackFile.checksum(bytes), size: bytes.count, expiresAt: "", publishedAt: SQLiteServerStorage.now()),
            records: base.additives)
    }

    enum ServiceError: Error {
        case badRequest(String)
        case notFound(String)
        case conflict(String)
        case unprocessable(String)
        case forbidden(String)
        case `internal`(String)
    }

    // MARK: - Reading

    /// The newest pack, and the packs that take a store at `from` to it.
    ///
    /// Every client follows every pack, whatever regions it lists: a store holds all
    /// regions' rules in one version, and the next delta builds on that whole version.
    /// The chain is found backwards from the newest pack along `diff_from`; a full
    /// pack ends it (it installs over anything older). With no path from `from`,
    /// the chain is empty and `complete` is false.
    static func chain(_ packs: [PublishedPack], from: SemanticVersion?) -> (latest: PublishedPack?, chain: [PublishedPack], complete: Bool) {
        guard let latest = packs.last else { return (nil, [], false) }
        guard let from, from < latest.version else { return (latest, [], from != nil) }
        let byVersion = Dictionary(packs.map { ($0.version, $0) }, uniquingKeysWith: { a, _ in a })
        var chain: [PublishedPack] = []
        var current = latest
        while true {
            if current.kind == "base" { return (latest, [], false) }
            chain.insert(current, at: 0)
            if current.kind == "full" { return (latest, chain, true) }
            guard let previous = current.diffFrom else { return (latest, [], false) }
            if previous == from { return (latest, chain, true) }
            guard previous > from, let next = byVersion[previous] else { return (latest, [], false) }
            current = next
        }
    }

    // MARK: - Download URLs

    /// `/v1/files/VERSION.pack?expires=UNIX&sig=HMAC`: valid until `expires`, for this version only.
    func downloadPath(version: String) -> (path: String, expires: Date) {
        let expires = Date(timeIntervalSince1970: (now().timeIntervalSince1970 + urlLifetime).rounded(.up))
        let stamp = String(Int(expires.timeIntervalSince1970))
        return ("/v1/files/\(version).pack?expires=\(stamp)&sig=\(signature(version: version, expires: stamp))", expires)
    }

    nonisolated func signature(version: String, expires: String) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Array("\(version)\n\(expires)".utf8), using: SymmetricKey(data: urlKey)))
    }

    /// True when `sig` is this server's signature for `version` and `expires` is still ahead.
    nonisolated func checkDownload(version: String, expires: String?, sig: String?) -> Bool {
        guard let expires, let sig, let at = Int(expires), Double(at) > now().timeIntervalSince1970 else { return false }
        return constantTimeEqual(Array(signature(version: version, expires: expires).utf8), Array(sig.utf8))
    }

    // MARK: - Publishing

    /// True when `token` hashes to one of the stored hashes. Every hash is compared, in constant time.
    func authorised(token: String?) async throws -> Bool {
        guard let token, !token.isEmpty else { return false }
        let presented = Array(Hex.encode(SHA256.hash(data: Array(token.utf8))).utf8)
        var match = false
        for hash in try await storage.tokenHashes() {
            match = constantTimeEqual(Array(hash.utf8), presented) || match
        }
        return match
    }

    /// Verifies a pack as a client would (signatures by this server's trusted keys,
    /// checksum, records, expiry), checks it continues the newest version, and stores it.
    func publish(_ bytes: [UInt8]) async throws -> PublishedPack {
        let verified: VerifiedPack
        do {
            verified = try PackVerifier.verify(bytes, trust: trust)
        } catch {
            throw ServiceError.unprocessable("The pack was refused: \(error)")
        }
        let m = verified.manifest
        let all = try await storage.packs()
        if all.contains(where: { $0.version == m.version }) { throw ServiceError.conflict("Version \(m.version) is already published.") }
        guard let newest = all.last, m.version > newest.version else {
            throw ServiceError.conflict("Version \(m.version) is not newer than \(all.last?.version.description ?? "nothing").")
        }
        var upsert: [Additive] = []
        var remove: [ECode] = []
        switch verified.payload {
        case .full(let records):
            let old = Set(try await storage.allAdditives().map(\.code))
            upsert = records
            remove = Array(old.subtracting(records.map(\.code)))
        case .delta(let delta):
            guard m.diffFrom == newest.version else {
                throw ServiceError.conflict("The delta applies to \(m.diffFrom?.description ?? "?"); the newest version here is \(newest.version).")
            }
            let current = try await storage.allAdditives()
            do {
                let codes = try delta.resultingCodes(from: Set(current.map(\.code)))
                try delta.checkContent(resultingCodes: codes, version: m.version.description, dataVersion: m.dataVersion, regions: m.regions)
            } catch {
                throw ServiceError.unprocessable("The delta does not apply to \(newest.version): \(error)")
            }
            upsert = delta.added + delta.changed
            remove = delta.removed
        }
        let pack = PublishedPack(
            version: m.version, diffFrom: m.diffFrom, kind: m.payload.kind.rawValue, dataVersion: m.dataVersion, regions: m.regions,
            checksum: PackFile.checksum(bytes), size: bytes.count, expiresAt: m.expiresAt, publishedAt: SQLiteServerStorage.now())
        try await storage.publish(pack, file: bytes, upsert: upsert, remove: remove)
        return pack
    }
}

/// Compares two byte strings in time that depends on their lengths only.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in a.indices { difference |= a[i] ^ b[i] }
    return difference == 0
}
