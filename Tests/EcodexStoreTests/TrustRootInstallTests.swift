import EcodexCore
import Foundation
import Testing
@testable import EcodexStore

/// Data installed with keys other than the ones the program answers to (a publisher's
/// `--trusted` file) stays marked, raises no record, and gives way to the genuine pack.
@Suite struct TrustRootInstallTests {
    typealias F = PackInstallFixture
    typealias Setup = PackInstallTests.Setup

    /// One key, one signature required: a trust file anyone can make.
    static let forgerKeys = TrustedKeys(requiredSignatures: 1, keys: [F.mallory.trustEntry])

    /// Installs a forged 1.1.0 with the forger's keys; returns the installer that did it.
    static func forge(_ s: Setup) throws -> PackInstaller {
        let forger = PackInstaller(location: s.scratch.location, trust: forgerKeys, trustOrigin: "evil-trust.json",
                                   basePackURL: s.installer.basePackURL)
        try forger.apply(F.full(F.changed(s.base, version: "1.1.0", summary: "Forged."), by: [F.mallory]), source: "evil.pack")
        #expect(try s.summary("E330") == "Forged.")
        return forger
    }

    @Test(arguments: ["full", "delta"])
    func theGenuinePackReplacesDataInstalledWithOtherKeys(kind: String) throws {
        let s = try Setup()
        _ = try Self.forge(s)
        let status = try s.installer.status()
        #expect(!status.verified)
        #expect(status.trustedKeysFile == "evil-trust.json")
        #expect(status.highestVersion == nil, "the forged pack raised the record")
        #expect(status.updatesFrom == "1.0.0", "updates continue from the base pack")
        #expect(try !s.open().isAnswerable(to: F.trust))
        #expect(try s.open().isAnswerable(to: Self.forgerKeys))

        // The genuine 1.1.0 (a full pack, or the delta from the base pack) is not "already installed".
        let genuine = F.changed(s.base, version: "1.1.0")
        let bytes = kind == "full" ? try F.full(genuine) : try F.delta(from: s.base, to: genuine)
        try s.installer.apply(bytes, source: "genuine.pack")
        #expect(try s.summary("E330") == "The sour acid in lemons. It is made in vats.")
        #expect(try s.open().isAnswerable(to: F.trust))
        let after = try s.installer.status()
        #expect(after.verified && after.trustedKeysFile == nil)
        #expect(after.highestVersion == SemanticVersion("1.1.0"))
    }

    /// The check runs at every open against the keys given then: a key dropped from the
    /// trusted set no longer vouches for data installed under it.
    @Test func installedDataIsCheckedAgainstTheKeysInForceNow() throws {
        let s = try Setup()
        try s.installer.apply(F.full(F.changed(s.base, version: "1.1.0")), source: "genuine.pack")
        #expect(try s.open().isAnswerable(to: F.trust))
        let withoutBob = TrustedKeys(requiredSignatures: 2, keys: [F.alice.trustEntry, F.mallory.trustEntry])
        #expect(try !s.open().isAnswerable(to: withoutBob))
        // The program's own keys did not sign this test pack: results are marked.
        #expect(try !s.open().dataIsVerified)
        // Data built from a pack file given to the program needs no signature.
        let (fresh, built) = try Setup.built(from: s.base)
        defer { _ = fresh }
        #expect(built.dataIsVerified)
    }

    /// After a rebuild, the update server's chain leads back past the highest version; a chain
    /// that would break half-way is refused whole, so it cannot leave the client lower.
    @Test func aChainClimbsBackOnlyWhenEveryStepFits() throws {
        let s = try Setup()
        let v11 = F.changed(s.base, version: "1.1.0")
        let v12 = F.changed(v11, version: "1.2.0", summary: "The sour acid in lemons.")
        try s.installer.applyChain([(F.delta(from: s.base, to: v11), "1.1"), (F.delta(from: v11, to: v12), "1.2")])
        try AdditiveStore.rebuild(location: s.scratch.location, basePackURL: s.installer.basePackURL)
        #expect(try s.open().versions.packVersion == "1.0.0")

        // A broken chain: its second step was made from other 1.1.0 data.
        let other = F.changed(s.base, version: "1.1.0", summary: "Other 1.1.0 data.")
        let before = s.storeBytes
        #expect(throws: PackError.self) {
            try s.installer.applyChain([(F.delta(from: s.base, to: v11), "1.1"), (F.delta(from: other, to: v12), "1.2")])
        }
        #expect(s.storeBytes == before, "nothing of a broken chain is installed")

        let outcomes = try s.installer.applyChain([(F.delta(from: s.base, to: v11), "1.1"), (F.delta(from: v11, to: v12), "1.2")])
        #expect(outcomes.map(\.to.packVersion) == ["1.1.0", "1.2.0"])
        #expect(try s.summary("E330") == "The sour acid in lemons.")
        // One step alone still may not go below.
        try AdditiveStore.rebuild(location: s.scratch.location, basePackURL: s.installer.basePackURL)
        #expect(throws: PackError.downgrade(offered: SemanticVersion("1.1.0")!, highest: SemanticVersion("1.2.0")!)) {
            try s.installer.applyChain([(F.delta(from: s.base, to: v11), "1.1")])
        }
    }
}
