import Foundation

/// Makes unsigned pack files from built packs; `PublisherKey.sign` adds the signatures.
public enum PackBuilder {
    /// How long a pack is accepted after it is built, unless its builder says otherwise.
    public static let defaultLifetime: TimeInterval = 180 * 86_400

    /// A full pack: installs `pack` whole, whatever is installed before.
    public static func full(_ pack: Pack, createdAt: Date = Date(), lifetime: TimeInterval = defaultLifetime) throws -> PackFile {
        try make(pack, payload: .full(pack.additives), diffFrom: nil, createdAt: createdAt, lifetime: lifetime)
    }

    /// A delta that turns `base` into `pack`; it applies only on top of `base.version` holding
    /// exactly `base`'s records (the manifest carries their content checksum).
    public static func delta(from base: Pack, to pack: Pack, createdAt: Date = Date(),
                             lifetime: TimeInterval = defaultLifetime) throws -> PackFile {
        guard let from = SemanticVersion(base.version), let to = SemanticVersion(pack.version) else {
            throw PackError.malformed("both versions must be semantic versions (\(base.version), \(pack.version))")
        }
        guard from < to else {
            throw PackError.notNewer("The new pack's version \(pack.version) must be higher than the base's \(base.version); raise it in pack.json")
        }
        return try make(pack, payload: .delta(PackDelta(from: base.additives, to: pack.additives)), diffFrom: from,
                        baseChecksum: try PackPayload.contentChecksum(of: base.additives), createdAt: createdAt, lifetime: lifetime)
    }

    private static func make(_ pack: Pack, payload: PackPayload, diffFrom: SemanticVersion?, baseChecksum: String? = nil,
                             createdAt: Date, lifetime: TimeInterval) throws -> PackFile {
        guard lifetime > 0 else { throw PackError.malformed("a pack's lifetime must be positive") }
        guard let version = SemanticVersion(pack.version) else {
            throw PackError.malformed("the version \"\(pack.version)\" is not a semantic version")
        }
        let bytes = try payload.encoded(knowledge: payload.kind == .full ? pack.knowledge : nil)
        let formatter = ISO8601DateFormatter()
        let manifest = PackManifest(
            version: version, dataVersion: pack.dataVersion, regions: pack.regions, checksum: PackFile.checksum(bytes),
            diffFrom: diffFrom, baseChecksum: baseChecksum, payload: .init(kind: payload.kind, size: bytes.count, records: payload.recordCount),
            createdAt: formatter.string(from: createdAt), expiresAt: formatter.string(from: createdAt.addingTimeInterval(lifetime)))
        return PackFile(manifest: manifest, payloadBytes: bytes)
    }
}
