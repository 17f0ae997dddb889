import Foundation
import Testing
@testable import EcodexBench
import EcodexCore

private func codes(_ s: String...) -> Set<ECode> { Set(s.compactMap(ECode.init)) }

private func item(_ file: String, truth: Set<ECode>, names: Set<ECode> = [], conditions: [String] = ["clean"],
                  lang: String = "en", tier: String = "moderate") -> GoldItem {
    GoldItem(file: file, truth: truth, namesOnly: names, conditions: conditions, lang: lang, tier: tier)
}

@Suite struct BenchMetricsTests {
    @Test func countsGiveTextbookRatios() {
        let c = Counts(tp: 8, fp: 2, fn: 4)
        #expect(c.precision == 0.8)
        #expect(abs(c.recall - 8.0 / 12) < 1e-12)
        #expect(abs(c.f1 - 2 * 0.8 * (8.0 / 12) / (0.8 + 8.0 / 12)) < 1e-12)
        #expect(Counts().precision == 1 && Counts().recall == 1)
        #expect(Counts(tp: 0, fp: 3, fn: 2).f1 == 0)
    }

    @Test func imageScoreSeparatesPrintedCodesNamesAndFalseAlarms() {
        let gold = item("a.jpg", truth: codes("E102", "E129"), names: codes("E120"))
        let s = ImageScore(item: gold, predicted: codes("E102", "E120", "E330"), milliseconds: 10)
        #expect(s.codes == Counts(tp: 1, fp: 1, fn: 1))   // E102 found, E330 false, E129 missed
        #expect(s.names == Counts(tp: 1, fp: 0, fn: 0))   // E120 from "carmine" is right, not a false positive
        #expect(s.all == Counts(tp: 2, fp: 1, fn: 1))
        #expect(s.falsePositives == [ECode("E330")!])
        #expect(s.missedCodes == [ECode("E129")!])
    }

    @Test func romanSubFormsCountAsTheirParentButLettersDoNot() {
        let gold = item("a.jpg", truth: codes("E160a", "E150d", "E450"))
        let s = ImageScore(item: gold, predicted: codes("E160a(ii)", "E150", "E450(i)"), milliseconds: nil)
        #expect(s.codes.tp == 2)                          // E160a(ii) = E160a, E450(i) = E450
        #expect(s.falsePositives == [ECode("E150")!])     // E150 is not E150d
        #expect(s.missedCodes == [ECode("E150d")!])
    }

    @Test func microAveragingAddsPairsBeforeDividing() {
        // Image 1: 1 of 1 found. Image 2: 1 of 3 found. Macro recall would be (1 + 1/3) / 2 = 0.667;
        // micro recall is 2 / 4 = 0.5.
        let a = ImageScore(item: item("1.jpg", truth: codes("E100")), predicted: codes("E100"), milliseconds: 1)
        let b = ImageScore(item: item("2.jpg", truth: codes("E200", "E202", "E211")), predicted: codes("E200"), milliseconds: 1)
        let sum = BenchSummary(system: "t", scores: [a, b])
        #expect(sum.overall.codes == Counts(tp: 2, fp: 0, fn: 2))
        #expect(sum.overall.codeRecall == 0.5)
    }

    @Test func breakdownsByConditionLanguageAndTier() {
        let scores = [
            ImageScore(item: item("1.jpg", truth: codes("E100"), conditions: ["curved", "low_light"], lang: "de"),
                       predicted: codes("E100"), milliseconds: 100),
            ImageScore(item: item("2.jpg", truth: codes("E200"), conditions: ["curved"], lang: "fr", tier: "hard"),
                       predicted: [], milliseconds: 300),
            ImageScore(item: item("3.jpg", truth: [], names: codes("E330"), conditions: ["clean"], lang: "de"),
                       predicted: codes("E330"), milliseconds: 200),
        ]
        let s = BenchSummary(system: "t", scores: scores)
        #expect(s.byCondition["curved"]?.images == 2)
        #expect(s.byCondition["curved"]?.codes == Counts(tp: 1, fp: 0, fn: 1))
        #expect(s.byCondition["low_light"]?.codeF1 == 1)
        #expect(s.byLanguage["de"]?.images == 2)
        #expect(s.byLanguage["de"]?.synonymRecall == 1)
        #expect(s.moderate.images == 2 && s.hard.images == 1)
        #expect(s.hard.codeRecall == 0)
        #expect(s.timeMs.mean == 200 && s.timeMs.median == 200)
        #expect(s.worstMissedCodes.map(\.code) == ["E200"])
        #expect(s.worstMissedCodes.first?.images == ["2.jpg"])
    }

    @Test(arguments: [(50.0, 2.5), (95.0, 3.85), (0.0, 1.0), (100.0, 4.0), (25.0, 1.75)])
    func percentilesInterpolateLikeNumPy(_ q: Double, _ expected: Double) {
        // numpy.percentile([1, 2, 3, 4], q) with the default linear method.
        #expect(abs(TimeStats.percentile([1, 2, 3, 4], q) - expected) < 1e-9)
    }

    @Test func timeStatsOfNothingAreZero() {
        let t = TimeStats([])
        #expect(t.count == 0 && t.mean == 0 && t.p95 == 0)
        #expect(TimeStats([7]).p95 == 7)
    }

    @Test func worstListsAreOrderedByCountThenCode() {
        let gold = item("x.jpg", truth: [])
        let scores = [
            ImageScore(item: gold, predicted: codes("E999", "E100"), milliseconds: 1),
            ImageScore(item: item("y.jpg", truth: []), predicted: codes("E999", "E200"), milliseconds: 1),
        ]
        let s = BenchSummary(system: "t", scores: scores, worst: 2)
        #expect(s.worstFalsePositives.map(\.code) == ["E999", "E100"])
        #expect(s.worstFalsePositives[0].count == 2)
        #expect(s.worstFalsePositives[0].images == ["x.jpg", "y.jpg"])
    }
}

@Suite struct GoldSetTests {
    static let sample = """
        {"file": "real/a.jpg", "truth": ["E102", "E 129"], "namesOnly": ["E120"], "conditions": ["real", "clean"], "lang": "en", "region": "EU", "source": "s", "text": "ignored", "params": {"x": 1}}

        {"file": "synth/g0001.jpg", "truth": ["E160a(ii)"], "namesOnly": ["E160a", "E330"], "conditions": ["curved"], "lang": "de", "tier": "hard"}
        {"file": "synth/g0002.jpg", "truth": [], "conditions": ["low_light", "mixed_language"], "lang": "mixed"}
        """

    @Test func parsesTruthLinesAndNormalisesCodes() throws {
        let items = try GoldSet.parse(Self.sample)
        #expect(items.count == 3)
        #expect(items[0].truth == codes("E102", "E129"))
        #expect(items[0].namesOnly == codes("E120"))
        #expect(items[0].tier == "moderate")
        // Sub-forms drop to the comparison level, and a names-only code that is also printed is printed.
        #expect(items[1].truth == codes("E160a"))
        #expect(items[1].namesOnly == codes("E330"))
        #expect(!items[1].isModerate)
        #expect(items[2].namesOnly.isEmpty)
    }

    @Test func badLinesNameTheirLineNumber() {
        #expect(throws: GoldSetError.notACode(line: 1, text: "X1")) { try GoldSet.parse("{\"file\": \"a\", \"truth\": [\"X1\"]}") }
        let e = #expect(throws: GoldSetError.self) { try GoldSet.parse("{\"file\": \"a\", \"truth\": []}\nnot json") }
        guard case .notATruthLine(line: 2, _)? = e else {
            Issue.record("expected line 2 to be refused, got \(String(describing: e))")
            return
        }
    }

    @Test func selectionFiltersAndIsDeterministic() throws {
        let items = (0..<40).map { i in
            item(String(format: "g%02d.jpg", i), truth: [], conditions: [["clean", "curved", "blur", "jpeg"][i % 4]],
                 lang: ["en", "de"][i % 2], tier: i % 5 == 0 ? "hard" : "moderate")
        }
        let curved = GoldSet.select(items, .init(conditions: ["curved"]))
        #expect(curved.count == 10 && curved.allSatisfy { $0.conditions == ["curved"] })
        #expect(GoldSet.select(items, .init(langs: ["de"])).count == 20)
        let a = GoldSet.select(items, .init(limit: 7, seed: 1)), b = GoldSet.select(items, .init(limit: 7, seed: 1))
        #expect(a == b && a.count == 7)
        #expect(a != GoldSet.select(items, .init(limit: 7, seed: 2)))
        // Kept in truth-file order.
        #expect(a.map(\.file) == a.map(\.file).sorted())
        #expect(GoldSet.select(items, .init(tier: "hard")).count == 8)
        #expect(GoldSet.select(items, .init(tier: "moderate")).allSatisfy { $0.isModerate })
        let fast = GoldSet.select(items, .init(fast: true))
        #expect(fast.count == 8)                       // two per condition
        #expect(fast.allSatisfy { $0.isModerate })
    }
}

@Suite struct BenchReportTests {
    func report() -> BenchReport {
        let gold = [
            item("synth/a.jpg", truth: codes("E102", "E129"), names: codes("E120"), conditions: ["clean"], lang: "en"),
            item("synth/b.jpg", truth: codes("E330"), conditions: ["low_light"], lang: "fr", tier: "hard"),
        ]
        let ecodex = [ImageScore(item: gold[0], predicted: codes("E102", "E129", "E120"), milliseconds: 400),
                      ImageScore(item: gold[1], predicted: codes("E330", "E999"), milliseconds: 600)]
        let base = [ImageScore(item: gold[0], predicted: codes("E102"), milliseconds: 200),
                    ImageScore(item: gold[1], predicted: [], milliseconds: 300)]
        return BenchReport(selection: "all", missing: [], ecodex: ecodex, baseline: base, systems: ["Ecodex": "x"],
                           peakMemoryMB: 123.45, startupMs: 80, environment: ["cores": "2"])
    }

    @Test func tableShowsBothSystemsGatesAndBreakdowns() {
        let t = report().markdown()
        #expect(t.contains("| Ecodex, all | 2 | 0.750 | 1.000 | 0.857 | 1.000 | 0.50 | 0.50 | 0.59 |"))
        #expect(t.contains("| Baseline, all | 2 | 1.000 | 0.333 | 0.500 | 0.000 |"))
        #expect(t.contains("| E-code F1 (clean-to-moderate) | 1.000 | ≥ 0.97 | pass |"))
        #expect(t.contains("| low_light | 1 |"))
        #expect(t.contains("| fr | 1 |"))
    }

    @Test func jsonRoundTripsAndKeepsContractFields() throws {
        let r = report()
        let data = try r.json()
        let back = try JSONDecoder().decode(BenchReport.self, from: data)
        #expect(back == r)
        let obj = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let eco = try #require(obj["ecodex"] as? [String: Any])
        #expect((eco["timeMs"] as? [String: Any])?["p95"] != nil)
        #expect(obj["peakMemoryMB"] as? Double == 123.5)
        let first = try #require((obj["results"] as? [[String: Any]])?.first)
        #expect(first["truth"] as? [String] == ["E102", "E129"])
        #expect((first["baseline"] as? [String: Any])?["predicted"] as? [String] == ["E102"])
    }

    @Test func htmlIsSelfContainedAndAccessible() {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xD9])
        let h = BenchHTML.render(report()) { _ in jpeg }
        #expect(h.hasPrefix("<!DOCTYPE html>"))
        #expect(!h.contains("<script"))
        #expect(!h.contains("src=\"http"))
        #expect(h.contains("<svg role=\"img\" aria-labelledby=\"f1-cond-t f1-cond-d\""))
        #expect(h.contains("<desc id=\"f1-cond-d\">clean: Ecodex 1.000, baseline 0.667"))
        #expect(h.contains("data:image/jpeg;base64,\(jpeg.base64EncodedString())"))
        #expect(h.contains("alt=\"Label image synth/b.jpg, where E999 was reported but not on the label"))
    }

    @Test func formattingIgnoresLocale() {
        #expect(fmt(0.97) == "0.970")
        #expect(fmt(1.23456, 2) == "1.23")
        #expect(fmt(-0.0004) == "0.000")
        #expect(fmt(12, 0) == "12")
        #expect(fmt(.nan) == "–")
    }
}

@Suite struct BaselineCodesTests {
    @Test(arguments: [
        ("Colours: E102, E 129, e330", ["E102", "E129", "E330"]),
        ("Farbstoff E150d, E 0330", ["E150d", "E330"]),
        ("E160a(ii) and E-330", ["E160a"]),           // the plain pattern has no hyphen: E-330 is missed
        ("INS 211, E1442, carmine", []),                 // no INS, no 4-digit codes, no names
        ("ENERGY 1650 KJ", []),
    ])
    func findsOnlyWhatThePlainPatternFinds(_ text: String, _ expected: [String]) {
        #expect(BaselineCodes.codes(in: text) == Set(expected.compactMap(ECode.init)))
    }
}
