import Foundation
import Testing

/// Dated rules through the built `scan`: the day of the scan (`--as-of`, else today) picks the
/// terms in force, and the card says what changes and when. Provenance checks in `scan pack validate`.
@Suite struct DatedRuleCommandTests {
    let scan = ScanBinary()

    func card(_ code: String, _ region: String, asOf: String?) throws -> (badge: String?, reasons: [String]) {
        let run = try scan.run(["code", code, "--region", region, "--format", "json"] + (asOf.map { ["--as-of", $0] } ?? []))
        #expect(run.status == 0, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        let a = try #require(r.additives.first { $0["code"] as? String == code })
        return (a["badge"] as? String, a["reasons"] as? [String] ?? [])
    }

    @Test func redNo3InTheUSIsAllowedUntilItsRevocationTakesEffect() throws {
        let before = try card("E127", "US", asOf: "2026-11-27")
        #expect(before.badge != "red", "\(before)")
        #expect(before.reasons.contains("Allowed until 15 Jan 2027; then revoked."), "\(before.reasons)")
        let after = try card("E127", "US", asOf: "2027-02-01")
        #expect(after.badge == "red")
        #expect(after.reasons.contains("Not allowed in food in the US."), "\(after.reasons)")
        // Without --as-of the scan is judged by today's date.
        let today = try card("E127", "US", asOf: nil)
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let revoked = formatter.string(from: Date()) >= "2027-01-15"
        #expect(today.reasons.contains("Not allowed in food in the US.") == revoked, "\(today.reasons)")
    }

    @Test func titaniumDioxideInTheEUBeforeAndAfterTheBan() throws {
        let before = try card("E171", "EU", asOf: "2022-01-01")
        #expect(!before.reasons.contains("Not allowed in food in the EU."), "\(before.reasons)")
        #expect(before.reasons.contains("Allowed until 7 Aug 2022; then revoked."), "\(before.reasons)")
        let after = try card("E171", "EU", asOf: "2026-11-27")
        #expect(after.reasons.contains("Not allowed in food in the EU."))
        // Its transition dates are not yet read in the Commission's own text: not yet a confident red.
        #expect(after.badge == "yellow" && after.reasons.contains("This rule is not yet checked against the European Commission’s own text."),
                "\(after.badge) \(after.reasons)")
    }

    @Test func brominatedVegetableOilBeforeAndAfterItsRevocation() throws {
        #expect(try card("E443", "US", asOf: "2024-08-01").reasons.contains("Allowed until 2 Aug 2024; then revoked."))
        #expect(try card("E443", "US", asOf: "2024-08-02").badge == "red")
        #expect(try card("E443", "CA", asOf: "2024-08-29").reasons.contains("Allowed until 30 Aug 2024; then revoked."))
        #expect(try card("E443", "CA", asOf: "2024-08-30").badge == "red")
    }

    @Test func theFullRecordTableShowsTheTermsOfTheDay() throws {
        let run = try scan.run(["code", "E127", "--region", "US", "--as-of", "2026-11-27"])
        #expect(run.status == 0, "\(run.stderr)")
        let usRow = run.stdout.split(separator: "\n").first { $0.hasPrefix("US ") }
        #expect(usRow?.contains("yes") == true, "\(run.stdout)")
        // The card's "Why" line names the provision.
        #expect(run.stdout.contains("Why: 21 CFR 74.303 (FD&C Red No. 3), §74.303"), "\(run.stdout)")
    }

    @Test func aDateThatIsNotADayIsAUsageError() throws {
        let run = try scan.run(["code", "E127", "--as-of", "2027-02-30"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("is not a date"), "\(run.stderr)")
    }

    /// A one-record pack source in a fresh folder; `reference` is the EU rule's reference JSON.
    func packSource(reference: String, conditions: String = "Allowed as a colour.") throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-provenance-\(UUID().uuidString)")
        let additives = root.appendingPathComponent("additives")
        try FileManager.default.createDirectory(at: additives, withIntermediateDirectories: true)
        try Data(#"{"version": "1.0.0", "data_version": "test", "regions": ["EU"]}"#.utf8).write(to: root.appendingPathComponent("pack.json"))
        let record = """
        {"code": "E100", "names": {"en": ["Curcumin"]}, "class": ["colour"],
         "region_rules": {"EU": {"approved": true, "warning_required": false, "conditions": "\(conditions)", "reference": \(reference)}},
         "evidence_level": "Regulatory", "plain_risk": {"summary": "A yellow dye made from a root.", "audience": []},
         "references": [{"label": "EFSA", "url": "https://www.efsa.europa.eu/"}], "updated_at": "2026-11-27"}
        """
        try Data(record.utf8).write(to: additives.appendingPathComponent("E100.json"))
        return root
    }

    @Test func validateRefusesARuleWithoutAProvisionLevelCitation() throws {
        let texts = ScanBinary.path("Tests/EcodexCoreTests/Fixtures/ingredient-texts.jsonl")
        let cited = try packSource(reference: #"{"label": "Reg. (EC) No 1333/2008", "url": "https://eur-lex.europa.eu/eli/reg/2008/1333/oj", "provision": "Annex II, Part B", "checked": null}"#)
        defer { try? FileManager.default.removeItem(at: cited) }
        let ok = try scan.run(["pack", "validate", "--source", cited.path, "--texts", texts])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("  EU: 1 / 0 / 0 / 0 / 1"), "\(ok.stdout)")

        let uncited = try packSource(reference: #"{"label": "Reg. (EC) No 1333/2008", "url": "https://eur-lex.europa.eu/eli/reg/2008/1333/oj"}"#)
        defer { try? FileManager.default.removeItem(at: uncited) }
        let bad = try scan.run(["pack", "validate", "--source", uncited.path, "--texts", texts])
        #expect(bad.status == 15)
        #expect(bad.stderr.contains("E100 region_rules.EU.reference: needs a provision"), "\(bad.stderr)")

        let index = try packSource(reference: #"{"label": "FSANZ Code", "url": "https://www.foodstandards.gov.au/food-standards-code", "provision": "S15-5"}"#,
                                   conditions: "Allowed in bread, biscuits, cakes, sweets, ice cream, drinks, sauces, soups, snacks and many other foods up to set limits.")
        defer { try? FileManager.default.removeItem(at: index) }
        let generic = try scan.run(["pack", "validate", "--source", index.path, "--texts", texts])
        #expect(generic.status == 15)
        #expect(generic.stderr.contains("E100 region_rules.EU.reference: cites an index page"), "\(generic.stderr)")
        #expect(generic.stderr.contains("E100 region_rules.EU.conditions: has 20 words; at most 18"), "\(generic.stderr)")
    }
}
