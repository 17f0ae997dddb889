import Testing
@testable import EcodexCore

/// The precedence table of RiskEngine, one row per rule.
@Suite struct RiskEngineTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let additive: Additive
        let prefs: Preferences
        let badge: Badge
        let firstReason: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "EU warning is red", additive: TestRecords.tartrazine, prefs: Preferences(region: .eu), badge: .red, firstReason: "EU law requires a warning"),
        Row(name: "US without warning: children caution is yellow", additive: TestRecords.tartrazine, prefs: Preferences(region: .us), badge: .yellow, firstReason: "Caution for children"),
        Row(name: "child mode turns children caution red", additive: TestRecords.tartrazine, prefs: Preferences(region: .us, childMode: true), badge: .red, firstReason: "You asked to watch for children"),
        Row(name: "not approved is red", additive: TestRecords.titanium, prefs: Preferences(region: .eu), badge: .red, firstReason: "Not allowed in food in the EU"),
        Row(name: "limited evidence is yellow", additive: TestRecords.titanium, prefs: Preferences(region: .us), badge: .yellow, firstReason: "Evidence about it is limited"),
        Row(name: "PKU sensitivity is red", additive: TestRecords.aspartame, prefs: Preferences(region: .us, sensitivities: [.pku]), badge: .red, firstReason: "US law requires a warning"),
        Row(name: "vegan conflict is yellow", additive: TestRecords.carmine, prefs: Preferences(region: .us, diets: [.vegan]), badge: .yellow, firstReason: "Not vegan"),
        Row(name: "strict vegan conflict is red", additive: TestRecords.carmine, prefs: Preferences(region: .us, diets: [.vegan], strictDiet: true), badge: .red, firstReason: "Not vegan"),
        Row(name: "depends on source is yellow", additive: TestRecords.carmine, prefs: Preferences(region: .eu, diets: [.halal]), badge: .yellow, firstReason: "May not be halal"),
        Row(name: "approved, no warning is green", additive: TestRecords.citric, prefs: Preferences(region: .eu, diets: [.vegan]), badge: .green, firstReason: "Allowed in the EU"),
        Row(name: "no rule for region is yellow", additive: TestRecords.citric, prefs: Preferences(region: .india), badge: .yellow, firstReason: "No rules for India"),
    ]

    @Test(arguments: rows)
    func precedence(_ row: Row) {
        let v = RiskEngine.assess(row.additive, preferences: row.prefs)
        #expect(v.badge == row.badge)
        #expect(v.reasons.first?.hasPrefix(row.firstReason) == true, "reasons: \(v.reasons)")
    }

    @Test func consensusConcernIsYellow() {
        var a = TestRecords.citric
        a.evidenceLevel = .consensus
        #expect(RiskEngine.assess(a, preferences: Preferences()).badge == .green)
        a.concern = "An expert panel lowered its intake limit in 2021."
        #expect(RiskEngine.assess(a, preferences: Preferences()).badge == .yellow)
    }

    @Test func aLimitOfUseFollowsTheRegionsVerdict() {
        var a = TestRecords.citric
        a.regionRules["EU"] = RegionRule(approved: true, conditions: "Allowed only in fish roe.")
        #expect(RiskEngine.assess(a, preferences: Preferences(region: .eu)).reasons
                == ["Allowed in the EU with no warning required.", "Allowed only in fish roe."])
        // Not allowed: the limit does not apply, and the card does not repeat it.
        a.regionRules["EU"] = RegionRule(approved: false, conditions: "Allowed only in fish roe until 2020.")
        #expect(RiskEngine.assess(a, preferences: Preferences(region: .eu)).reasons == ["Not allowed in food in the EU."])
        // The word in any case, not inside another word.
        #expect(RegionRule.hasWordOnly("Only on cheese rind."))
        #expect(!RegionRule.hasWordOnly("Commonly used; onlyx."))
        // Conditions that do not limit use stay in `scan code --compare`.
        a.regionRules["EU"] = RegionRule(approved: true, conditions: "Allowed as a colour. No warning is required.")
        #expect(RiskEngine.assess(a, preferences: Preferences(region: .eu)).reasons.count == 1)
    }

    @Test func sensitivitiesMatchTheirCautionOnly() {
        let v = RiskEngine.assess(TestRecords.aspartame, preferences: Preferences(region: .eu, sensitivities: [.sulphites]))
        #expect(v.reasons.contains { $0.hasPrefix("Caution for people with PKU") })
    }
}

@Suite struct StatementTests {
    @Test func colourPlaceholderTakesTheName() {
        let rule = RegionRule(approved: true, warningRequired: true,
                              statement: "[name or E number of colour]: may have an adverse effect on activity and attention in children")
        #expect(rule.statement(naming: "Tartrazine") == "Tartrazine: may have an adverse effect on activity and attention in children")
        #expect(RegionRule(approved: true, statement: "contains a source of phenylalanine").statement(naming: "Aspartame")
                == "contains a source of phenylalanine")
    }
}
