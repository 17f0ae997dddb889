import EcodexCore
import Foundation
import Testing
@testable import EcodexStore

/// Keys and packs for the install tests, made from the fixture pack (version 1.0.0).
enum PackInstallFixture {
    static let alice = PublisherKey(owner: "alice")
    static let bob = PublisherKey(owner: "bob")
    static let mallory = PublisherKey(owner: "mallory")
    static let trust = TrustedKeys(requiredSignatures: 2, keys: [alice.trustEntry, bob.trustEntry])

    static func signed(_ file: PackFile, by keys: [PublisherKey] = [alice, bob]) throws -> [UInt8] {
        var out = file
        for key in keys { out.manifest = try key.sign(out.manifest) }
        return out.encoded
    }

    /// The fixture data at `version` with one plain line changed, E211 added and E203 removed.
    static func changed(_ base: Pack, version: String, summary: String = "The sour acid in lemons. It is made in vats.") -> Pack {
        var next = base
        next.version = version
        next.dataVersion = "data-" + version
        let i = next.additives.firstIndex { $0.code.description == "E330" }!
        next.additives[i].plainRisk.summary = summary
        var benzoate = next.additives.first { $0.code.description == "E202" }!
        benzoate.code = ECode("E211")!
        benzoate.names = ["en": ["Sodium benzoate"], "de": ["Natriumbenzoat"]]
        next.additives.removeAll { $0.code.description == "E203" || $0.code.description == "E211" }
        next.additives.append(benzoate)
        return next
    }

    static func delta(from base: Pack, to next: Pack, by keys: [PublisherKey] = [alice, bob]) throws -> [UInt8] {
        try signed(PackBuilder.delta(from: base, to: next), by: keys)
    }

    static func full(_ pack: Pack, by keys: [PublisherKey] = [alice, bob]) throws -> [UInt8] {
        try signed(PackBuilder.full(pack), by: keys)
    }
}

@Suite struct PackInstallTests {
    typealias F = PackInstallFixture

    /// A store built from the fixture pack, and an installer for it.
    struct Setup {
        let scratch: Fixtures.Scratch
        let base: Pack
        let installer: PackInstaller

        init() throws {
            scratch = try Fixtures.Scratch()
            base = try Fixtures.pack()
            _ = try Fixtures.store(in: scratch)
            installer = PackInstaller(location: scratch.location, trust: F.trust,
                                      basePackURL: scratch.url.appendingPathComponent("base-pack.json"))
        }

        var storeBytes: Data { (try? Data(contentsOf: scratch.location.additivesPath)) ?? Data() }

        func open() throws -> AdditiveStore { try AdditiveStore(location: scratch.location) }

        func summary(_ code: String) throws -> String? { try open().additive(code: ECode(code)!)?.plainRisk.summary }

        /// A store built from scratch from `pack`, to compare a patched store with; keep
        /// the returned scratch folder alive as long as the store.
        static func built(from pack: Pack) throws -> (Fixtures.Scratch, AdditiveStore) {
            let fresh = try Fixtures.Scratch()
            let url = fresh.url.appendingPathComponent("next.json")
            try pack.write(to: url)
            return (fresh, try AdditiveStore(location: fresh.location, basePackURL: url))
        }

        /// Every name row of a store, sorted (a patched store lists a changed record's names last).
        static func names(_ store: AdditiveStore) throws -> [String] {
            try store.lexicon().entries.map { "\($0.code) \($0.lang) \($0.name) \($0.contextOnly)" }.sorted()
        }

        /// The data folder's file names, without the lock, the log and the version record.
        var files: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: scratch.location.directory.path)) ?? [])
                .filter { !["additives.lock", "pack-updates.log", "pack-state.json"].contains($0) }.sorted()
        }
    }

    @Test func expiredPacksAreRefusedUnlessAccepted() throws {
        let s = try Setup()
        let next = F.changed(s.base, version: "1.1.0")
        let built = Date(timeIntervalSince1970: 1_790_000_000)
        let bytes = try F.signed(PackBuilder.full(next, createdAt: built, lifetime: 86_400))
        let before = s.storeBytes
        #expect(throws: PackError.expired(version: SemanticVersion("1.1.0")!, expiresAt: "2026-09-22T14:13:20Z")) {
            try s.installer.apply(bytes, source: "test", now: built.addingTimeInterval(2 * 86_400))
        }
        #expect(s.storeBytes == before)
        // Within its lifetime it installs; past it, only when the user accepts it, and that is logged.
        #expect(throws: Never.self) { try s.installer.apply(bytes, source: "test", now: built.addingTimeInterval(3_600)) }
        _ = try s.installer.rollback()
        let accepted = try s.installer.apply(bytes, source: "test", now: built.addingTimeInterval(2 * 86_400),
                                             options: .init(allowExpired: true))
        #expect(accepted.expiredAt == "2026-09-22T14:13:20Z")
        let log = try String(contentsOf: s.installer.logPath, encoding: .utf8)
        #expect(log.contains(#""expired_at":"2026-09-22T14:13:20Z""#))
        #expect(try s.installer.status().expiresAt == "2026-09-22T14:13:20Z")
    }

    @Test func theHighestVersionOutlivesTheStore() throws {
        let s = try Setup()
        let v11 = F.changed(s.base, version: "1.1.0"), v12 = F.changed(s.base, version: "1.2.0")
        try s.installer.apply(F.full(v11), source: "test")
        try s.installer.apply(F.full(v12), source: "test")
        try FileManager.default.removeItem(at: s.scratch.location.additivesPath)
        #expect(throws: PackError.downgrade(offered: SemanticVersion("1.1.0")!, highest: SemanticVersion("1.2.0")!)) {
            try s.installer.apply(F.full(v11), source: "test")
        }
        #expect(try s.installer.status().highestVersion == SemanticVersion("1.2.0"))
        let repaired = try s.installer.apply(F.full(v11), source: "test", options: .init(allowDowngrade: true))
        #expect(repaired.below == SemanticVersion("1.2.0"))
        // Rollback is a local choice and leaves the record; re-applying the highest version works.
        _ = try s.installer.rollback()
        #expect(throws: Never.self) { try s.installer.apply(F.full(v12), source: "test") }
    }

    @Test func aFolderIsVerifiedBeforeItsChainIsChosen() throws {
        let s = try Setup()
        let folder = s.scratch.url.appendingPathComponent("dist")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let next = F.changed(s.base, version: "1.1.0")
        try Data(F.delta(from: s.base, to: next)).write(to: folder.appendingPathComponent("a-1.1.0.pack"))
        try Data(F.full(F.changed(s.base, version: "9.0.0"), by: [F.alice, F.mallory])).write(to: folder.appendingPathComponent("b-9.0.0.pack"))
        try Data("not a pack".utf8).write(to: folder.appendingPathComponent("c.pack"))
        var refused: [String] = []
        let outcomes = try s.installer.applyFolder(folder) { url, _ in refused.append(url.lastPathComponent) }
        #expect(outcomes.map(\.to.packVersion) == ["1.1.0"])
        #expect(refused == ["b-9.0.0.pack", "c.pack"])
    }

    @Test func deltaInstallsAtomicallyAndRollsBack() throws {
        let s = try Setup()
        let oldSummary = try s.summary("E330")
        let next = F.changed(s.base, version: "1.1.0")
        let outcome = try s.installer.apply(F.delta(from: s.base, to: next), source: "test")
        #expect(outcome.from?.packVersion == "1.0.0")
        #expect(outcome.to == DataVersions(dataVersion: "data-1.1.0", packVersion: "1.1.0"))
        #expect(outcome.signers == ["alice", "bob"])

        let store = try s.open()
        #expect(store.versions.packVersion == "1.1.0")
        #expect(try s.summary("E330") == "The sour acid in lemons. It is made in vats.")
        #expect(try store.additive(code: ECode("E211")!)?.canonicalName == "Sodium benzoate")
        #expect(try store.additive(code: ECode("E203")!) == nil)
        #expect(try store.lookup(name: "Natriumbenzoat").first?.code == ECode("E211"))
        #expect(s.files == ["additives.index", "additives.previous.sqlite", "additives.sqlite"])

        let status = try s.installer.status()
        #expect(status.versions.packVersion == "1.1.0")
        #expect(status.rollbackTo?.packVersion == "1.0.0")
        #expect(status.signers == ["alice", "bob"])
        #expect(status.installedFrom == "test")

        let back = try s.installer.rollback()
        #expect(back.to.packVersion == "1.0.0")
        #expect(try s.open().versions.packVersion == "1.0.0")
        #expect(try s.summary("E330") == oldSummary)
        #expect(try s.open().additive(code: ECode("E211")!) == nil)
        #expect(try s.installer.status().rollbackTo == nil)
        #expect(throws: UpdateError.nothingToRollBack) { try s.installer.rollback() }
        // The update is newer than what is installed again, so it can be re-applied.
        #expect(throws: Never.self) { try s.installer.apply(F.delta(from: s.base, to: next), source: "test") }
    }

    /// A delta patches a copy of the store; the result must read exactly like a fresh build of the new data.
    @Test func aPatchedStoreReadsLikeAFreshBuild() throws {
        let s = try Setup()
        var next = F.changed(s.base, version: "1.1.0")
        // A new group record: E160a(ii) now hangs under E160 through E160a, and E160a gains a parent.
        var group = next.additives.first { $0.code.description == "E160a" }!
        group.code = ECode("E160")!
        group.names = ["en": ["Carotenoids"]]
        next.additives.append(group)
        try s.installer.apply(F.delta(from: s.base, to: next), source: "test")

        let (fresh, built) = try Setup.built(from: next)
        defer { _ = fresh }
        let patched = try s.open()
        #expect(try patched.allAdditives() == built.allAdditives())
        #expect(try Setup.names(patched) == Setup.names(built))
        #expect(try patched.lexicon().knownCodes == built.lexicon().knownCodes)
        for query in ["sorbate", "Natriumbenzoat", "carotene", "citric", "tartrazien", "E160", "Karmin"] {
            #expect(try patched.search(query) == built.search(query), "search \(query)")
        }
        #expect(try patched.children(of: ECode("E160")!).map(\.code) == built.children(of: ECode("E160")!).map(\.code))
        #expect(try patched.children(of: ECode("E160a")!).map(\.code) == built.children(of: ECode("E160a")!).map(\.code))
        #expect(patched.integrityCheck())
    }

    /// A changed record keeps the name rows that stay; the ones that go or change
    /// (another first name, a context flag) leave the name index, new ones join it.
    @Test func aPatchThatRenamesKeepsTheNameIndexExact() throws {
        let s = try Setup()
        var next = s.base
        next.version = "1.1.0"
        let i = next.additives.firstIndex { $0.code.description == "E330" }!
        next.additives[i].names["de"] = ["Citronensäure", "Zitronensäure"]  // the first name changes: both rows change kind
        next.additives[i].names["fr"] = nil
        next.additives[i].names["nl"] = ["Citroenzuur"]
        next.additives[i].names["it"] = ["Acido citrico", "Acido citrico"]  // the repeat is stored once
        next.additives[i].contextNames = ["Citric acid", "sour salt"]       // one flag flips, one name is context-only
        try s.installer.apply(F.delta(from: s.base, to: next), source: "test")

        let (fresh, built) = try Setup.built(from: next)
        defer { _ = fresh }
        let patched = try s.open()
        #expect(try Setup.names(patched) == Setup.names(built))
        for query in ["Zitronen", "citronen", "Citroenzuur", "Acide citrique", "citric", "sour salt", "zitronensaure"] {
            #expect(try patched.search(query) == built.search(query), "search \(query)")
        }
        // The full-text index agrees with the names table row for row.
        let db = try Connection(path: s.scratch.location.additivesPath.path, mode: .readWrite)
        #expect(throws: Never.self) { try db.execute("INSERT INTO names_fts (names_fts, rank) VALUES ('integrity-check', 1)") }
        #expect(patched.integrityCheck())
    }

    @Test func aDeltaMayNotRemoveAParentOthersStillName() throws {
        let s = try Setup()
        var next = s.base
        next.version = "1.1.0"
        next.additives.removeAll { $0.code.description == "E160a" }
        let before = s.storeBytes
        #expect(throws: PackError.self) { try s.installer.apply(F.delta(from: s.base, to: next), source: "test") }
        #expect(s.storeBytes == before)
    }

    @Test func fullPackReplacesAnOlderStore() throws {
        let s = try Setup()
        try s.installer.apply(F.full(F.changed(s.base, version: "2.0.0")), source: "test")
        #expect(try s.open().versions.packVersion == "2.0.0")
        #expect(try s.summary("E330") == "The sour acid in lemons. It is made in vats.")
    }

    /// Every refused pack leaves the store byte for byte as it was, and usable.
    @Test func refusedPacksLeaveTheStoreUnchanged() throws {
        let s = try Setup()
        let next = F.changed(s.base, version: "1.1.0")
        let good = try F.delta(from: s.base, to: next)
        var other = s.base
        other.version = "0.9.0"
        var schemaBroken = next
        schemaBroken.additives[0].references = []
        var sameKeyTwice = try PackFile(bytes: F.delta(from: s.base, to: next, by: [F.alice]))
        sameKeyTwice.manifest.signatures.append(sameKeyTwice.manifest.signatures[0])

        var bad: [(String, [UInt8])] = [
            ("wrong key", try F.delta(from: s.base, to: next, by: [F.alice, F.mallory])),
            ("one signature", try F.delta(from: s.base, to: next, by: [F.bob])),
            ("same key twice", sameKeyTwice.encoded),
            ("unsigned", try F.delta(from: s.base, to: next, by: [])),
            ("truncated", Array(good.dropLast(40))),
            ("truncated manifest", Array(good.prefix(100))),
            ("empty", []),
            ("delta against the wrong base", try F.delta(from: other, to: next)),
            ("payload that fails the schema", try F.delta(from: s.base, to: schemaBroken)),
            ("replayed older version", try F.full(other)),
            ("same version again", try F.full(s.base)),
        ]
        for i in stride(from: 0, to: good.count, by: 37) {
            var tampered = good
            tampered[i] ^= 0x01
            bad.append(("byte \(i) flipped", tampered))
        }
        let before = s.storeBytes
        let filesBefore = s.files
        for (name, bytes) in bad {
            #expect(throws: (any Error).self, "\(name) was accepted") { try s.installer.apply(bytes, source: name) }
            #expect(s.storeBytes == before, "\(name) changed the store")
            #expect(s.files == filesBefore, "\(name) left files behind")
        }
        #expect(try s.summary("E330") == s.base.additives.first { $0.code.description == "E330" }?.plainRisk.summary)
        #expect(try s.open().integrityCheck())
        // And the good pack still installs afterwards.
        try s.installer.apply(good, source: "test")
        #expect(try s.open().versions.packVersion == "1.1.0")
    }

    @Test func aReplayOfAnOlderUpdateIsRefusedAfterANewerOne() throws {
        let s = try Setup()
        let v11 = F.changed(s.base, version: "1.1.0")
        let v12 = F.changed(v11, version: "1.2.0", summary: "The sour acid in lemons.")
        let first = try F.delta(from: s.base, to: v11)
        try s.installer.apply(first, source: "1.1")
        try s.installer.apply(F.delta(from: v11, to: v12), source: "1.2")
        let before = s.storeBytes
        #expect(throws: PackError.self) { try s.installer.apply(first, source: "replay") }
        #expect(throws: PackError.self) { try s.installer.apply(F.full(v11), source: "replay") }
        #expect(s.storeBytes == before)
        #expect(try s.summary("E330") == "The sour acid in lemons.")
    }

    @Test func aDamagedStoreMayBeRepairedWithAnOlderFullPackButNotADelta() throws {
        let s = try Setup()
        let path = s.scratch.location.additivesPath
        var bytes = try Data(contentsOf: path)
        bytes.removeLast(bytes.count / 2)
        try bytes.write(to: path)
        #expect(throws: StoreError.self) { try s.open() }
        let next = F.changed(s.base, version: "1.1.0")
        #expect(throws: PackError.self) { try s.installer.apply(F.delta(from: s.base, to: next), source: "delta") }
        try s.installer.apply(F.full(s.base), source: "repair")
        #expect(try s.open().integrityCheck())
        #expect(try s.open().versions.packVersion == "1.0.0")
    }

    @Test func folderAppliesTheChainFromTheInstalledVersion() throws {
        let s = try Setup()
        let v11 = F.changed(s.base, version: "1.1.0")
        let v12 = F.changed(v11, version: "1.2.0", summary: "The sour acid in lemons.")
        let dir = s.scratch.url.appendingPathComponent("channel")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(F.full(s.base)).write(to: dir.appendingPathComponent("ecodex-1.0.0.pack"))
        try Data(F.delta(from: s.base, to: v11)).write(to: dir.appendingPathComponent("ecodex-1.1.0.pack"))
        try Data(F.delta(from: v11, to: v12)).write(to: dir.appendingPathComponent("ecodex-1.2.0.pack"))
        let outcomes = try s.installer.applyFolder(dir)
        #expect(outcomes.map(\.to.packVersion) == ["1.1.0", "1.2.0"])
        #expect(try s.installer.applyFolder(dir).isEmpty)
        #expect(try s.summary("E330") == "The sour acid in lemons.")
    }

    @Test func pendingUpdatesAreRememberedAndCleared() throws {
        let s = try Setup()
        #expect(s.installer.pending() == nil)
        try s.installer.recordPending(source: "https://example.org/ecodex-1.1.0.pack", reason: "offline")
        #expect(s.installer.pending()?.source == "https://example.org/ecodex-1.1.0.pack")
        #expect(try s.installer.status().pending?.reason == "offline")
        s.installer.clearPending()
        #expect(s.installer.pending() == nil)
    }
}
