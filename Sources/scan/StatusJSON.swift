import EcodexCore
import EcodexStore
import Foundation

/// The JSON of `scan pack status` and the `products` commands, in the contract (docs/json.md).
extension JSONOutput {
    /// A pair of versions (`rollbackTo`).
    struct Versions: Encodable { let dataVersion: String, packVersion: String }

    /// `scan pack status --format json`; a field with no value is null.
    struct PackStatus: Encodable {
        struct Pending: Encodable { let source: String, recordedAt: String }
        let schemaVersion = JSONRenderer.schemaVersion
        let dataVersion: String, packVersion: String
        let regions: [String: String]
        let installedAt: String, installedFrom: String
        let signedBy: [String]
        let rollbackTo: Versions?
        let pending: Pending?
        let highestVersion: String?, expiresAt: String?
        let trustedKeys: Int
        let verified: Bool
        let installedWithKeys: String?
        init(_ s: PackInstaller.Status, trustedKeys: Int) {
            dataVersion = s.versions.dataVersion; packVersion = s.versions.packVersion
            regions = Dictionary(uniqueKeysWithValues: s.regions.map { ($0.rawValue, s.versions.packVersion) })
            installedAt = s.installedAt; installedFrom = s.installedFrom; signedBy = s.signers
            rollbackTo = s.rollbackTo.map { Versions(dataVersion: $0.dataVersion, packVersion: $0.packVersion) }
            pending = s.pending.map { Pending(source: $0.source, recordedAt: $0.recordedAt) }
            highestVersion = s.highestVersion?.description; expiresAt = s.expiresAt
            self.trustedKeys = trustedKeys; verified = s.verified; installedWithKeys = s.trustedKeysFile
        }
        enum Key: String, CodingKey {
            case schemaVersion, dataVersion, packVersion, regions, installedAt, installedFrom, signedBy, rollbackTo, pending
            case highestVersion, expiresAt, trustedKeys, verified, installedWithKeys
        }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(schemaVersion, forKey: .schemaVersion)
            try c.encode(dataVersion, forKey: .dataVersion); try c.encode(packVersion, forKey: .packVersion)
            try c.encode(regions, forKey: .regions)
            try c.encode(installedAt, forKey: .installedAt); try c.encode(installedFrom, forKey: .installedFrom)
            try c.encode(signedBy, forKey: .signedBy)
            try c.encode(rollbackTo, forKey: .rollbackTo); try c.encode(pending, forKey: .pending)
            try c.encode(highestVersion, forKey: .highestVersion); try c.encode(expiresAt, forKey: .expiresAt)
            try c.encode(trustedKeys, forKey: .trustedKeys); try c.encode(verified, forKey: .verified)
            try c.encode(installedWithKeys, forKey: .installedWithKeys)
        }
    }

    /// `scan products status --format json`: the three product sources, in lookup order.
    struct ProductsStatus: Encodable {
        struct Cache: Encodable { let products: Int, path: String }
        struct Imported: Encodable {
            let products: Int, source: String, format: String, importedAt: String, bytes: Int64, path: String
        }
        struct Online: Encodable { let saved: Bool, url: String }
        let schemaVersion = JSONRenderer.schemaVersion
        let cache: Cache
        let imported: Imported?
        let online: Online
        enum Key: String, CodingKey { case schemaVersion, cache, imported, online }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(schemaVersion, forKey: .schemaVersion); try c.encode(cache, forKey: .cache)
            try c.encode(imported, forKey: .imported); try c.encode(online, forKey: .online)
        }
    }

    /// `scan products import --format json`: what was read, kept and skipped, and how fast.
    struct ProductsImport: Encodable {
        struct Skipped: Encodable { let barcode: Int, ingredients: Int, unreadable: Int }
        let schemaVersion = JSONRenderer.schemaVersion
        let input: String, format: String
        let lines: Int, imported: Int, products: Int
        let skipped: Skipped
        let bytes: Int64
        let seconds: Double, linesPerSecond: Double
        /// Absent where the peak memory cannot be read (no /proc).
        let peakMemoryMB: Double?
        init(_ s: ProductImportSummary, file: String, peakMemoryMB: Double?) {
            input = file; format = s.format; lines = s.lines; imported = s.imported; products = s.products
            skipped = Skipped(barcode: s.skippedBarcode, ingredients: s.skippedIngredients, unreadable: s.skippedUnreadable)
            bytes = s.bytes; seconds = (s.seconds * 1000).rounded() / 1000; linesPerSecond = s.linesPerSecond.rounded()
            self.peakMemoryMB = peakMemoryMB.map { ($0 * 10).rounded() / 10 }
        }
    }
}
