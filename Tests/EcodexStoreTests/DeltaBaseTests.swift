import EcodexCore
import Foundation
import Testing
@testable import EcodexStore

/// A delta names its base by content, not only by version number: one version number has
/// shipped with different data, and a delta applied to the wrong one left two clients
/// reporting the same versions over different records.
@Suite struct DeltaBaseTests {
    typealias F = PackInstallFixture
    typealias Setup = PackInstallTests.Setup

    /// The fixture data under the same version 1.0.0, with E330's line as it read earlier.
    static func earlierData(_ base: Pack) -> Pack {
        var earlier = base
        earlier.dataVersion = "data-earlier"
        let i = earlier.additives.firstIndex { $0.code.description == "E330" }!
        earlier.additives[i].plainRisk.summary = "An acid found in lemons (earlier wording)."
        return earlier
    }

    @Test func aDeltaForOtherDataUnderTheSameVersionIsRefused() throws {
        let s = try Setup()
        let earlier = Self.earlierData(s.base)
        // The client holds the earlier 1.0.0 data; the delta was made from the later 1.0.0.
        try s.installer.apply(F.full(earlier), source: "earlier", options: .init(allowDowngrade: true))
        #expect(try s.open().versions == DataVersions(dataVersion: "data-earlier", packVersion: "1.0.0"))
        let before = s.storeBytes
        let delta = try F.delta(from: s.base, to: F.changed(s.base, version: "1.1.0"))
        let refused = #expect(throws: PackError.self) { try s.installer.apply(delta, source: "test") }
        guard case .wrongBase(let reason)? = refused else {
            Issue.record("expected wrongBase, got \(String(describing: refused))")
            return
        }
        #expect(reason.contains("other data than the version 1.0.0 installed here"), "\(reason)")
        #expect(s.storeBytes == before, "a refused delta leaves the store as it was")

        // The delta made from the data the client holds installs.
        try s.installer.apply(F.delta(from: earlier, to: F.changed(earlier, version: "1.1.0")), source: "test")
        #expect(try s.open().versions.packVersion == "1.1.0")
    }

    /// Every delta carries its base's checksum in the signed manifest; one without it is refused.
    @Test func aDeltaNamesItsBaseChecksumUnderTheSignatures() throws {
        let s = try Setup()
        let file = try PackBuilder.delta(from: s.base, to: F.changed(s.base, version: "1.1.0"))
        #expect(file.manifest.baseChecksum == (try PackPayload.contentChecksum(of: s.base.additives)))
        #expect(try s.open().contentChecksum() == file.manifest.baseChecksum, "the store computes the same checksum")

        // Signed without the member: refused before anything else is read.
        var stripped = file
        stripped.manifest.baseChecksum = nil
        let bytes = try F.signed(stripped)
        #expect(throws: PackError.self) { try s.installer.apply(bytes, source: "test") }
        // Changing the checksum after signing breaks the signatures.
        var signed = try PackFile(bytes: F.signed(file))
        signed.manifest.baseChecksum = "sha256:" + String(repeating: "0", count: 64)
        #expect(throws: PackError.self) { try PackVerifier.verify(signed.encoded, trust: F.trust) }
        // A full pack's manifest has no such member, so full packs signed before stay valid.
        let full = try PackBuilder.full(s.base)
        #expect(full.manifest.json["base_checksum"] == nil)
    }

    /// A full pack's content checksum is its payload's: the records round-trip through the store.
    @Test func aStoreHoldsTheRecordsItsPackNamed() throws {
        let s = try Setup()
        let next = F.changed(s.base, version: "1.1.0")
        let file = try PackBuilder.full(next)
        try s.installer.apply(F.signed(file), source: "test")
        #expect(try s.open().contentChecksum() == file.manifest.checksum)
    }
}
