import Foundation
import Testing

/// A region and a label language that only a signed pack defines: installing the pack is all it
/// takes for `--region ZZ` to judge by ZZ's rules and for a text in the new language to be read.
@Suite struct PackKnowledgeTests {
    /// The pack source of `PackCommandTests.Publisher`, plus region ZZ ("Zedland"), a label language
    /// `zz` (a name, a class word and a negation word of its own) and a record with a ZZ rule.
    static func publishZedland(_ p: PackCommandTests.Publisher) throws -> String {
        let src = URL(fileURLWithPath: p.path("src"))
        try Data(#"{"version": "10.0.0", "data_version": "data-10.0.0", "regions": ["EU", "ZZ"]}"#.utf8)
            .write(to: src.appendingPathComponent("pack.json"))
        let regions = #"""
            {"regions": [
              {"code": "EU", "aliases": ["EUROPE"], "name": "European Union", "in_sentence": "the EU", "law": "EU law", "countries": ["DE"]},
              {"code": "ZZ", "aliases": ["ZED"], "name": "Zedland", "in_sentence": "Zedland", "law": "Zedland law", "countries": ["ZZ"]}
            ]}
            """#
        let languages = #"""
            {"languages": [
              {"code": "zz", "class_words": [{"id": "preservative", "phrases": ["konservilo"]}],
               "negation": {"words": ["NEKO"]}}
            ]}
            """#
        try Data(regions.utf8).write(to: src.appendingPathComponent("regions.json"))
        try Data(languages.utf8).write(to: src.appendingPathComponent("languages.json"))
        let ref = #"[{"label": "EU Regulation (EC) No 1333/2008", "url": "https://eur-lex.europa.eu/eli/reg/2008/1333/oj"}]"#
        let benzoate = #"{"code": "E211", "names": {"en": ["Sodium benzoate"], "zz": ["natribenzoato"]}, "class": ["preservative"], "#
            + #""dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"}, "#
            + #""region_rules": {"EU": {"approved": true, "warning_required": false}, "ZZ": {"approved": false, "warning_required": false}}, "#
            + #""evidence_level": "Regulatory", "plain_risk": {"summary": "It stops mould from growing.", "audience": []}, "#
            + #""references": \#(ref), "updated_at": "2026-11-21"}"#
        try Data(benzoate.utf8).write(to: src.appendingPathComponent("additives/E211.json"))
        return try p.publish("ecodex-zedland.pack")
    }

    /// Each additive found (code → badge) and its reasons, from `scan text --format json`.
    static func scanned(_ p: PackCommandTests.Publisher, _ text: String, region: String)
        throws -> (status: Int32, found: [String: String], reasons: [String], stderr: String) {
        let run = try p.scan.run(["text", text, "--region", region, "--format", "json"])
        let additives = run.jsonLines().first?.additives ?? []
        var found: [String: String] = [:]
        var reasons: [String] = []
        for a in additives {
            found[a["code"] as? String ?? "?"] = a["badge"] as? String ?? "?"
            reasons += a["reasons"] as? [String] ?? []
        }
        return (run.status, found, reasons, run.stderr)
    }

    @Test func aRegionAndALanguageComeFromTheSignedPack() throws {
        let p = try PackCommandTests.Publisher()
        let pack = try Self.publishZedland(p)

        // Before the pack is installed, the program knows no region ZZ: a usage error.
        #expect(try p.scan.run(["text", "natribenzoato", "--region", "ZZ"]).status == 64)

        let apply = try p.scan.run(["pack", "apply", pack] + p.trusted)
        #expect(apply.status == 0, "\(apply.stderr)")

        // ZZ's rule, worded with ZZ's name; the EU rule of the same record differs.
        let zz = try Self.scanned(p, "Akvo, natribenzoato.", region: "ZZ")
        #expect(zz.status == 0, "\(zz.stderr)")
        #expect(zz.found == ["E211": "red"], "found by its zz name: \(zz.found)")
        #expect(zz.reasons.contains("Not allowed in food in Zedland."), "\(zz.reasons)")
        #expect(try Self.scanned(p, "Akvo, natribenzoato.", region: "EU").found == ["E211": "green"])
        #expect(try Self.scanned(p, "Akvo, natribenzoato.", region: "zed").found == ["E211": "red"], "an alias")

        // The zz negation word denies the name; the zz class word gives a bare number context.
        #expect(try Self.scanned(p, "Akvo, neko natribenzoato.", region: "ZZ").found.isEmpty)
        #expect(try Self.scanned(p, "Akvo, konservilo: 202.", region: "ZZ").found["E202"] != nil)
        #expect(try Self.scanned(p, "Akvo, 202.", region: "ZZ").found.isEmpty, "no class word, no context")
    }
}
