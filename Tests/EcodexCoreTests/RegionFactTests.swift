import Foundation
import Testing
@testable import EcodexCore

/// Well-known regional facts, at least five per region, checked against the base pack
/// that ships with `scan` (the data the store is built from). Each names its source.
@Suite struct RegionFactTests {
    func rule(_ code: String, _ region: Region) -> RegionRule? { BasePackTests.byCode[code]?.rule(for: region) }

    // MARK: EU

    @Test func euFacts() {
        // Reg. (EU) 2022/63: titanium dioxide removed from the Union list.
        #expect(rule("E171", .eu)?.approved == false)
        // Reg. (EU) No 1129/2011 (which repealed the 2007 suspension): Red 2G is not on the Union list.
        #expect(rule("E128", .eu)?.approved == false)
        #expect(rule("E128", .eu)?.reference?.url.hasSuffix("/reg/2011/1129/oj") == true)
        // Reg. (EC) No 1333/2008, Annex V: the Southampton colours' statement.
        #expect(rule("E129", .eu)?.statement(naming: "Allura red AC") == "Allura red AC: may have an adverse effect on activity and attention in children")
        // Reg. (EU) No 1169/2011, Annex III 2.3: aspartame's phenylalanine statement, with the E number only.
        #expect(rule("E951", .eu)?.statement == "contains aspartame (a source of phenylalanine)")
        // Reg. (EC) No 1333/2008, Annex II: cyclamates and erythrosine are listed.
        #expect(rule("E952", .eu)?.approved == true)
        #expect(rule("E127", .eu)?.approved == true)
    }

    /// Codes the EU list leaves out, removed, or does not cover, and codes it lists under another number.
    @Test func euCodesOffTheListOrOutsideIt() {
        // Reg. (EC) No 1333/2008, Art. 3(2)(a)(vii): ammonium chloride is not a food additive.
        #expect(rule("E510", .eu)?.approved == true)
        #expect(rule("E510", .eu)?.reference?.provision == "Art. 3(2)(a)(vii)")
        #expect(rule("E510", .uk) == nil)
        // Art. 2(2)(a): enzymes used only to make food are processing aids, outside the additive list.
        for code in ["E1100", "E1104"] {
            #expect(rule(code, .eu)?.reference?.provision?.hasPrefix("Art. 2(2)(a)") == true, "\(code)")
            #expect(rule(code, .eu)?.limitedUse != nil, "\(code)")
        }
        // Annex II, Part B has no E 225, and E 556 was authorised only until 31 January 2014.
        #expect(rule("E225", .eu)?.approved == false)
        #expect(rule("E556", .eu)?.approved == false)
        #expect(rule("E556", .eu)?.reference?.url.hasSuffix("/reg/2012/380/oj") == true)
        // Listed under another number: INS 900a is the EU's E 900.
        #expect(rule("E900a", .eu)?.approved == true)
        // Annex II, Part E, category 11.4.3 is the only use of L-leucine (Reg. (EU) 2015/649).
        #expect(rule("E641", .eu)?.limitedUse != nil)
        #expect(rule("E641", .eu)?.reference?.provision?.hasPrefix("Annex II, Part E, category 11.4.3") == true)
        // GB: the FSA register has no E 225 row, and E 559 is revoked.
        #expect(rule("E225", .uk)?.approved == false)
        #expect(rule("E225", .uk)?.reference?.check == .checked("2026-11-28"))
        #expect(rule("E559", .uk)?.reference?.check == .checked("2026-11-28"))
        // INS 317 is potassium erythorbate: erythorbic acid is E 315, allowed, and keeps its name.
        #expect(BasePackTests.byCode["E317"]?.names["en"] == ["Potassium erythorbate"])
        #expect(BasePackTests.byCode["E315"]?.names["en"]?.contains("Erythorbic acid") == true)
        // Every code with a label frequency in the taxonomy has an EU rule.
        let seen = BasePackTests.byCode.values.filter { $0.labelFrequency > 0 && $0.rule(for: .eu) == nil }
        #expect(seen.map(\.code.description).sorted() == [])
    }

    // MARK: US

    @Test func usFacts() {
        // FDA order of 15 January 2025 revoking erythrosine (FD&C Red No. 3) in food, effective 15 Jan 2027.
        let e127 = BasePackTests.byCode["E127"]
        #expect(e127?.rule(for: .us, on: CalendarDay("2027-01-14")!)?.approved == true)
        #expect(e127?.rule(for: .us, on: CalendarDay("2027-01-15")!)?.approved == false)
        // 21 CFR Part 81: FD&C Red No. 2 (amaranth) delisted in 1976; Canada still permits it.
        #expect(rule("E123", .us)?.approved == false)
        #expect(rule("E123", .ca)?.approved == true)
        // 21 CFR 73.575: titanium dioxide is a listed colour for food.
        #expect(rule("E171", .us)?.approved == true)
        // 21 CFR 74.705: tartrazine is FD&C Yellow No. 5 on US labels.
        #expect(BasePackTests.byCode["E102"]?.displayName(in: .us) == "FD&C Yellow No. 5")
        // 21 CFR 182.1087: sodium acid pyrophosphate (E450) is listed.
        #expect(rule("E450", .us)?.reference?.url.hasSuffix("section-182.1087") == true)
        // 21 CFR 101.100(a)(4): sulfiting agents at 10 ppm or more are declared.
        #expect(rule("E223", .us)?.warningRequired == true)
    }

    @Test func usCardsCiteTheUSRuleFirst() throws {
        let pipeline = try ScanPipeline(catalog: InMemoryCatalog(BasePackTests.pack.additives))
        let report = try pipeline.scan(.code("E102"), options: ScanOptions(preferences: Preferences(region: .us)))
        #expect(report.additives.first?.references.first?.url.contains("ecfr.gov") == true)
    }

    // MARK: UK

    @Test func ukFacts() {
        // Retained Reg. (EC) No 1333/2008: GB did not follow the EU's 2022 ban on E171.
        #expect(rule("E171", .uk)?.approved == true)
        // Retained Reg. (EC) No 1333/2008, Annex V: the Southampton statement stays in GB.
        #expect(rule("E102", .uk)?.warningRequired == true)
        // Propylparaben left the EU list in 2006, before GB law split from it.
        #expect(rule("E216", .uk)?.approved == false)
        // Retained Reg. (EU) No 1169/2011, Annex III: aspartame statement.
        #expect(rule("E951", .uk)?.warningRequired == true)
        // Retained Annex II: sodium bicarbonate is authorised under E500.
        #expect(rule("E500(ii)", .uk)?.approved == true)
    }

    // MARK: Canada

    @Test func canadaFacts() {
        // CFIA food colours table: Canada's names for E129 and E110 are shown first.
        #expect(BasePackTests.byCode["E129"]?.displayName(in: .ca) == "Allura Red")
        #expect(BasePackTests.byCode["E110"]?.displayName(in: .ca) == "Sunset Yellow FCF")
        // Food and Drug Regulations B.01.014: phenylalanine statement for aspartame.
        #expect(rule("E951", .ca)?.warningRequired == true)
        #expect(rule("E951", .ca)?.conditions?.contains("phenylalanine") == true)
        // Health Canada, List of Permitted Colouring Agents: quinoline yellow is not on it.
        #expect(rule("E104", .ca)?.approved == false)
        // Health Canada, MSG questions and answers: MSG is an ingredient, declared by name.
        #expect(rule("E621", .ca)?.approved == true)
        // Health Canada, dough conditioning agents list: potassium bromate is not on it.
        #expect(rule("E924", .ca)?.approved == false)
        // List of Permitted Preservatives, Part 2: benzoic acid and its potassium salt since May 2020.
        #expect(rule("E212", .ca)?.approved == true)
    }

    // MARK: Australia and New Zealand

    @Test func australiaNewZealandFacts() {
        // Standard 1.2.4: additives are declared by class name and code number.
        #expect(rule("E102", .au)?.name == "Colour (102)")
        #expect(BasePackTests.byCode["E102"]?.displayName(in: .au) == "Colour (102) · Tartrazine")
        // Standard 1.2.3 / Schedule 9: phenylalanine advisory statement for aspartame.
        #expect(rule("E951", .au)?.warningRequired == true)
        #expect(rule("E951", .au)?.conditions?.contains("phenylalanine") == true)
        // Schedule 9: polyols need a laxative-effect statement.
        #expect(rule("E420", .au)?.warningRequired == true)
        // Schedule 15 (S15—5): erythrosine (127) only in preserved cherries.
        #expect(rule("E127", .au)?.approved == true)
        #expect(rule("E127", .au)?.conditions?.contains("cocktail cherries") == true)
        // Schedule 16 lists 14 synthetic colours; Red 2G (128) is not one.
        #expect(rule("E128", .au)?.approved == false)
        // No permission for potassium bromate in Schedules 15 or 18.
        #expect(rule("E924", .au)?.approved == false)
    }

    // MARK: India

    @Test func indiaFacts() {
        // FSS (Labelling and Display) Regulations 2020: added synthetic colours are declared. A
        // declaration, not a warning: it is in the conditions and does not make the badge red.
        #expect(rule("E102", .india)?.warningRequired == false)
        #expect(rule("E102", .india)?.conditions?.contains("Contains permitted synthetic food colour(s)") == true)
        #expect(rule("E100", .india)?.conditions?.contains("Contains permitted natural colour(s)") == true)
        // FSS (Food Products Standards and Food Additives) Regulations 2011, 3.1.2: eight synthetic colours only.
        #expect(rule("E104", .india)?.approved == false)
        #expect(rule("E127", .india)?.approved == true)
        // Cyclamate is not among India's permitted artificial sweeteners.
        #expect(rule("E952", .india)?.approved == false)
        // FSSAI removed potassium bromate from the permitted list in 2016.
        #expect(rule("E924", .india)?.approved == false)
        // Labels show the class title with the INS number.
        #expect(rule("E330", .india)?.name == "Acidity regulator (330)")
    }

    // MARK: every region

    @Test func everyRuleHasItsOwnReference() {
        for a in BasePackTests.pack.additives {
            for (region, r) in a.regionRules {
                #expect(r.reference != nil, "\(a.code) \(region)")
            }
        }
    }

    @Test func rulesAreWrittenForShoppers() throws {
        let research = try Regex(#"our research|not (re-)?verified|recalled|\[name|secondary source|from memory"#).ignoresCase()
        for a in BasePackTests.pack.additives {
            for (region, r) in a.regionRules {
                for text in [r.conditions, r.statement(naming: a.displayName(in: Region(rawValue: region)!))].compactMap({ $0 }) {
                    #expect(text.firstMatch(of: research) == nil, "\(a.code) \(region): \(text)")
                }
            }
            for ref in a.references { #expect(!ref.label.contains("Secondary source"), "\(a.code)") }
        }
    }

    @Test func labelMentionsHaveARuleInEveryRegion() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ingredient-texts.jsonl")
        let texts = RuleCoverage.texts(jsonLines: try String(contentsOf: url, encoding: .utf8))
        #expect(texts.count == 307)
        let coverage = RuleCoverage(pack: BasePackTests.pack, texts: texts)
        for r in coverage.regions {
            #expect(r.share >= 0.98, "\(r.region): \(r.share)")
        }
    }
}
