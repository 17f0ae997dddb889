import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}

/// The hash and signature primitives packs use, behind one small surface.
public enum PackCrypto {
    public static func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array(bytes))
        return Array(hasher.finalize())
    }

    /// A key's id: the first 16 hex digits of the SHA-256 of its raw 32-byte public key.
    public static func keyID(publicKey: [UInt8]) -> String {
        String(Hex.encode(sha256(publicKey)).prefix(16))
    }
}

/// A publisher's Ed25519 signing key. Its secret half lives only in a key file
/// readable by its owner (mode 0600), never in the repository, never printed.
public struct PublisherKey: Sendable {
    /// Who holds the key (shown when a pack is verified).
    public let owner: String
    /// The raw 32-byte secret (kept as bytes: swift-crypto's key type is not Sendable).
    private let secret: [UInt8]
    public let publicKey: [UInt8]

    public static let fileFormat = "ecodex-private-key/1"

    /// A new random key.
    public init(owner: String) {
        let key = Curve25519.Signing.PrivateKey()
        self.owner = owner
        secret = Array(key.rawRepresentation)
        publicKey = Array(key.publicKey.rawRepresentation)
    }
    public var id: String { PackCrypto.keyID(publicKey: publicKey) }

    /// The entry to put in `packs/keys/trusted.json` for this key.
    public var trustEntry: TrustedKeys.Key { TrustedKeys.Key(id: id, owner: owner, publicKey: publicKey) }

    /// Signs a manifest: returns it with this key's signature added (replacing an earlier one by the same key).
    public func sign(_ manifest: PackManifest) throws -> PackManifest {
        var out = manifest
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: secret)
        let signature = try key.signature(for: Data(manifest.signedBytes))
        out.signatures.removeAll { $0.keyID == id }
        out.signatures.append(PackSignature(keyID: id, signature: Hex.encode(signature)))
        return out
    }

    /// Writes the key to a new file readable and writable by its owner only.
    /// Refuses to overwrite: an existing key file is someone's signing identity.
    public func write(to path: String) throws(PackError) {
        let body = JSONValue.object([
            "format": .string(PublisherKey.fileFormat),
            "owner": .string(owner),
            "id": .string(id),
            "private_key": .string(Hex.encode(secret)),
        ]).encoded + [0x0A]
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = errno == EEXIST ? "it already exists; choose another name" : String(cString: strerror(errno))
            throw .keys("Cannot create the key file \(path): \(reason).")
        }
        defer { close(fd) }
        // The mode given to open() is filtered by the umask; set it exactly.
        guard fchmod(fd, 0o600) == 0 else { throw .keys("Cannot restrict the key file \(path) to its owner.") }
        let written = body.withUnsafeBytes { posixWrite(fd, $0.baseAddress, $0.count) }
        guard written == body.count, fsync(fd) == 0 else {
            unlink(path)
            throw .keys("Cannot write the key file \(path).")
        }
    }

    /// Reads a key file written by `write(to:)`. Refuses a file that others can
    /// read or write, as ssh does, and never puts the key's bytes in an error.
    public init(contentsOf path: String) throws(PackError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .keys("Cannot read the key file \(path): \(String(cString: strerror(errno))).") }
        guard info.st_mode & 0o077 == 0 else {
            throw .keys("The key file \(path) can be read by other users. Run `chmod 600 \(path)`, and make a new key if others may have copied it.")
        }
        // A regular file of at most 64 kB: a FIFO named as the key must not hang signing.
        guard let data = try? InputFile.read(path, role: .pack, limit: 64 << 10) else {
            throw .keys("Cannot read the key file \(path) (it must be a regular file).")
        }
        guard let json = try? JSONValue.parse(Array(data)), json["format"]?.stringValue == PublisherKey.fileFormat,
              let owner = json["owner"]?.stringValue, let hex = json["private_key"]?.stringValue,
              let raw = Hex.decode(hex), raw.count == 32,
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else { throw .keys("The key file \(path) is not an Ecodex private key file.") }
        self.owner = owner
        secret = raw
        publicKey = Array(key.publicKey.rawRepresentation)
    }
}

/// The publisher keys this program trusts, and how many must sign a pack.
///
/// The file ships with the program (`packs/keys/trusted.json`, built into the
/// binary as `ShippedTrust`):
/// ```
/// {"format": "ecodex-trust/1", "required_signatures": 2,
///  "keys": [{"id": "…", "owner": "publisher-1", "public_key": "<64 hex>"}, …]}
/// ```
/// `required_signatures` is the review policy: publishing a change to the
/// records takes that many signatures from different trusted keys.
public struct TrustedKeys: Sendable, Equatable {
    public static let fileFormat = "ecodex-trust/1"

    public struct Key: Sendable, Equatable {
        public var id: String
        public var owner: String
        public var publicKey: [UInt8]

        public init(id: String, owner: String, publicKey: [UInt8]) {
            self.id = id
            self.owner = owner
            self.publicKey = publicKey
        }

        public var json: JSONValue {
            .object(["id": .string(id), "owner": .string(owner), "public_key": .string(Hex.encode(publicKey))])
        }
    }

    public var requiredSignatures: Int
    public var keys: [Key]

    public init(requiredSignatures: Int, keys: [Key]) {
        self.requiredSignatures = requiredSignatures
        self.keys = keys
    }

    /// The keys that ship with this program.
    public static var shipped: TrustedKeys {
        // A test checks the shipped text parses and matches packs/keys/trusted.json.
        (try? TrustedKeys(json: Array(ShippedTrust.json.utf8))) ?? TrustedKeys(requiredSignatures: 2, keys: [])
    }

    /// Reads a trusted-keys file (a regular file of at most 1 MB); see `init(json:requireSatisfiable:)`.
    public init(contentsOf url: URL, requireSatisfiable: Bool = true) throws(PackError) {
        guard let data = try? InputFile.read(url.path, role: .pack, limit: 1 << 20) else {
            throw .keys("Cannot read the trusted-keys file \(url.path) (it must be a regular file of at most 1 MB).")
        }
        try self.init(json: Array(data), requireSatisfiable: requireSatisfiable)
    }

    /// Parses a trusted-keys file. Each id must match its key, and `required_signatures`
    /// must be between 1 and the number of keys: a policy no pack can meet would refuse
    /// every update. `requireSatisfiable: false` allows fewer keys than required, for a
    /// file still being filled in key by key (`scan pack keygen --trust`).
    public init(json bytes: [UInt8], requireSatisfiable: Bool = true) throws(PackError) {
        guard let json = try? JSONValue.parse(bytes), json["format"]?.stringValue == TrustedKeys.fileFormat,
              let required = json["required_signatures"]?.intValue, let list = json["keys"]?.arrayValue
        else { throw .keys("The trusted-keys file is not an \(TrustedKeys.fileFormat) file.") }
        var keys: [Key] = []
        for entry in list {
            guard let id = entry["id"]?.stringValue, let owner = entry["owner"]?.stringValue,
                  let hex = entry["public_key"]?.stringValue, let raw = Hex.decode(hex), raw.count == 32,
                  (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil
            else { throw .keys("A key in the trusted-keys file is not {id, owner, public_key (64 hex digits)}.") }
            guard PackCrypto.keyID(publicKey: raw) == id else { throw .keys("The trusted key \(id) (\(owner)) has the wrong id.") }
            guard !keys.contains(where: { $0.id == id }) else { throw .keys("The trusted key \(id) is listed twice.") }
            keys.append(Key(id: id, owner: owner, publicKey: raw))
        }
        guard required >= 1 else { throw .keys("required_signatures must be at least 1.") }
        guard !requireSatisfiable || required <= keys.count else {
            throw .keys("The trusted-keys file asks for \(required) signatures but lists \(keys.count) key(s); no pack could meet that.")
        }
        self.init(requiredSignatures: Int(required), keys: keys)
    }

    /// The file's text (pretty enough to review in a diff).
    public var fileText: String {
        let entries = keys.map { "    " + String(decoding: $0.json.encoded, as: UTF8.self) }
        return "{\n  \"format\": \"\(TrustedKeys.fileFormat)\",\n  \"required_signatures\": \(requiredSignatures),\n"
            + "  \"keys\": [\n" + entries.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    func key(id: String) -> Key? { keys.first { $0.id == id } }

    /// Names this set of keys and its policy: the first 16 hex digits of the SHA-256 of
    /// `required_signatures` and the sorted key ids. Records kept per trust root use it.
    public var fingerprint: String {
        let text = "\(requiredSignatures):" + keys.map(\.id).sorted().joined(separator: ",")
        return String(Hex.encode(PackCrypto.sha256(Array(text.utf8))).prefix(16))
    }
}

/// A pack whose signatures, checksum and records have all been checked.
public struct VerifiedPack: Sendable {
    public let manifest: PackManifest
    public let payload: PackPayload
    /// Owners of the keys that signed it, in signature order.
    public let signers: [String]
    /// The label languages and regions a full pack carries (`Pack.knowledge`).
    public var knowledge: LabelKnowledge? = nil
}

/// Checks a pack file before anything is installed from it.
public enum PackVerifier {
    /// Verifies, in this order: the form of the file, the payload's size and
    /// SHA-256 against the manifest, the signatures over the manifest against
    /// `trust` (every signature must be by a different trusted key and valid,
    /// and there must be at least `requiredSignatures`), and the records (schema, and for a full pack the content rules).
    /// Throws the first failure; returns only a pack that passed everything.
    ///
    /// An expired pack is refused unless `allowExpired`; the expiry is checked after
    /// the signatures, so only a genuine pack is reported as expired.
    public static func verify(_ bytes: [UInt8], trust: TrustedKeys, now: Date = Date(),
                              allowExpired: Bool = false) throws(PackError) -> VerifiedPack {
        let file = try PackFile(bytes: bytes)
        let m = file.manifest
        // The hash is cheaper than the signatures, so a damaged payload is refused first;
        // nothing is accepted unless both pass.
        guard file.payloadBytes.count == m.payload.size else {
            throw .checksum("the payload is \(file.payloadBytes.count) bytes, the manifest says \(m.payload.size) (truncated?)")
        }
        guard PackFile.checksum(file.payloadBytes) == m.checksum else { throw .checksum("its SHA-256 differs from the manifest's") }
        let signers = try checkSignatures(file.manifest, trust: trust)
        if !allowExpired, m.isExpired(at: now) { throw .expired(version: m.version, expiresAt: m.expiresAt) }
        let (payload, knowledge) = try PackPayload.decodeWithKnowledge(file.payloadBytes)
        guard payload.kind == m.payload.kind, payload.recordCount == m.payload.records else {
            throw .schema("the payload's kind or record count differs from the manifest's")
        }
        if case .full(let all) = payload {
            try checkContent(Pack(version: m.version.description, dataVersion: m.dataVersion, regions: m.regions, additives: all,
                                  knowledge: knowledge))
        }
        return VerifiedPack(manifest: m, payload: payload, signers: signers, knowledge: knowledge)
    }

    /// Checks a pack's records against the content rules (`PackSource.validate`).
    public static func checkContent(_ pack: Pack) throws(PackError) {
        let issues = PackSource.validate(pack)
        if let first = issues.first {
            throw .schema("\(first)" + (issues.count > 1 ? " (and \(issues.count - 1) more)" : ""))
        }
    }

    /// The owners of the signing keys, when the signatures meet the policy.
    public static func checkSignatures(_ manifest: PackManifest, trust: TrustedKeys) throws(PackError) -> [String] {
        let message = Data(manifest.signedBytes)
        var seen = Set<String>()
        var owners: [String] = []
        for entry in manifest.signatures {
            guard let key = trust.key(id: entry.keyID) else { throw .signature("key \(entry.keyID) is not a trusted publisher key") }
            guard seen.insert(key.id).inserted else { throw .signature("key \(key.id) (\(key.owner)) signed twice; two different reviewers must sign") }
            guard let raw = Hex.decode(entry.signature), raw.count == 64,
                  let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key.publicKey),
                  publicKey.isValidSignature(Data(raw), for: message)
            else { throw .signature("the signature by \(key.owner) (\(key.id)) is not valid for this pack") }
            owners.append(key.owner)
        }
        guard owners.count >= trust.requiredSignatures else {
            throw .signature("it has \(owners.count) valid signature(s); \(trust.requiredSignatures) from different trusted keys are required")
        }
        return owners
    }
}
