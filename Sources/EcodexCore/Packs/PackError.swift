/// Why a pack update was refused, or a key or trust file could not be used.
/// Every case is an `update_error`; the store is never touched by a refused pack. Each case
/// carries the technical reason; the command line words it for the shopper.
public enum PackError: ClassifiedError, Equatable {
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

    public var errorClass: ErrorClass { .update }
}
