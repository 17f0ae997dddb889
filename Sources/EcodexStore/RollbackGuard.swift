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
///
/// Each trust root has its own record: the program's own keys in `highest_version`, a
/// publisher's `--trusted` file under its fingerprint in `other_keys`, so a pack checked
/// with other keys never raises the version the program's keys hold the folder to.
struct RollbackGuard {
    static let fileName = "pack-state.json"
    static let format = "ecodex-pack-state/1"

    let path: URL
    /// The fingerprint of the trusted keys in force (`TrustedKeys.fingerprint`); nil for the program's own.
    var keys: String? = nil

    /// The recorded version; nil when nothing was recorded yet or the file cannot be read.
    func highest() -> SemanticVersion? {
        guard let json = read() else { return nil }
        let text = keys.map { json["other_keys"]?[$0]?.stringValue } ?? json["highest_version"]?.stringValue
        return text.flatMap(SemanticVersion.init)
    }

    /// Raises the record to `version` (never lowers it), durably.
    func record(_ version: SemanticVersion, now: Date) throws {
        if let current = highest(), current >= version { return }
        var fields = read()?.objectValue ?? [:]
        fields["format"] = .string(Self.format)
        if let keys {
            var others = fields["other_keys"]?.objectValue ?? [:]
            others[keys] = .string(version.description)
            fields["other_keys"] = .object(others)
        } else {
            fields["highest_version"] = .string(version.description)
        }
        fields["recorded_at"] = .string(ISO8601DateFormatter().string(from: now))
        try DataFolder.writeAtomically(Data(JSONValue.object(fields).encoded + [0x0A]), to: path)
    }

    private func read() -> JSONValue? {
        // A few hundred bytes; anything much larger is not a file this program wrote.
        guard let data = FileManager.default.contents(atPath: path.path), data.count <= 64 << 10,
              let json = try? JSONValue.parse(Array(data)), json["format"]?.stringValue == Self.format
        else { return nil }
        return json
    }
}
