/// Why a pack update was refused, or a key or trust file could not be used.
/// Every case becomes an `update_error`; the store is never touched by a refused pack.
public enum PackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a pack file, damaged, truncated, or a format this program does not read.
    case malformed(String)
    /// The signatures do not meet the trust policy (unknown key, bad signature, too few, same key twice).
    case signature(String)
    /// The payload is not the one the manifest names.
    case checksum(String)
    /// The payload does not decode as records, or the result breaks the content rules.
    case schema(String)
    /// The pack is not newer than the installed one (a replay or a downgrade).
    case notNewer(String)
    /// A delta for another installed version, or one whose changes do not fit the installed records.
    case wrongBase(String)
    /// A key file or the trusted-keys file is missing, unsafe or malformed.
    case keys(String)
    /// The pack is older than the highest version ever installed on this computer
    /// (kept apart from the store, so a rebuild does not forget it).
    case downgrade(offered: SemanticVersion, highest: SemanticVersion)
    /// The pack's signed expiry has passed.
    case expired(version: SemanticVersion, expiresAt: String)

    public var reason: String {
        switch self {
        case .malformed(let s), .signature(let s), .checksum(let s), .schema(let s),
             .notNewer(let s), .wrongBase(let s), .keys(let s): s
        case .downgrade(let offered, let highest):
            "this pack is version \(offered), but version \(highest) was installed on this computer before"
        case .expired(let version, let expiresAt):
            "pack \(version) expired at \(expiresAt)"
        }
    }

    public var description: String { reason }

    /// The error the command line prints: what went wrong and what to do.
    public var ecodexError: EcodexError {
        switch self {
        case .malformed(let s):
            .update("This is not a usable Ecodex pack: \(s). Download the update again.")
        case .signature(let s):
            .update("The pack's signatures do not check out: \(s). Nothing was installed; get the update from the official source.")
        case .checksum(let s):
            .update("The pack's data does not match its manifest: \(s). Nothing was installed; download the update again.")
        case .schema(let s):
            .update("The pack's records are not valid: \(s). Nothing was installed; report this to the publisher.")
        case .notNewer(let s):
            .update("\(s). Nothing was installed.")
        case .wrongBase(let s):
            .update("\(s). Nothing was installed; apply the full pack or the missing updates first.")
        case .keys(let s):
            .update(s)
        case .downgrade:
            .update("Refused: \(reason). An older pack can bring back data that was corrected since; nothing was installed.")
        case .expired:
            .update("Refused: \(reason). An expired pack may be an old one replayed to hold back newer data; nothing was installed. Get the current update from the publisher.")
        }
    }
}
