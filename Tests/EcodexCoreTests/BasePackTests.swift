import Foundation
import Testing
@testable import EcodexCore

/// Facts and properties checked against the base pack that ships with `scan`.
@Suite struct BasePackTests {
    static let pack: Pack = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/EcodexStore/Resources/base-pack.json")
        return try! JSONDecoder().decode(Pack.self, from: Data(contentsOf: url))
    }()
    static let byCode = Dictionary(uniqueKeysWithValues: pack.additives.map { ($0.code.description, $0) })

    func rule(_ code: String, _ region: Region) -> RegionRule? { Self.byCode[code]?.rule(for: region) }

    // MARK: well-known regional facts

    @Test func titaniumDioxideIsOutOfTheEUButAllowedInTheUS() {
        #expect(rule("E171", .eu)?.approved == false)
        #expect(rule("E171", .us)?.approved == true)
    }

    @Test(arguments: ["E102", "E104", "E110", "E122", "E124", "E129"])
    func southamptonColoursCarryTheChildrenStatementInEUAndUKOnly(_ code: String) {
        for region in [Region.eu, .uk] {
            #expect(rule(code, region)?.warningRequired == true, "\(code) \(region)")
            #expect(rule(code, region)?.statement?.contains("activity and attention in children") == true)
        }
        // Elsewhere no children statement; India's required statement is its added-colour declaration.
        for region in [Region.us, .ca, .au, .india] {
            #expect(rule(code, region)?.statement?.contains("children") != true, "\(code) \(region)")
        }
        for region in [Region.us, .ca, .au] {
            #expect(rule(code, region)?.warningRequired != true, "\(code) \(region)")
        }
    }

    @Test func erythrosineIsNoLongerAllowedInUSFoodAfterThe2025Revocation() {
        #expect(rule("E127", .us)?.effectiveUntil == "2027-01-15")
        #expect(Self.byCode["E127"]?.rule(for: .us, on: CalendarDay("2027-02-01")!)?.approved == false)
        #expect(rule("E127", .eu)?.approved == true)
    }

    @Test func potassiumBromateIsApprovedOnlyInTheUS() {
        #expect(rule("E924", .us)?.approved == true)
        for region in Region.allCases where region != .us {
            #expect(rule("E924", region)?.approved != true, "\(region)")
        }
    }

    @Test func magnesiumStearateIsAnAntiCakingAgentThatTheEUListsUnderE470b() {
        // The taxonomy called it an acidity regulator and gave it calcium stearate's Spanish name.
        let a = Self.byCode["E572"]
        #expect(a?.classes.first == "anti-caking agent")
        #expect(a?.classes.contains("acidity regulator") == false)
        #expect(a?.names["es"]?.contains { $0.lowercased().contains("calcio") } != true)
        #expect(a?.plainRisk.summary.contains("E470b") == true)
        #expect(rule("E572", .eu)?.conditions?.contains("E 470b") == true)
    }

    /// The generator decides which nutrient-salt names are full chemical names (and so count
    /// without a class word) with the parser's own stems, copied into `import_off.py`: the two
    /// lists must stay the same, or the data and the parser disagree on what a salt is.
    @Test func theGeneratorKnowsASaltByTheParsersStems() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("packs/tools/import_off.py"), encoding: .utf8)
        func list(_ name: String) -> [String] {
            guard let start = script.range(of: name + " = ["), let end = script[start.upperBound...].firstIndex(of: "]") else { return [] }
            return script[start.upperBound..<end].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }.filter { !$0.isEmpty }
        }
        func strings(_ stems: [[UInt32]]) -> [String] {
            stems.map { String(String.UnicodeScalarView($0.compactMap(Unicode.Scalar.init))) }
        }
        #expect(list("SALT_CATIONS") == strings(NutrientSalts.cationStems))
        #expect(list("SALT_ANIONS") == strings(NutrientSalts.anionStems))
        #expect(!list("SALT_CATIONS").isEmpty)
    }

    @Test func cyclamateIsNotApprovedInTheUS() {
        #expect(rule("E952", .us)?.approved == false)
        #expect(rule("E952", .eu)?.approved == true)
    }

    @Test func aspartameNeedsItsPhenylalanineStatementWhereverOneIsRequired() {
        for region in Region.allCases {
            guard let r = rule("E951", region), r.warningRequired else { continue }
            if let statement = r.statement {
                #expect(statement.lowercased().contains("phenylalanine"), "\(region): \(statement)")
            }
        }
        #expect(rule("E951", .eu)?.statement == "contains aspartame (a source of phenylalanine)")
        #expect(Self.byCode["E951"]?.population.contains("pku") == true)
    }

    // MARK: properties over every record and region

    /// A required warning is red once its rule is checked against the regulator's text; before
    /// that it is yellow and says so (the shipped pack records its checks: `rules_checked`).
    @Test func everyRegulatoryWarningIsRedOnceChecked() {
        var checked = 0, unchecked = 0
        for a in Self.pack.additives {
            for region in Region.allCases where a.rule(for: region)?.warningRequired == true {
                let verdict = RiskEngine.assess(a, preferences: Preferences(region: region))
                switch a.rule(for: region)?.reference?.check {
                case .checked?:
                    checked += 1
                    #expect(verdict.badge == .red, "\(a.code) \(region)")
                case .unchecked?:
                    unchecked += 1
                    #expect(verdict.badge == .yellow && verdict.reasons.contains(RiskEngine.uncheckedLine(region)), "\(a.code) \(region)")
                case nil:
                    Issue.record("\(a.code) \(region): the shipped pack records every rule as checked or not")
                }
            }
        }
        #expect(checked > unchecked, "checked \(checked), unchecked \(unchecked)")
    }

    /// A rule not yet checked is never a confident green or red, and says so; a checked one does not.
    @Test func aRuleNotYetCheckedIsYellowAndSaysSo() throws {
        // Citric acid in Canada, read in no Health Canada text we could reach yet; in the EU, checked.
        let citric = try #require(Self.byCode["E330"])
        try #require(citric.rule(for: .ca)?.reference?.check == .unchecked)
        let ca = RiskEngine.assess(citric, preferences: Preferences(region: .ca))
        #expect(ca.badge == .yellow)
        #expect(ca.reasons.contains("This rule is not yet checked against Health Canada’s own text."), "\(ca.reasons)")
        let eu = RiskEngine.assess(citric, preferences: Preferences(region: .eu))
        #expect(eu.badge == .green && !eu.reasons.contains(RiskEngine.uncheckedLine(.eu)), "\(eu.reasons)")
    }

    /// A card's "Why" names the text that makes the rule: the colour-warning annex only where a
    /// warning is required, a regulation about one additive only for that additive.
    @Test func everyRuleCitesTheTextThatMakesIt() {
        for a in Self.pack.additives {
            for region in Region.allCases {
                guard let label = a.rule(for: region)?.reference?.label else { continue }
                if label.contains("Annex V") {
                    #expect(a.rule(for: region)?.warningRequired == true, "\(a.code) \(region): \(label)")
                }
                if label.contains("(titanium dioxide, E 171)") {
                    #expect(a.code.withoutSubForm.description == "E171", "\(a.code) \(region): \(label)")
                }
            }
        }
        #expect(rule("E123", .eu)?.reference?.label.contains("Annex II") == true)
        #expect(rule("E173", .eu)?.reference?.label.contains("Annex II") == true)
    }

    @Test func aCardSaysWhenTheRegionAllowsItOnlyInSomeFoods() {
        let amaranth = RiskEngine.assess(Self.byCode["E123"]!, preferences: Preferences(region: .eu))
        #expect(amaranth.badge == .green)
        #expect(amaranth.reasons == ["Allowed in the EU with no warning required.",
                                     "Allowed only in fish roe and some drinks with alcohol. Not sold straight to shoppers."])
        let uk = RiskEngine.assess(Self.byCode["E239"]!, preferences: Preferences(region: .uk))
        #expect(uk.reasons.last == "As in the EU: allowed only in one kind of cheese, Provolone.")
        // A rule with no limit of use keeps its one line.
        #expect(RiskEngine.assess(Self.byCode["E330"]!, preferences: Preferences(region: .eu)).reasons.count == 1)
    }

    /// The conditions a card shows are sentences of at most 18 words, worded for shoppers.
    @Test func limitsOfUseOnCardsArePlainSentences() {
        var shown = 0
        for a in Self.pack.additives {
            for region in Region.allCases {
                guard let use = a.rule(for: region)?.limitedUse else { continue }
                shown += 1
                for sentence in use.split(separator: ".") where !sentence.trimmingCharacters(in: .whitespaces).isEmpty {
                    #expect(Readability.wordCount(String(sentence)) <= 18, "\(a.code) \(region): \(sentence)")
                }
                #expect(!use.hasPrefix("Restricted"), "\(a.code) \(region): \(use)")
            }
        }
        #expect(shown >= 60)
    }

    @Test func everyDietConflictIsAtLeastYellow() {
        for a in Self.pack.additives {
            for diet in Diet.allCases where [.no, .depends].contains(a.dietary.status(for: diet)) {
                for region in Region.allCases {
                    #expect(RiskEngine.assess(a, preferences: Preferences(region: region, diets: [diet])).badge >= .yellow)
                }
            }
        }
    }

    @Test func noCardSaysSafeOrUnsafeOrGivesDoses() throws {
        let banned = try Regex(#"\b(safe|unsafe|safely)\b|\b\d+\s?(mg|g)/(kg|day)\b|\bmg per\b"#).ignoresCase()
        let prefs = Preferences(region: .eu, diets: [.vegan], sensitivities: Set(Sensitivity.allCases), childMode: true)
        let catalog = InMemoryCatalog(Self.pack.additives)
        let pipeline = try ScanPipeline(catalog: catalog)
        for a in Self.pack.additives {
            let report = try pipeline.scan(.code(a.code.description), options: ScanOptions(preferences: prefs, compareRegions: Region.allCases))
            // The cards a shopper reads, without reference URLs (a URL is not a sentence).
            for text in [TextRenderer().render(report), HTMLRenderer.render([report])] {
                let words = text.replacing(try Regex(#"<https?://[^>]*>|href="[^"]*""#), with: "")
                let hit = words.firstMatch(of: banned).map { String(words[$0.range]) }
                #expect(hit == nil, "\(a.code): \(hit ?? "")")
            }
        }
    }
}
