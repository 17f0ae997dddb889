import Foundation

/// Makes unsigned pack files from built packs; `PublisherKey.sign` adds the signatures.
public enum PackBuilder {
    /// A full pack: installs `pack` whole, whatever is installed before.
    public static func full(_ pack: Pack, createdAt: Date = Date()) throws -> PackFile {
        try make(pack, payload: .full(pack.additives), diffFrom: nil, createdAt: createdAt)
    }

    /// A delta that turns `base` into `pack`; it applies only on top of `base.version`.
    public static func delta(from base: Pack, to pack: Pack, createdAt: Date = Date()) throws -> PackFile {
        guard let from = SemanticVersion(base.version), let to = SemanticVersion(pack.version) else {
            throw PackError.malformed("both versions must be semantic versions (\(base.version), \(pack.version))")
        }
        guard from < to else {
            throw PackError.notNewer("The new pack's version \(pack.version) must be higher than the base's \(base.version); raise it in pack.json")
        }
        return try make(pack, payload: .delta(PackDelta(from: base.additives, to: pack.additives)), diffFrom: from, createdAt: createdAt)
    }

    private static func make(_ pack: Pack, payload: PackPayload, diffFrom: SemanticVersion?, createdAt: Date) throws -> PackFile {
        guard let version = SemanticVersion(pack.version) else {
            throw PackError.malformed("the version \"\(pack.version)\" is not a semantic version")
        }
        let bytes = try payload.encoded()
        let formatter = ISO8601DateFormatter()
        let manifest = PackManifest(
            version: version, dataVersion: pack.dataVersion, regions: pack.regions, checksum: PackFile.checksum(bytes),
            diffFrom: diffFrom, payload: .init(kind: payload.kind, size: bytes.count, records: payload.recordCount),
            createdAt: formatter.string(from: createdAt))
        return PackFile(manifest: manifest, payloadBytes: bytes)
    }
}
