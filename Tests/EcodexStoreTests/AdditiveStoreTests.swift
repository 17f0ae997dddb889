import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

@Suite struct AdditiveStoreTests {
    @Test func firstRunCreatesTheStoreFromTheBasePack() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        #expect(!FileManager.default.fileExists(atPath: location.directory.path))
        let store = try Fixtures.store(in: scratch)
        #expect(FileManager.default.fileExists(atPath: location.additivesPath.path))
        #expect(store.versions == DataVersions(dataVersion: "2026.11.21-test", packVersion: "1.0.0"))
        #expect(!store.builtAt.isEmpty)
        #expect(try store.allAdditives().map(\.code.description)
            == ["E102", "E120", "E150d", "E160a", "E160a(ii)", "E202", "E203", "E330", "E951"])
        #expect(store.integrityCheck())
        // No build file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: location.directory.path)
            .filter { $0.hasPrefix(StoreBuilder.temporaryPrefix) }
        #expect(leftovers.isEmpty)
    }

    @Test func recordsRoundTripThroughTheStore() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let pack = try Fixtures.pack()
        #expect(try store.allAdditives() == pack.additives)
    }

    @Test func lookupByCodeFallsBackToTheNearestParent() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        #expect(try store.additive(code: ECode("E102")!)?.canonicalName == "Tartrazine")
        #expect(try store.additive(code: ECode("E160a(ii)")!)?.canonicalName == "Plant carotenes")
        // No record for E160a(iii): its parent answers.
        #expect(try store.additive(code: ECode("E160a(iii)")!)?.code == ECode("E160a"))
        // No E150, no E150 parent chain for E150a: nothing.
        #expect(try store.additive(code: ECode("E150a")!) == nil)
        #expect(try store.additive(code: ECode("E999")!) == nil)
        #expect(try store.children(of: ECode("E160a")!).map(\.code) == [ECode("E160a(ii)")!])
        #expect(try store.children(of: ECode("E102")!).isEmpty)
    }

    @Test func preloadedLookupsGiveTheSameRecords() throws {
        let scratch = try Fixtures.Scratch()
        let plain = try Fixtures.store(in: scratch)
        let preloaded = try AdditiveStore(location: scratch.location)
        try preloaded.preload()
        for code in ["E102", "E160a(ii)", "E160a(iv)", "E999"].map({ ECode($0)! }) {
            #expect(try preloaded.additive(code: code) == plain.additive(code: code))
        }
    }

    @Test func lexiconMatchesTheInMemoryCatalog() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let expected = Lexicon(additives: try Fixtures.pack().additives)
        let lexicon = try store.lexicon()
        #expect(lexicon.knownCodes == expected.knownCodes)
        #expect(lexicon.functions == expected.functions)
        #expect(lexicon.entries == expected.entries)
        #expect(lexicon.entries.contains(LexiconEntry(name: "caramel", code: ECode("E150d")!, lang: "en", contextOnly: true)))
        #expect(lexicon.entries.contains(LexiconEntry(name: "Carmine", code: ECode("E120")!, lang: "en", contextOnly: true)))
    }

    @Test(arguments: [
        ("Tartrazine", "E102", NameMatch.Kind.exact),
        ("tartrazine", "E102", .exact),
        // The first US name is that language's main name.
        ("FD&C Yellow No. 5", "E102", .exact),
        ("fd&c  yellow no. 5 ", "E102", .exact),
        ("Yellow 5", "E102", .alias),
        ("Cochineal", "E120", .alias),
        ("Karmin", "E120", .exact),
        ("Zitronensäure", "E330", .exact),
        ("zitronensaure", "E330", .exact),
        ("ZITRONENSÄURE", "E330", .exact),
        ("acido citrico", "E330", .exact),
        ("Bêta-carotène", "E160a", .alias),
        ("beta-carotene", "E160a", .alias),
    ])
    func exactAndAliasNames(query: String, code: String, kind: NameMatch.Kind) throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let matches = try store.lookup(name: query)
        #expect(matches.first?.code == ECode(code))
        #expect(matches.first?.kind == kind)
        #expect(try store.search(query).first?.code == ECode(code))
    }

    @Test func unknownNamesFindNothingExact() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        #expect(try store.lookup(name: "sugar").isEmpty)
        #expect(try store.lookup(name: "   ").isEmpty)
        #expect(try store.search("").isEmpty)
    }

    @Test(arguments: ["tartrazin", "tartrazien", "tartrazne", "tatrazine", "tartrasine", "TARTRAZIEN"])
    func typosOfOneOrTwoLettersFindTheAdditiveFirst(query: String) throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let results = try store.search(query)
        #expect(results.first?.code == ECode("E102"), "\(query): \(results)")
    }

    @Test func fuzzySearchFindsOtherMisspellings() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        #expect(try store.search("aspartam").first?.code == ECode("E951"))
        #expect(try store.search("aspartme").first?.code == ECode("E951"))
        #expect(try store.search("citirc acid").first?.code == ECode("E330"))
        #expect(try store.search("kochineal").first?.code == ECode("E120"))
        let fuzzy = try store.search("asparteme")
        #expect(fuzzy.first?.kind == .fuzzy)
        #expect(fuzzy.first!.score > 0.8)
        // Long queries take the piece-wise candidate path.
        #expect(try store.search("sulphite amonia caramel").first?.code == ECode("E150d"))
        #expect(try store.search("potasium sorbaet").first?.code == ECode("E202"))
        #expect(try store.search("Ammoniak-Sulfit-Zuckerkuler").first?.code == ECode("E150d"))
        // Three wrong letters in a short word is too far.
        #expect(try store.search("xyzpartame").first?.code != ECode("E951"))
    }

    @Test func rankingIsExactThenAliasThenPartialWithFrequencyTiebreak() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        // Both sorbates contain the word; potassium sorbate is far more common on labels.
        let sorbates = try store.search("sorbate")
        #expect(sorbates.map(\.code) == [ECode("E202")!, ECode("E203")!])
        #expect(sorbates.allSatisfy { $0.kind == .partial })
        // "carotenes" is exact for E160a and partial for E160a(ii) ("Plant carotenes").
        let carotenes = try store.search("carotenes")
        #expect(carotenes.map(\.code) == [ECode("E160a")!, ECode("E160a(ii)")!])
        #expect(carotenes.map(\.kind) == [.exact, .partial])
        // One result per additive, at most `limit`.
        let caramel = try store.search("caramel", limit: 1)
        #expect(caramel.count == 1)
        #expect(caramel.first?.code == ECode("E150d"))
    }

    @Test func codesAndShortQueries() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let byCode = try store.search("E 120").first
        #expect(byCode?.code == ECode("E120") && byCode?.kind == .exact)
        #expect(try store.search("e160a").first?.code == ECode("E160a"))
        // Shorter than a trigram: whole names and prefixes only.
        #expect(try store.search("as").map(\.code) == [ECode("E951")!])
        #expect(try store.search("ka").contains { $0.code == ECode("E120") })
    }

    @Test func aLeftoverBuildFileIsIgnoredAndStaleOnesAreCleaned() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        try FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
        let stale = location.directory.appendingPathComponent(StoreBuilder.temporaryPrefix + "1234-deadbeef")
        let fresh = location.directory.appendingPathComponent(StoreBuilder.temporaryPrefix + "5678-cafebabe")
        try Data("half a store".utf8).write(to: stale)
        try Data("another build in progress".utf8).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale.path)

        let store = try Fixtures.store(in: scratch)
        #expect(try store.additive(code: ECode("E102")!) != nil)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        // A fresh one may belong to a build running in another process: left alone.
        #expect(FileManager.default.fileExists(atPath: fresh.path))
    }

    @Test func aBuildThatFailsLeavesTheOldStoreInPlace() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        _ = try Fixtures.store(in: scratch)
        let before = try Data(contentsOf: location.additivesPath)
        // A pack that breaks a constraint (an empty canonical name) cannot be built.
        var bad = try Fixtures.pack()
        bad.additives[0].names["en"] = [""]
        #expect(throws: (any Error).self) { try AdditiveStore.install(bad, location: location) }
        #expect(try Data(contentsOf: location.additivesPath) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: location.directory.path)
            .filter { $0.hasPrefix(StoreBuilder.temporaryPrefix) }
        #expect(leftovers.isEmpty)
    }

    @Test func aMissingBasePackIsALookupError() throws {
        let scratch = try Fixtures.Scratch()
        let error = #expect(throws: StoreError.self) {
            try AdditiveStore(location: scratch.location, basePackURL: scratch.url.appendingPathComponent("nope.json"))
        }
        #expect(error?.errorClass == .lookup)
        #expect(caseName(error) == "basePackMissing", "\(String(describing: error))")
    }

    @Test func theBundledBasePackBuilds() throws {
        let scratch = try Fixtures.Scratch()
        let url = try #require(AdditiveStore.bundledBasePackURL)
        let pack = try Pack.read(from: url)
        let store = try AdditiveStore(location: scratch.location)
        #expect(store.versions.packVersion == pack.version)
        #expect(try store.allAdditives().count == pack.additives.count)
    }

    @Test func storeLocationResolution() {
        let env = ["HOME": "/home/ann", "XDG_DATA_HOME": "/xdg", "ECODEX_DATA_DIR": "/env/ecodex"]
        #expect(StoreLocation.resolve(override: "/opt/data", environment: env).directory.path == "/opt/data")
        #expect(StoreLocation.resolve(override: nil, environment: env).directory.path == "/env/ecodex")
        #expect(StoreLocation.resolve(override: "", environment: env).directory.path == "/env/ecodex")
        var noEnv = env
        noEnv["ECODEX_DATA_DIR"] = nil
        #expect(StoreLocation.resolve(override: nil, environment: noEnv).directory.path == "/xdg/ecodex")
        noEnv["XDG_DATA_HOME"] = "relative/ignored"
        let home = StoreLocation.resolve(override: nil, environment: noEnv)
        #expect(home.directory.path == "/home/ann/.local/share/ecodex")
        #expect(home.additivesPath.lastPathComponent == "additives.sqlite")
        #expect(home.userPath.lastPathComponent == "user.sqlite")
        #expect(StoreLocation.resolve(override: "~/eco", environment: env).directory.path == "/home/ann/eco")
    }

    @Test(arguments: [
        ("Zitronensäure", "zitronensaure"),
        ("  FD&C   Yellow\tNo. 5 ", "fd&c yellow no. 5"),
        ("Bêta-Carotène", "beta-carotene"),
        ("Straße", "strasse"),
        ("ÁCIDO CÍTRICO", "acido citrico"),
        // The parser's folding (`ScalarFolder`): look-alike capitals, full-width forms, typographic dashes.
        ("Е 330", "e 330"),
        ("ＦＤ＆Ｃ Ｙｅｌｌｏｗ Ｎｏ． ５", "fd&c yellow no. 5"),
        ("Sorbitol\u{2010}Sirup", "sorbitol-sirup"),
        ("Ρ Straße", "p strasse"),
    ])
    func nameNormalization(input: String, expected: String) {
        #expect(NameKey.normalize(input) == expected)
    }
}

@Suite struct AdditiveStoreIntegrationTests {
    @Test func theScannerRunsOnTheStore() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let scanner = try ScanPipeline(catalog: store)
        let report = try scanner.scan(.text("Sugar, citric acid, colours: E102, E160a(ii)"), options: ScanOptions())
        let codes = report.additives.map(\.code.description)
        #expect(codes.contains("E102"))
        // The parser may report the sub-form or its parent; either way the store answers.
        #expect(codes.contains { $0.hasPrefix("E160a") })
        #expect(report.packVersion == "1.0.0")
    }

    @Test func oneStoreServesManyThreads() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            do {
                let query = ["tartrazien", "E120", "zitronensaure", "sorbate"][i % 4]
                if try store.search(query).isEmpty { failures.add(query) }
                if try store.additive(code: ECode("E160a(iii)")!)?.code != ECode("E160a") { failures.add("code") }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
    }

    @Test func rebuildDropsAJournalLeftByTheOldFile() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        _ = try Fixtures.store(in: scratch)
        let journal = URL(fileURLWithPath: location.additivesPath.path + "-journal")
        try Data(repeating: 0xD9, count: 4096).write(to: journal)
        try AdditiveStore.rebuild(location: location, basePackURL: try Fixtures.builtPack(in: scratch))
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        #expect(try Fixtures.store(in: scratch).integrityCheck())
    }

    /// Collects failures from concurrent work.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }
}

@Suite struct BundledDataRefreshTests {
    /// A new program whose bundled base pack has new data under the same pack version
    /// (`data_version` moved) rebuilds a store built from the old base data, once.
    @Test func aStoreFromOlderBaseDataIsRebuiltFromTheBundledPack() throws {
        let scratch = try Fixtures.Scratch()
        let bundled = try #require(AdditiveStore.bundledBasePackURL.flatMap(BundledPackVersions.read))
        // An older program's store: built from its bundled pack, whose version matches ours and
        // whose data is older (the fixture pack, marked as bundled the way a first run marks it).
        let pack = try Fixtures.pack()
        try FileManager.default.createDirectory(at: scratch.location.directory, withIntermediateDirectories: true)
        try StoreBuilder.install(pack, at: scratch.location, fromBundledPack: true)
        #expect(pack.version == bundled.packVersion)
        #expect(pack.dataVersion != bundled.dataVersion)
        let refreshed = try AdditiveStore(location: scratch.location)
        #expect(refreshed.versions == bundled)
        #expect(try refreshed.additive(code: ECode("E120")!) != nil)
    }

    @Test func aStoreBuiltFromAnotherPackFileIsKept() throws {
        let scratch = try Fixtures.Scratch()
        let built = try AdditiveStore(location: scratch.location, basePackURL: Fixtures.builtPack(in: scratch))
        let reopened = try AdditiveStore(location: scratch.location)
        #expect(reopened.versions == built.versions)
    }

    @Test func theBundledVersionsAreReadFromTheFileTail() throws {
        let url = try #require(AdditiveStore.bundledBasePackURL)
        let pack = try AdditiveStore.loadPack(url)
        #expect(BundledPackVersions.read(url) == DataVersions(dataVersion: pack.dataVersion, packVersion: pack.version))
    }
}
