import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

/// A pack that declares it records checks (`rules_checked`) marks every unchecked rule,
/// and the mark survives the built pack and the store.
@Suite struct RuleCheckStoreTests {
    @Test func rulesCheckedMarksUncheckedRulesThroughBuildAndStore() throws {
        let scratch = try Fixtures.Scratch()
        let declared = Fixtures.packJSON.replacingOccurrences(of: "}", with: #", "rules_checked": true}"#)
        var records = Fixtures.records
        records["E951.json"] = records["E951.json"]!.replacingOccurrences(
            of: #""statement": "Contains a source of phenylalanine."}"#,
            with: #""statement": "Contains a source of phenylalanine.", "reference": {"label": "Reg. (EU) No 1169/2011", "url": "https://eur-lex.europa.eu/eli/reg/2011/1169/oj"}}"#)
        let pack = try PackSource.load(directory: Fixtures.writePackSource(in: scratch.url, records: records, packJSON: declared))
        let e951 = try #require(pack.additives.first { $0.code == ECode("E951") })
        #expect(e951.regionRules["EU"]?.reference?.check == .unchecked)
        // Without the declaration, the records say nothing about checks and nothing is marked.
        let silent = try Fixtures.pack()
        #expect(silent.additives.allSatisfy { $0.regionRules.values.allSatisfy { $0.reference?.check == nil } })

        let url = scratch.url.appendingPathComponent("base-pack.json")
        try pack.write(to: url)
        let store = try AdditiveStore(location: scratch.location, basePackURL: url)
        let stored = try #require(try store.additive(code: ECode("E951")!))
        #expect(stored.regionRules["EU"]?.reference?.check == .unchecked)
        let verdict = RiskEngine.assess(stored, preferences: Preferences(region: .eu), on: CalendarDay("2026-11-27")!)
        #expect(verdict.badge == .yellow, "\(verdict.reasons)")
    }
}
