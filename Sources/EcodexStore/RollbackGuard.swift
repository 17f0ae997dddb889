import EcodexCore
import Foundation

/// The highest pack version ever installed in a data folder, kept in its own file
/// (`pack-state.json`) beside the store.
///
/// The store itself cannot hold it: a rebuild or a deleted `additives.sqlite`
/// puts the built-in data back, and a pack check that looked only at the
/// installed version would then accept any old, validly signed pack (TUF keeps
/// this in separate trusted metadata for the same reason). Only a pack install
/// raises it; rollback, rebuild and an install with `allowDowngrade` leave it.
struct RollbackGuard {
    static let fileName = "pack-state.json"
    static let format = "ecodex-pack-state/1"

    let path: URL

    /// The recorded version; nil when nothing was recorded yet or the file cannot be read.
    func highest() -> SemanticVersion? {
        guard let data = FileManager.default.contents(atPath: path.path),
              let json = try? JSONValue.parse(Array(data)), json["format"]?.stringValue == Self.format,
              let text = json["highest_version"]?.stringValue
        else { return nil }
        return SemanticVersion(text)
    }

    /// Raises the record to `version` (never lowers it), durably.
    func record(_ version: SemanticVersion, now: Date) throws {
        if let current = highest(), current >= version { return }
        let body = JSONValue.object([
            "format": .string(Self.format),
            "highest_version": .string(version.description),
            "recorded_at": .string(ISO8601DateFormatter().string(from: now)),
        ]).encoded + [0x0A]
        try DataFolder.writeAtomically(Data(body), to: path)
    }
}
