import Foundation
import Testing
@testable import EcodexCore

/// Keys, trust and small signed packs for the signing tests.
enum PackSigningFixture {
    static let alice = PublisherKey(owner: "alice")
    static let bob = PublisherKey(owner: "bob")
    static let mallory = PublisherKey(owner: "mallory")
    /// Alice and Bob are trusted; two signatures are required. Mallory is not trusted.
    static let trust = TrustedKeys(requiredSignatures: 2, keys: [alice.trustEntry, bob.trustEntry])

    static let created = Date(timeIntervalSince1970: 1_795_000_000)
    /// Long enough that the fixed creation date never makes these packs expire.
    static let lifetime: TimeInterval = 100 * 365 * 86_400

    static let base = Pack(version: "1.0.0", dataVersion: "2026.11.21", regions: [.eu, .us],
                           additives: [TestRecords.tartrazine, TestRecords.carmine, TestRecords.citric])

    static var next: Pack {
        var citric = TestRecords.citric
        citric.plainRisk.summary = "The sour acid in lemons. It is made in vats."
        return Pack(version: "1.1.0", dataVersion: "2026.12.01", regions: [.eu, .us],
                    additives: [TestRecords.tartrazine, citric, TestRecords.aspartame])
    }

    static func signed(_ file: PackFile, by keys: [PublisherKey]) throws -> PackFile {
        var out = file
        for key in keys { out.manifest = try key.sign(out.manifest) }
        return out
    }

    static func fullPack(by keys: [PublisherKey] = [alice, bob]) throws -> [UInt8] {
        try signed(PackBuilder.full(base, createdAt: created, lifetime: lifetime), by: keys).encoded
    }

    static func deltaPack(by keys: [PublisherKey] = [alice, bob]) throws -> [UInt8] {
        try signed(PackBuilder.delta(from: base, to: next, createdAt: created, lifetime: lifetime), by: keys).encoded
    }
}

@Suite struct CanonicalJSONTests {
    @Test(arguments: [
        (#"{"b":1,"a":[true,false,null],"c":"x\ny\"\\/é"}"#, #"{"a":[true,false,null],"b":1,"c":"x\ny\"\\/é"}"#),
        (#" { "z" : -12 , "é" : "\u0001" } "#, #"{"z":-12,"é":"\u0001"}"#),
        (#"["\ud83d\ude00"]"#, "[\"😀\"]"),
    ])
    func encodesOneWay(input: String, canonical: String) throws {
        let value = try JSONValue.parse(Array(input.utf8))
        #expect(String(decoding: value.encoded, as: UTF8.self) == canonical)
        #expect(try JSONValue.parse(canonical: Array(canonical.utf8)) == value)
    }

    @Test(arguments: [#"{"a":1, "b":2}"#, #"{"b":1,"a":2}"#, #"["\/"]"#, #"["\u0041"]"#, "[1] ", "[01]", "[-0]"])
    func refusesNonCanonicalSpellings(_ text: String) {
        #expect(throws: CanonicalJSONError.self) { try JSONValue.parse(canonical: Array(text.utf8)) }
    }

    @Test(arguments: [#"{"a":1,"a":2}"#, "[1.5]", "[1e3]", #"["\ud800"]"#, "[", #"{"a"}"#, "nul", "[99999999999999999999]"])
    func refusesWhatItCannotRepresent(_ text: String) {
        #expect(throws: CanonicalJSONError.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    /// Bytes that are not UTF-8 inside a string: a stray byte, a cut-off sequence, an overlong form, a surrogate.
    @Test(arguments: [[0xFF], [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x41], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x41, 0x80]] as [[UInt8]])
    func refusesStringsThatAreNotUTF8(_ inside: [UInt8]) {
        #expect(throws: CanonicalJSONError.self) { try JSONValue.parse([0x5B, 0x22] + inside + [0x22, 0x5D]) }
        // The same with an escape before, which takes the slow path.
        #expect(throws: CanonicalJSONError.self) { try JSONValue.parse(Array(#"["\n"#.utf8) + inside + [0x22, 0x5D]) }
    }

    @Test func parsesEveryIntegerInRange() throws {
        #expect(try JSONValue.parse(Array("[-9223372036854775808,9223372036854775807,0,-1]".utf8))
            == .array([.int(.min), .int(.max), .int(0), .int(-1)]))
        for bad in ["[9223372036854775808]", "[-9223372036854775809]", "[-]", "[-a]"] {
            #expect(throws: CanonicalJSONError.self, "\(bad)") { try JSONValue.parse(Array(bad.utf8)) }
        }
    }
}

@Suite struct SemanticVersionTests {
    @Test func ordersAsSemverSays() throws {
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
                       "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2.0", "1.10.0", "2.0.0"].map { SemanticVersion($0)! }
        for (a, b) in zip(ordered, ordered.dropFirst()) { #expect(a < b, "\(a) < \(b)") }
        #expect(SemanticVersion("1.2.3")?.description == "1.2.3")
    }

    @Test(arguments: ["1.0", "v1.0.0", "01.0.0", "1.0.0+build", "1.0.0-", "1..0", "1.0.0-01", ""])
    func refusesNonVersions(_ text: String) {
        #expect(SemanticVersion(text) == nil)
    }
}

@Suite struct PackSigningTests {
    typealias F = PackSigningFixture

    @Test func aPackSignedByTwoTrustedKeysVerifies() throws {
        let full = try PackVerifier.verify(F.fullPack(), trust: F.trust)
        #expect(full.manifest.version == SemanticVersion("1.0.0"))
        #expect(full.signers == ["alice", "bob"])
        #expect(full.payload == .full(F.base.additives.sorted { $0.code < $1.code }))

        let delta = try PackVerifier.verify(F.deltaPack(), trust: F.trust)
        #expect(delta.manifest.diffFrom == SemanticVersion("1.0.0"))
        guard case .delta(let d) = delta.payload else { Issue.record("not a delta"); return }
        #expect(d.added.map(\.code.description) == ["E951"])
        #expect(d.changed.map(\.code.description) == ["E330"])
        #expect(d.removed.map(\.description) == ["E120"])
        #expect(try d.apply(to: F.base.additives) == F.next.additives.sorted { $0.code < $1.code })
    }

    @Test func fileIsAManifestLineThenThePayload() throws {
        let bytes = try F.fullPack()
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        let manifest = try JSONValue.parse(canonical: bytes[..<newline])
        #expect(manifest["format"] == .string("ecodex-pack/1"))
        #expect(manifest["diff_from"] == .null)
        #expect(manifest["checksum"]?.stringValue == PackFile.checksum(Array(bytes[(newline + 1)...])))
        #expect(manifest["signatures"]?.arrayValue?.count == 2)
    }

    /// Every single-bit change and several byte replacements, at every byte of
    /// the manifest line and the payload, are refused.
    @Test(arguments: ["full", "delta"])
    func everySingleByteChangeIsRefused(kind: String) throws {
        let good = kind == "full" ? try F.fullPack() : try F.deltaPack()
        let manifestEnd = try #require(good.firstIndex(of: 0x0A))
        var tried = 0
        for i in good.indices {
            // Every bit flip in the payload (the hash refuses those quickly); in the
            // manifest, where each try costs a signature check in a debug build, flips
            // of the lowest bit, the ASCII case bit and the top bit, and a newline.
            var replacements = i > manifestEnd ? (0..<8).map { good[i] ^ (1 << $0) } : [good[i] ^ 0x01, good[i] ^ 0x20, good[i] ^ 0x80]
            replacements += [0x0A, UInt8(ascii: "\"")].filter { $0 != good[i] }
            for r in replacements {
                var bad = good
                bad[i] = r
                tried += 1
                do {
                    _ = try PackVerifier.verify(bad, trust: F.trust)
                    Issue.record("byte \(i) changed from \(good[i]) to \(r) was accepted")
                } catch {}
            }
        }
        #expect(tried > 3 * good.count)
    }

    @Test func everyTruncationIsRefused() throws {
        let good = try F.deltaPack()
        for length in 0..<good.count {
            #expect(throws: PackError.self, "truncated to \(length) bytes") {
                try PackVerifier.verify(Array(good.prefix(length)), trust: F.trust)
            }
        }
        #expect(throws: PackError.self) { try PackVerifier.verify(good + [0x0A], trust: F.trust) }
    }

    @Test func aKeyThatIsNotTrustedIsRefused() throws {
        #expect(throws: PackError.signature("key \(F.mallory.id) is not a trusted publisher key")) {
            try PackVerifier.verify(F.fullPack(by: [F.alice, F.mallory]), trust: F.trust)
        }
        #expect(throws: PackError.self) { try PackVerifier.verify(F.fullPack(by: [F.mallory]), trust: F.trust) }
    }

    @Test func oneSignatureIsNotEnoughWhenTwoAreRequired() throws {
        #expect(throws: PackError.signature("it has 1 valid signature(s); 2 from different trusted keys are required")) {
            try PackVerifier.verify(F.fullPack(by: [F.alice]), trust: F.trust)
        }
        #expect(throws: PackError.self) { try PackVerifier.verify(F.fullPack(by: []), trust: F.trust) }
        // The number is policy: a trust file asking for one accepts one.
        let lenient = TrustedKeys(requiredSignatures: 1, keys: F.trust.keys)
        #expect(throws: Never.self) { try PackVerifier.verify(F.fullPack(by: [F.alice]), trust: lenient) }
    }

    @Test func twoSignaturesByTheSameKeyAreRefused() throws {
        var file = try PackFile(bytes: F.fullPack(by: [F.alice]))
        file.manifest.signatures.append(file.manifest.signatures[0])
        #expect(throws: PackError.self) { try PackVerifier.verify(file.encoded, trust: F.trust) }
        // Signing again with the same key replaces its signature; it does not add one.
        #expect(try F.alice.sign(file.manifest).signatures.count == 1)
    }

    @Test func aSignatureMovedToAnotherPackIsRefused() throws {
        let full = try PackFile(bytes: F.fullPack())
        var delta = try PackFile(bytes: F.deltaPack(by: []))
        delta.manifest.signatures = full.manifest.signatures
        #expect(throws: PackError.self) { try PackVerifier.verify(delta.encoded, trust: F.trust) }
    }

    @Test func aPayloadThatFailsTheSchemaIsRefusedEvenWhenSigned() throws {
        // Correctly signed and checksummed, but a record lacks its references and plain line.
        let broken = Array(#"{"additives":[{"code":"E102","names":{"en":["Tartrazine"]},"class":["colour"],"region_rules":{},"evidence_level":"Regulatory","updated_at":"2026-11-21"}],"kind":"full"}"#.utf8) + [0x0A]
        #expect(throws: PackError.self) { try PackVerifier.verify(Self.sign(payload: broken), trust: F.trust) }
        // Decodes, but breaks the content rules (no reference).
        var record = TestRecords.tartrazine
        record.references = []
        let invalid = try PackPayload.full([record]).encoded()
        #expect(throws: PackError.self) { try PackVerifier.verify(Self.sign(payload: invalid), trust: F.trust) }
        // A payload of the wrong kind for its manifest.
        let mismatched = try PackPayload.delta(PackDelta(removed: [ECode("E102")!])).encoded()
        #expect(throws: PackError.self) { try PackVerifier.verify(Self.sign(payload: mismatched), trust: F.trust) }
    }

    /// A full-pack manifest for `payload`, correctly checksummed and signed by Alice and Bob.
    static func sign(payload: [UInt8], records: Int = 1) throws -> [UInt8] {
        let manifest = PackManifest(version: SemanticVersion("2.0.0")!, dataVersion: "x", regions: [.eu],
                                    checksum: PackFile.checksum(payload), diffFrom: nil,
                                    payload: .init(kind: .full, size: payload.count, records: records), createdAt: "2026-11-21T00:00:00Z",
                                    expiresAt: "2126-11-21T00:00:00Z")
        return try F.signed(PackFile(manifest: manifest, payloadBytes: payload), by: [F.alice, F.bob]).encoded
    }

    @Test func trustFilesRoundTripAndRefuseBadIDs() throws {
        let parsed = try TrustedKeys(json: Array(F.trust.fileText.utf8))
        #expect(parsed == F.trust)
        var wrong = F.trust
        wrong.keys[0].id = F.mallory.id
        #expect(throws: PackError.self) { try TrustedKeys(json: Array(wrong.fileText.utf8)) }
    }

    @Test func keyFilesAreOwnerOnlyAndRoundTrip() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("alice.key").path
        let key = PublisherKey(owner: "alice")
        try key.write(to: path)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        let read = try PublisherKey(contentsOf: path)
        #expect(read.id == key.id)
        #expect(throws: PackError.self, "never overwrites a key") { try key.write(to: path) }
        chmod(path, 0o644)
        #expect(throws: PackError.self, "refuses a key others can read") { try PublisherKey(contentsOf: path) }
    }

    @Test func shippedTrustMatchesPacksKeys() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try TrustedKeys(contentsOf: root.appendingPathComponent("packs/keys/trusted.json"))
        #expect(TrustedKeys.shipped == file, "copy packs/keys/trusted.json into Sources/EcodexCore/Packs/ShippedTrust.swift")
        #expect(file.requiredSignatures >= 2, "publishing takes two-person review")
        #expect(file.keys.count >= file.requiredSignatures)
    }
}
