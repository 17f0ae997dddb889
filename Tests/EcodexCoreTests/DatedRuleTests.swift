import Foundation
import Testing
@testable import EcodexCore

/// Time-aware region rules, citation checks and the "not yet checked" mark.
@Suite struct DatedRuleTests {
    static let cfr = Reference(label: "21 CFR 74.303", url: "https://www.ecfr.gov/current/title-21/section-74.303", provision: "§74.303")
    static let order = Reference(label: "FDA order, 90 FR 4628", url: "https://www.federalregister.gov/d/2025-00830", provision: "21 CFR 74.303")

    /// Red No. 3 in the US: allowed until its revocation takes effect.
    static var erythrosine: Additive {
        TestRecords.record("E127", "Erythrosine", rules: [
            "US": RegionRule(approved: true, conditions: "Allowed as a colour in food.", reference: cfr, effectiveUntil: "2027-01-15",
                             after: RuleSide(approved: false, conditions: "Revoked in food.", reference: order)),
        ])
    }

    /// Titanium dioxide in the EU: banned from a day, allowed before it.
    static var titanium: Additive {
        TestRecords.record("E171", "Titanium dioxide", rules: [
            "EU": RegionRule(approved: false, reference: TestRecords.ref, effectiveFrom: "2022-08-07",
                             before: RuleSide(approved: true, conditions: "Allowed as a colour.")),
        ])
    }

    static func day(_ s: String) -> CalendarDay { CalendarDay(s)! }

    @Test func aRuleIsJudgedByTheDayOfTheScanAndSaysWhatChanges() {
        let us = Preferences(region: .us)
        let now = RiskEngine.assess(Self.erythrosine, preferences: us, on: Self.day("2026-11-27"))
        #expect(now.badge == .green, "\(now.reasons)")
        #expect(now.reasons.contains("Allowed until 15 Jan 2027; then revoked."), "\(now.reasons)")
        let later = RiskEngine.assess(Self.erythrosine, preferences: us, on: Self.day("2027-02-01"))
        #expect(later.badge == .red)
        #expect(later.reasons.first == "Not allowed in food in the US.")
        #expect(!later.reasons.contains { $0.contains("until") })
        // The change day itself is the first day of the new terms.
        #expect(RiskEngine.assess(Self.erythrosine, preferences: us, on: Self.day("2027-01-15")).badge == .red)
        #expect(Self.erythrosine.rule(for: .us, on: Self.day("2027-02-01"))?.reference == Self.order)
    }

    @Test func aRuleWithAStartDayUsesTheEarlierTermsBeforeIt() {
        let eu = Preferences(region: .eu)
        let before = RiskEngine.assess(Self.titanium, preferences: eu, on: Self.day("2022-01-01"))
        #expect(before.badge == .green, "\(before.reasons)")
        #expect(before.reasons.contains("Allowed until 7 Aug 2022; then revoked."))
        let after = RiskEngine.assess(Self.titanium, preferences: eu, on: Self.day("2026-11-27"))
        #expect(after.badge == .red)
        #expect(after.reasons == ["Not allowed in food in the EU."])
    }

    @Test func aRuleNotYetCheckedIsYellowNeverRedOrGreen() {
        var a = TestRecords.titanium
        var rule = a.regionRules["EU"]!
        rule.reference = Reference(label: "Reg. (EU) 2022/63", url: "https://eur-lex.europa.eu/eli/reg/2022/63/oj", check: .unchecked)
        a.regionRules["EU"] = rule
        let v = RiskEngine.assess(a, preferences: Preferences(region: .eu), on: Self.day("2026-11-27"))
        #expect(v.badge == .yellow)
        #expect(v.reasons.contains("This rule is not yet checked against the European Commission’s own text."), "\(v.reasons)")
        #expect(v.reasons.contains("Not allowed in food in the EU."))
        var green = TestRecords.citric
        green.regionRules["US"] = RegionRule(approved: true, reference: Reference(label: "21 CFR 184.1033", url: "https://www.ecfr.gov/", check: .unchecked))
        let g = RiskEngine.assess(green, preferences: Preferences(region: .us), on: Self.day("2026-11-27"))
        #expect(g.badge == .yellow)
        #expect(g.reasons == ["This rule is not yet checked against the FDA’s own text.", "Allowed in the US with no warning required."])
        // Checked, or silent about checks (a pack that does not record them): judged as before.
        rule.reference?.check = .checked("2026-11-20")
        a.regionRules["EU"] = rule
        #expect(RiskEngine.assess(a, preferences: Preferences(region: .eu), on: Self.day("2026-11-27")).badge == .red)
        rule.reference?.check = nil
        a.regionRules["EU"] = rule
        #expect(RiskEngine.assess(a, preferences: Preferences(region: .eu), on: Self.day("2026-11-27")).badge == .red)
    }

    @Test func checkedKeepsNullApartFromMissing() throws {
        func decode(_ json: String) throws -> Reference {
            try JSONValueDecoder().decode(Reference.self, from: JSONValue.parse(Array(json.utf8)))
        }
        #expect(try decode(#"{"label": "a", "url": "https://x"}"#).check == nil)
        #expect(try decode(#"{"label": "a", "url": "https://x", "checked": null}"#).check == .unchecked)
        let dated = try decode(#"{"label": "a", "url": "https://x", "provision": "§1", "checked": "2026-11-20"}"#)
        #expect(dated.check == .checked("2026-11-20"))
        #expect(dated.provision == "§1")
        let unchecked = Reference(label: "a", url: "https://x", check: .unchecked)
        let bytes = try JSONEncoder().encode(unchecked)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""checked":null"#))
        #expect(try JSONValueDecoder().decode(Reference.self, from: JSONValue.parse(Array(bytes))) == unchecked)
        #expect(!String(decoding: try JSONEncoder().encode(Reference(label: "a", url: "https://x")), as: UTF8.self).contains("checked"))
    }

    @Test func calendarDaysParseStrictlyAndTodayUsesTheInjectedClock() {
        #expect(CalendarDay("2024-02-29")?.spoken == "29 Feb 2024")
        for bad in ["2023-02-29", "2027-1-15", "2027-13-01", "2027-01-32", "15 Jan 2027", "2027-01-15T00:00", ""] {
            #expect(CalendarDay(bad) == nil, "\(bad)")
        }
        #expect(Self.day("2022-08-07") < Self.day("2027-01-15"))
        let noonUTC = Date(timeIntervalSince1970: 1_795_780_800)  // 2026-11-27 12:00 UTC
        #expect(CalendarDay.today(now: noonUTC, timeZone: TimeZone(identifier: "UTC")!).description == "2026-11-27")
    }

    @Test func citationsMustNameTheProvisionOnTheRegulatorsOwnText() {
        #expect(RuleProvenance.citationProblems(Self.cfr).isEmpty)
        #expect(RuleProvenance.citationProblems(nil).count == 1)
        let index = Reference(label: "FSSAI regulations", url: "https://www.fssai.gov.in/cms/food-safety-and-standards-regulations.php",
                              provision: "Appendix A, Table 11")
        #expect(RuleProvenance.citationProblems(index).first?.contains("index page") == true)
        let noProvision = Reference(label: "21 CFR 74.303", url: "https://www.ecfr.gov/current/title-21/section-74.303")
        #expect(RuleProvenance.citationProblems(noProvision).first?.hasPrefix("needs a provision") == true)
        let plainHTTP = Reference(label: "FSANZ", url: "http://www.foodstandards.gov.au/x", provision: "S15-5")
        #expect(RuleProvenance.citationProblems(plainHTTP) == ["needs an https URL to the regulator's own text"])
        var badDay = Self.cfr
        badDay.check = .checked("yesterday")
        #expect(RuleProvenance.citationProblems(badDay).count == 1)
    }

    @Test func aCitationAddsTheProvisionUnlessTheLabelHoldsIt() {
        #expect(Self.cfr.citation == "21 CFR 74.303, §74.303")
        #expect(Reference(label: "21 CFR 74.303", url: "https://x", provision: "74.303").citation == "21 CFR 74.303")
        #expect(TestRecords.ref.citation == TestRecords.ref.label)
    }

    @Test func provenanceIssuesCoverConditionsAndTheOtherSide() {
        var a = Self.erythrosine
        a.regionRules["EU"] = RegionRule(approved: true, conditions: String(repeating: "word ", count: 19), reference: Self.cfr)
        a.regionRules["US"]?.after?.reference = Reference(label: "FDA", url: "https://www.fda.gov/food/food-additives-petitions/food-additive-status-list/")
        let pack = Pack(version: "1.0.0", dataVersion: "x", regions: [.eu, .us], additives: [a])
        let issues = RuleProvenance.issues(pack).map(\.description)
        #expect(issues.contains("E127 region_rules.EU.conditions: has 19 words; at most 18"), "\(issues)")
        #expect(issues.contains { $0.hasPrefix("E127 region_rules.US.after.reference: needs a provision") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("E127 region_rules.US.after.reference: cites an index page") }, "\(issues)")
        #expect(!issues.contains { $0.hasPrefix("E127 region_rules.US.reference") })
        let counts = RuleProvenance.counts(pack)
        #expect(counts.first { $0.region == .eu } == RuleProvenance.RegionCount(region: .eu, rules: 1, uncited: 0, unreadable: 1, checked: 0, unchecked: 1))
    }

    @Test func aQuotedLabelStatementIsNotCountedInTheConditionsCheck() {
        let india = "A synthetic colour India allows. The label must say: \u{201C}Contains permitted synthetic food colour(s)\u{201D}."
        #expect(RuleProvenance.conditionProblems(india).isEmpty, "\(RuleProvenance.conditionProblems(india))")
        // Our own words around the quote are still held to the check.
        let long = String(repeating: "word ", count: 19) + "\u{201C}Contains permitted natural colour(s)\u{201D}."
        #expect(RuleProvenance.conditionProblems(long) == ["has 19 words; at most 18"])
        let hard = "Authorised internationally. \u{201C}Contains permitted natural colour(s)\u{201D}."
        #expect(RuleProvenance.conditionProblems(hard).count == 1)
        // An unclosed quote hides nothing.
        let unclosed = "The label must say: \u{201C}" + String(repeating: "word ", count: 19)
        #expect(RuleProvenance.conditionProblems(unclosed).first?.hasPrefix("has 2") == true)
    }

    @Test func datesAreValidatedWithTheContentRules() {
        var a = Self.erythrosine
        a.regionRules["EU"] = RegionRule(approved: true, effectiveUntil: "15 Jan 2027", after: RuleSide(approved: false))
        a.regionRules["UK"] = RegionRule(approved: true, before: RuleSide(approved: false))
        a.regionRules["CA"] = RegionRule(approved: true, effectiveFrom: "2027-01-15", effectiveUntil: "2026-01-01")
        let issues = PackSource.validate(Pack(version: "1.0.0", dataVersion: "x", regions: [.eu], additives: [a])).map(\.description)
        #expect(issues.contains("E127 region_rules.EU.effective_until: \"15 Jan 2027\" is not a date (YYYY-MM-DD)"), "\(issues)")
        #expect(issues.contains("E127 region_rules.UK.before: needs effective_from, the day the rule takes over"), "\(issues)")
        #expect(issues.contains("E127 region_rules.CA.effective_until: comes before effective_from"), "\(issues)")
        #expect(!issues.contains { $0.contains("region_rules.US") }, "\(issues)")
    }
}
