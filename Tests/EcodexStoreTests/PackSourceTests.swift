import EcodexCore
import Foundation
import Testing

/// `PackSource` lives in EcodexCore; it is tested here beside the store it feeds.
@Suite struct PackSourceTests {
    @Test func loadsMetadataAndRecordsSortedByCode() throws {
        let scratch = try Fixtures.Scratch()
        let base = try Fixtures.writePackSource(in: scratch.url)
        let pack = try PackSource.load(directory: base)
        #expect(pack.version == "1.0.0")
        #expect(pack.dataVersion == "2026.11.21-test")
        #expect(pack.regions == [.eu, .us, .uk])
        #expect(pack.additives.map(\.code) == pack.additives.map(\.code).sorted())
        #expect(pack.additives.count == Fixtures.records.count)
        // A project root with packs/base/ works too.
        #expect(try PackSource.load(directory: scratch.url) == pack)
        let e951 = try #require(pack.additives.first { $0.code == ECode("E951") })
        #expect(e951.population == ["pku"])
        #expect(e951.regionRules["EU"]?.warningRequired == true)
        #expect(PackSource.validate(pack).isEmpty, "\(PackSource.validate(pack))")
    }

    @Test func errorsNameTheFileAndTheField() throws {
        let scratch = try Fixtures.Scratch()
        var records = Fixtures.records
        records["E102.json"] = records["E102.json"]!.replacingOccurrences(of: #""approved": true, "warning_required": true,"#,
                                                                          with: #""approved": "yes", "warning_required": true,"#)
        records["E330.json"] = nil
        let base = try Fixtures.writePackSource(in: scratch.url, records: records)
        let error = #expect(throws: PackSourceError.self) { try PackSource.load(directory: base) }
        #expect(error?.file.hasSuffix("additives/E102.json") == true)
        #expect(error?.field == "region_rules.EU.approved")

        records = Fixtures.records
        records["E120.json"] = records["E120.json"]!.replacingOccurrences(of: #""evidence_level": "Regulatory","#, with: "")
        let other = try Fixtures.Scratch()
        let missing = #expect(throws: PackSourceError.self) {
            try PackSource.load(directory: Fixtures.writePackSource(in: other.url, records: records))
        }
        #expect(missing?.field == "evidence_level")
        #expect(missing?.description.contains("E120.json: evidence_level: is missing") == true)

        let third = try Fixtures.Scratch()
        let badCode = #expect(throws: PackSourceError.self) {
            try PackSource.load(directory: Fixtures.writePackSource(in: third.url, records: ["X.json": #"{"code": "banana"}"#]))
        }
        #expect(badCode?.field == "code")
    }

    @Test func aByteOrderMarkIsSkippedAndARepeatedKeyIsAnError() throws {
        var records = Fixtures.records
        records["E102.json"] = "\u{FEFF}" + records["E102.json"]!
        let scratch = try Fixtures.Scratch()
        let pack = try PackSource.load(directory: Fixtures.writePackSource(in: scratch.url, records: records))
        #expect(pack == (try Fixtures.pack()))

        records["E330.json"] = records["E330.json"]!.replacingOccurrences(of: #""evidence_level": "Regulatory","#,
                                                                          with: #""evidence_level": "Regulatory", "evidence_level": "Limited","#)
        let other = try Fixtures.Scratch()
        let error = #expect(throws: PackSourceError.self) {
            try PackSource.load(directory: Fixtures.writePackSource(in: other.url, records: records))
        }
        #expect(error?.file.hasSuffix("additives/E330.json") == true)
        #expect(error?.message.contains("repeats the key \"evidence_level\"") == true)
    }

    @Test func validationFindsContentProblems() throws {
        var pack = try Fixtures.pack()
        let i = pack.additives.firstIndex { $0.code == ECode("E330") }!
        pack.additives[i].plainRisk.summary = "This acid is safe for everyone and it is found in lemons, limes, oranges and many other fruits too."
        pack.additives[i].references = []
        pack.additives[i].names = [:]
        pack.additives[i].regionRules["XX"] = RegionRule(approved: true)
        let j = pack.additives.firstIndex { $0.code == ECode("E160a(ii)") }!
        pack.additives[j].parent = ECode("E161")
        pack.additives.append(pack.additives[0])
        pack.version = "1.0"

        let issues = PackSource.validate(pack).map(\.description)
        #expect(issues.contains("version: \"1.0\" is not a semantic version such as 1.0.0"))
        #expect(issues.contains("E330 plain_risk.summary: has 19 words; at most 18"))
        #expect(issues.contains { $0.hasPrefix("E330 plain_risk.summary: says \"safe\"") })
        #expect(issues.contains("E330 references: needs at least one reference"))
        #expect(issues.contains("E330 names: needs at least one name"))
        #expect(issues.contains { $0.hasPrefix("E330 region_rules.XX: is not a region code") })
        #expect(issues.contains("E160a(ii) parent: E161 is not in the pack"))
        #expect(issues.contains("E102 code: appears more than once"))
    }

    @Test func safetyWordsAreWholeWordsOnly() {
        var pack = Pack(version: "1.0.0", dataVersion: "x", regions: [.eu], additives: [])
        let base = Additive(code: ECode("E300")!, names: ["en": ["Ascorbic acid"]], classes: ["antioxidant"],
                            regionRules: ["EU": RegionRule(approved: true)], evidenceLevel: .regulatory,
                            plainRisk: PlainRisk(summary: "Vitamin C. Experts checked its safety in 2015."),
                            references: [Reference(label: "EFSA", url: "https://www.efsa.europa.eu/")], updatedAt: "2026-11-01")
        pack.additives = [base]
        #expect(PackSource.validate(pack).isEmpty)
        pack.additives[0].plainRisk.summary = "Some say it is unsafe."
        #expect(PackSource.validate(pack).count == 1)
    }

    @Test func writeIsCompactSortedAndDeterministic() throws {
        let pack = try Fixtures.pack()
        var shuffled = pack
        shuffled.additives.reverse()
        #expect(try pack.encoded() == shuffled.encoded())
        let text = String(decoding: try pack.encoded(), as: UTF8.self)
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix(#"{"additives":[{"class":["colour"],"code":"E102""#))
        let scratch = try Fixtures.Scratch()
        let url = scratch.url.appendingPathComponent("pack.json")
        try pack.write(to: url)
        #expect(try Pack.read(from: url) == pack)
    }
}
