@testable import EcodexCore

/// Small, realistic records for core tests (the real data lives in packs/base).
enum TestRecords {
    static let ref = Reference(label: "Reg. (EC) No 1333/2008", url: "https://eur-lex.europa.eu/eli/reg/2008/1333/oj")
    static let southampton = "may have an adverse effect on activity and attention in children"

    static func record(_ code: String, _ name: String, classes: [String] = ["colour"], names: [String: [String]] = [:],
                       contextNames: [String] = [], dietary: Dietary = Dietary(vegan: .yes, vegetarian: .yes, kosher: .yes, halal: .yes),
                       population: [String] = [], rules: [String: RegionRule], evidence: EvidenceLevel = .regulatory,
                       concern: String? = nil, audience: [String] = []) -> Additive {
        var allNames = names
        allNames["en", default: []].insert(name, at: 0)
        return Additive(code: ECode(code)!, names: allNames, contextNames: contextNames, classes: classes, dietary: dietary,
                        population: population, regionRules: rules, evidenceLevel: evidence, concern: concern,
                        plainRisk: PlainRisk(summary: "A \(classes[0]) used in food.", audience: audience),
                        references: [ref], updatedAt: "2026-11-21")
    }

    static let tartrazine = record("E102", "Tartrazine", names: ["de": ["Tartrazin"], "us": ["FD&C Yellow No. 5", "Yellow 5"]],
                                   population: ["children"],
                                   rules: ["EU": RegionRule(approved: true, warningRequired: true, statement: southampton),
                                           "US": RegionRule(approved: true, name: "FD&C Yellow No. 5")],
                                   audience: ["Kids"])
    static let allura = record("E129", "Allura Red AC", names: ["us": ["FD&C Red No. 40", "Red 40"]], population: ["children"],
                               rules: ["EU": RegionRule(approved: true, warningRequired: true, statement: southampton),
                                       "US": RegionRule(approved: true)], audience: ["Kids"])
    static let carmine = record("E120", "Cochineal", names: ["en": ["Carmine", "Carminic acid"]], contextNames: ["Carmine"],
                                dietary: Dietary(vegan: .no, vegetarian: .no, kosher: .depends, halal: .depends),
                                rules: ["EU": RegionRule(approved: true), "US": RegionRule(approved: true)])
    static let citric = record("E330", "Citric acid", classes: ["acid"], names: ["de": ["Zitronensäure", "Citronensäure"]],
                               rules: ["EU": RegionRule(approved: true), "US": RegionRule(approved: true)])
    static let aspartame = record("E951", "Aspartame", classes: ["sweetener"], population: ["pku"],
                                  rules: ["EU": RegionRule(approved: true, warningRequired: true, statement: "contains a source of phenylalanine"),
                                          "US": RegionRule(approved: true, warningRequired: true, statement: "PHENYLKETONURICS: CONTAINS PHENYLALANINE")],
                                  audience: ["PKU"])
    static let titanium = record("E171", "Titanium dioxide",
                                 rules: ["EU": RegionRule(approved: false), "US": RegionRule(approved: true)], evidence: .limited)
    static let caramel = record("E150d", "Sulphite ammonia caramel", rules: ["EU": RegionRule(approved: true), "US": RegionRule(approved: true)])
    static let carotene = record("E160a", "Carotenes", rules: ["EU": RegionRule(approved: true), "US": RegionRule(approved: true)])

    static let all = [tartrazine, allura, carmine, citric, aspartame, titanium, caramel, carotene]
    static var catalog: InMemoryCatalog { InMemoryCatalog(all) }
}
