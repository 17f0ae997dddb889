import Foundation

/// What a pack update says about itself, and what its signatures cover.
///
/// A pack file is two lines (see `PackFile`): this manifest in canonical JSON,
/// then the payload. The manifest names the payload by its SHA-256, so a
/// signature over the manifest covers the payload too.
public struct PackManifest: Sendable, Equatable {
    /// The file format; a verifier refuses formats it does not know.
    public static let format = "ecodex-pack/1"

    /// Semantic version of the pack this file installs.
    public var version: SemanticVersion
    /// Release of the additive data it installs (`2026.11.22`).
    public var dataVersion: String
    /// Regions whose rules this pack carries or changes.
    public var regions: [Region]
    /// `sha256:` and the lowercase hex SHA-256 of the payload bytes exactly as in the file.
    public var checksum: String
    /// The installed version a delta applies to; nil for a full pack.
    public var diffFrom: SemanticVersion?
    /// For a delta, the content checksum (`PackPayload.contentChecksum`) of the records it was made
    /// from: one version number has shipped with different data, so the number alone does not name a base.
    public var baseChecksum: String?
    public var payload: PayloadInfo
    /// When the pack was built (ISO 8601, UTC).
    public var createdAt: String
    /// After this moment (ISO 8601, UTC) the pack is refused unless the user accepts it
    /// explicitly: an old pack replayed to a client that has not updated (a freeze) is stale.
    /// Signed like every other member.
    public var expiresAt: String
    /// Publisher signatures over `signedBytes`. Not part of what is signed.
    public var signatures: [PackSignature]

    public struct PayloadInfo: Sendable, Equatable {
        public var kind: PackPayload.Kind
        /// Byte length of the payload.
        public var size: Int
        /// Records the payload carries (for a delta: added + changed + removed).
        public var records: Int

        public init(kind: PackPayload.Kind, size: Int, records: Int) {
            self.kind = kind
            self.size = size
            self.records = records
        }
    }

    public init(version: SemanticVersion, dataVersion: String, regions: [Region], checksum: String,
                diffFrom: SemanticVersion?, baseChecksum: String? = nil, payload: PayloadInfo, createdAt: String,
                expiresAt: String, signatures: [PackSignature] = []) {
        self.version = version
        self.dataVersion = dataVersion
        self.regions = regions
        self.checksum = checksum
        self.diffFrom = diffFrom
        self.baseChecksum = baseChecksum
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.signatures = signatures
    }

    /// `expiresAt` as a date (the parser only accepts manifests where it is one).
    public var expiryDate: Date? { ISO8601DateFormatter().date(from: expiresAt) }

    /// True when the pack's expiry is at or before `now`.
    public func isExpired(at now: Date) -> Bool { expiryDate.map { $0 <= now } ?? true }

    /// Domain separation: these bytes never mean anything else to any key.
    static let signingContext = Array("ecodex-pack-signature/1\n".utf8)

    /// The bytes publishers sign: a fixed context line, then the canonical
    /// JSON of the manifest without its `signatures` member.
    public var signedBytes: [UInt8] {
        var fields = json.objectValue!
        fields["signatures"] = nil
        return PackManifest.signingContext + JSONValue.object(fields).encoded
    }

    /// The manifest as a JSON value (its canonical encoding is the file's first line).
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "format": .string(PackManifest.format),
            "version": .string(version.description),
            "data_version": .string(dataVersion),
            "regions": .array(regions.map { .string($0.rawValue) }),
            "checksum": .string(checksum),
            "diff_from": diffFrom.map { .string($0.description) } ?? .null,
            "payload": .object([
                "kind": .string(payload.kind.rawValue),
                "size": .int(Int64(payload.size)),
                "records": .int(Int64(payload.records)),
            ]),
            "created_at": .string(createdAt),
            "expires_at": .string(expiresAt),
            "signatures": .array(signatures.map {
                .object(["key": .string($0.keyID), "signature": .string($0.signature)])
            }),
        ]
        // Only a delta has the member, so a full pack's manifest is as it was before deltas carried it.
        if let baseChecksum { fields["base_checksum"] = .string(baseChecksum) }
        return .object(fields)
    }

    /// Reads a manifest from its JSON value; every member must be present, of
    /// the right type, and no others may be there.
    public init(json: JSONValue) throws(PackError) {
        guard let o = json.objectValue else { throw .malformed("the manifest is not a JSON object") }
        let known: Set<String> = ["format", "version", "data_version", "regions", "checksum", "diff_from", "base_checksum",
                                  "payload", "created_at", "expires_at", "signatures"]
        if let extra = o.keys.first(where: { !known.contains($0) }) { throw .malformed("the manifest has an unknown field \"\(extra)\"") }
        func string(_ key: String) throws(PackError) -> String {
            guard let s = o[key]?.stringValue else { throw .malformed("the manifest's \"\(key)\" is missing or not a string") }
            return s
        }
        let format = try string("format")
        guard format == PackManifest.format else {
            throw .malformed("the pack format is \"\(format)\"; this program reads \(PackManifest.format). Update Ecodex.")
        }
        guard let version = SemanticVersion(try string("version")) else { throw .malformed("the pack version is not a semantic version") }
        self.version = version
        dataVersion = try string("data_version")
        guard !dataVersion.isEmpty else { throw .malformed("the data version is empty") }
        guard let regionList = o["regions"]?.arrayValue else { throw .malformed("the manifest's \"regions\" is missing") }
        var regions: [Region] = []
        for r in regionList {
            guard let code = r.stringValue, let region = Region(rawValue: code), !regions.contains(region) else {
                throw .malformed("the manifest lists an unknown or repeated region")
            }
            regions.append(region)
        }
        self.regions = regions
        checksum = try string("checksum")
        guard checksum.hasPrefix("sha256:"), Hex.decode(String(checksum.dropFirst(7)))?.count == 32 else {
            throw .malformed("the checksum is not sha256: and 64 lowercase hex digits")
        }
        switch o["diff_from"] {
        case .null?: diffFrom = nil
        case .string(let s)?:
            guard let base = SemanticVersion(s) else { throw .malformed("diff_from is not a semantic version") }
            diffFrom = base
        default: throw .malformed("the manifest's \"diff_from\" is missing")
        }
        guard let p = o["payload"]?.objectValue, p.count == 3,
              let kind = p["kind"]?.stringValue.flatMap(PackPayload.Kind.init(rawValue:)),
              let size = p["size"]?.intValue, size >= 0, size < Int64(Int32.max),
              let records = p["records"]?.intValue, records >= 0, records < Int64(Int32.max)
        else { throw .malformed("the manifest's \"payload\" must be {kind, size, records}") }
        payload = PayloadInfo(kind: kind, size: Int(size), records: Int(records))
        guard (kind == .full) == (diffFrom == nil) else {
            throw .malformed("a full pack has diff_from null and a delta names its base version")
        }
        if let base = diffFrom, version <= base { throw .malformed("a delta's version must be higher than its base's") }
        if let value = o["base_checksum"] {
            guard diffFrom != nil else { throw .malformed("a full pack has no base_checksum") }
            guard let sum = value.stringValue, sum.hasPrefix("sha256:"), Hex.decode(String(sum.dropFirst(7)))?.count == 32 else {
                throw .malformed("base_checksum is not sha256: and 64 lowercase hex digits")
            }
            baseChecksum = sum
        } else {
            guard diffFrom == nil else {
                throw .malformed("the delta does not name the checksum of the data it changes (made by an older publisher tool)")
            }
            baseChecksum = nil
        }
        createdAt = try string("created_at")
        expiresAt = try string("expires_at")
        guard ISO8601DateFormatter().date(from: expiresAt) != nil else {
            throw .malformed("the manifest's \"expires_at\" is not an ISO 8601 time such as 2027-05-21T00:00:00Z")
        }
        guard let list = o["signatures"]?.arrayValue else { throw .malformed("the manifest's \"signatures\" is missing") }
        var signatures: [PackSignature] = []
        for entry in list {
            guard let s = entry.objectValue, s.count == 2, let key = s["key"]?.stringValue, let sig = s["signature"]?.stringValue else {
                throw .malformed("a signature entry must be {key, signature}")
            }
            signatures.append(PackSignature(keyID: key, signature: sig))
        }
        self.signatures = signatures
    }
}

/// One publisher's signature: the signing key's id and the Ed25519 signature in lowercase hex.
public struct PackSignature: Sendable, Equatable {
    public var keyID: String
    public var signature: String

    public init(keyID: String, signature: String) {
        self.keyID = keyID
        self.signature = signature
    }
}

/// A pack file's bytes: the manifest line and the payload.
///
/// ```
/// {"checksum":"sha256:…","created_at":…,"diff_from":null,"format":"ecodex-pack/1",…,"version":"1.1.0"}\n
/// {"additives":[…],"kind":"full"}\n
/// ```
/// The first line is the canonical JSON of the manifest (signatures included);
/// everything after its newline is the payload, hashed byte for byte.
public struct PackFile: Sendable {
    /// Largest pack file accepted, on disk or downloaded: 16 MB, ten times the full base
    /// pack (1.4 MB). Kept small because a download's memory grows with it (`HTTPGet`).
    public static let maximumBytes = 16 << 20

    public var manifest: PackManifest
    public var payloadBytes: [UInt8]

    public init(manifest: PackManifest, payloadBytes: [UInt8]) {
        self.manifest = manifest
        self.payloadBytes = payloadBytes
    }

    /// The file's bytes.
    public var encoded: [UInt8] {
        manifest.json.encoded + [0x0A] + payloadBytes
    }

    /// Splits and parses a pack file. Checks the form only; `PackVerifier` checks trust.
    public init(bytes: [UInt8]) throws(PackError) {
        guard let newline = bytes.firstIndex(of: 0x0A) else { throw .malformed("the file has no manifest line (truncated?)") }
        let manifestJSON: JSONValue
        do {
            manifestJSON = try JSONValue.parse(canonical: bytes[..<newline])
        } catch {
            throw .malformed("the manifest line \(error.reason)")
        }
        manifest = try PackManifest(json: manifestJSON)
        payloadBytes = Array(bytes[(newline + 1)...])
    }

    /// The `sha256:` checksum of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> String {
        "sha256:" + Hex.encode(PackCrypto.sha256(bytes))
    }
}

/// Lowercase hex, strictly: upper case is refused so each value has one spelling.
public enum Hex {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = value(chars[i]), let lo = value(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
