import EcodexCore
import EcodexStore
import Foundation
import Testing

/// A small pack source with realistic records, written into temporary folders
/// so the tests never depend on the real `packs/base/` data.
enum Fixtures {
    static let packJSON = #"{"version": "1.0.0", "data_version": "2026.11.21-test", "regions": ["EU", "US", "UK"]}"#

    static let eurLex = #"{"label": "EU Regulation (EC) No 1333/2008, Annex II", "url": "https://eur-lex.europa.eu/eli/reg/2008/1333/oj"}"#

    /// One pack-source file per additive, keyed by file name.
    static let records: [String: String] = [
        "E102.json": #"""
        {"code": "E102",
         "names": {"en": ["Tartrazine", "FD&C Yellow No. 5", "Yellow 5"], "de": ["Tartrazin"], "fr": ["Tartrazine"],
                   "es": ["Tartrazina"], "us": ["FD&C Yellow No. 5"]},
         "class": ["colour"],
         "dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"},
         "source": ["synthetic"], "population": ["children"],
         "region_rules": {
           "EU": {"approved": true, "warning_required": true,
                  "statement": "Tartrazine: may have an adverse effect on activity and attention in children."},
           "US": {"approved": true, "warning_required": false, "name": "FD&C Yellow No. 5", "conditions": "Must be declared by name."}},
         "evidence_level": "Regulatory",
         "plain_risk": {"summary": "A man-made yellow dye. EU labels must warn it may affect attention in children.", "audience": ["Kids"]},
         "references": [\#(eurLex)],
         "label_frequency": 5200, "updated_at": "2026-11-01"}
        """#,
        "E120.json": #"""
        {"code": "E120",
         "names": {"en": ["Carmine", "Cochineal", "Carminic acid", "Natural Red 4"], "de": ["Karmin", "Echtes Karmin"],
                   "fr": ["Carmin", "Cochenille"], "us": ["Cochineal extract"]},
         "context_names": ["carmine", "crimson lake"],
         "class": ["colour"],
         "dietary": {"vegan": "no", "vegetarian": "no", "kosher": "no", "halal": "depends"},
         "source": ["insect"],
         "region_rules": {
           "EU": {"approved": true, "warning_required": false},
           "US": {"approved": true, "warning_required": true, "statement": "Must be named as cochineal extract or carmine."}},
         "evidence_level": "Regulatory",
         "plain_risk": {"summary": "A red colour made from crushed insects. Not vegan or vegetarian.", "audience": ["Vegans"]},
         "references": [\#(eurLex)],
         "label_frequency": 3100, "updated_at": "2026-11-01"}
        """#,
        "E150d.json": #"""
        {"code": "E150d",
         "names": {"en": ["Sulphite ammonia caramel", "Caramel IV", "Caramel colour"], "de": ["Ammoniak-Sulfit-Zuckerkulör"],
                   "fr": ["Caramel au sulfite d'ammonium"]},
         "context_names": ["caramel"],
         "class": ["colour"],
         "dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"},
         "source": ["plant"],
         "region_rules": {"EU": {"approved": true, "warning_required": false}, "US": {"approved": true, "warning_required": false}},
         "evidence_level": "Consensus", "concern": "Contains 4-MEI, a by-product under review.",
         "plain_risk": {"summary": "A brown colour. It is made by heating sugar with sulphite and ammonia.", "audience": []},
         "references": [\#(eurLex)],
         "label_frequency": 4100, "updated_at": "2026-11-01"}
        """#,
        "E160a.json": #"""
        {"code": "E160a",
         "names": {"en": ["Carotenes", "Beta-carotene"], "de": ["Carotine", "Beta-Carotin"], "fr": ["Carotènes", "Bêta-carotène"]},
         "class": ["colour"],
         "dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"},
         "source": ["plant", "synthetic"],
         "region_rules": {"EU": {"approved": true, "warning_required": false}, "US": {"approved": true, "warning_required": false}},
         "evidence_level": "Regulatory",
         "plain_risk": {"summary": "An orange colour also found in carrots. The body turns it into vitamin A.", "audience": []},
         "references": [\#(eurLex)],
         "label_frequency": 2600, "updated_at": "2026-11-01"}
        """#,
        "E160a(ii).json": #"""
        {"code": "E160a(ii)", "parent": "E160a",
         "names": {"en": ["Plant carotenes"], "de": ["Pflanzliche Carotine"]},
         "class": ["colour"],
         "dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"},
         "source": ["plant"],
         "region_rules": {"EU": {"approved": true, "warning_required": false}},
         "evidence_level": "Regulatory",
         "plain_risk": {"summary": "Orange colour taken from plants such as carrots and palm oil.", "audience": []},
         "references": [\#(eurLex)],
         "label_frequency": 300, "updated_at": "2026-11-01"}
        """#,
        "E202.json": #"""
        {"code": "E202",
         "names": {"en": ["Potassium sorbate"], "de": ["Kaliumsorbat"], "fr": ["Sorbate de potassium"]},
         "class": ["preservative"],
         "dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"},
         "source": ["synthetic"],
         "region_rules": {"EU": {"approved": true, "warning_required": false}, "US": {"approved": true, "warning_required": false}},
         "evidence_level": "Regulatory",
         "plain_risk": {"summary": "It stops mould and yeast from growing. It is common.", "audience": []},
         "references": [\#(eurLex)],
         "label_frequency": 8000, "updated_at": "2026-11-01"}
        """#,
        "E203.json": #"""
        {"code": "E203",
         "names": {"en": ["Calcium sorbate"], "de": ["Calciumsorbat"]},
         "class": ["preservative"],
         "dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"},
         "source": ["synthetic"],
         "region_rules": {"EU": {"approved": false, "warning_required": false, "conditions": "Withdrawn from the EU list in 2018."}},
         "evidence_level": "Regulatory",
         "plain_risk": {"summary": "It keeps food fresh. It is no longer allowed in the EU.", "audience": []},
         "references": [\#(eurLex)],
         "label_frequency": 40, "updated_at": "2026-11-01"}
        """#,
        "E330.json": #"""
        {"code": "E330",
         "names": {"en": ["Citric acid"], "de": ["Zitronensäure", "Citronensäure"], "fr": ["Acide citrique"],
                   "es": ["Ácido cítrico"], "it": ["Acido citrico"]},
         "class": ["acid", "acidity regulator", "antioxidant"],
         "dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"},
         "source": ["microbial"],
         "region_rules": {"EU": {"approved": true, "warning_required": false}, "US": {"approved": true, "warning_required": false}, "UK": {"approved": true, "warning_required": false}},
         "evidence_level": "Regulatory",
         "plain_risk": {"summary": "The sour acid found in lemons. It is very common.", "audience": []},
         "references": [\#(eurLex)],
         "label_frequency": 31000, "updated_at": "2026-11-01"}
        """#,
        "E951.json": #"""
        {"code": "E951",
         "names": {"en": ["Aspartame"], "de": ["Aspartam"], "fr": ["Aspartame"]},
         "class": ["sweetener"],
         "dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"},
         "source": ["synthetic"], "population": ["pku"],
         "region_rules": {
           "EU": {"approved": true, "warning_required": true, "statement": "Contains a source of phenylalanine."},
           "US": {"approved": true, "warning_required": true, "statement": "Phenylketonurics: contains phenylalanine."}},
         "evidence_level": "Regulatory",
         "plain_risk": {"summary": "A sweetener. It is a source of phenylalanine, so the label says so.", "audience": ["PKU"]},
         "references": [\#(eurLex)],
         "label_frequency": 1500, "updated_at": "2026-11-01"}
        """#,
    ]

    /// A fresh temporary folder, removed when the test's `Scratch` is released.
    final class Scratch {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-store-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit {
            // Make read-only test folders removable again before deleting them.
            if let items = FileManager.default.enumerator(atPath: url.path) {
                for case let item as String in items {
                    chmod(url.appendingPathComponent(item).path, 0o755)
                }
            }
            chmod(url.path, 0o755)
            try? FileManager.default.removeItem(at: url)
        }
        var location: StoreLocation { StoreLocation(directory: url.appendingPathComponent("data")) }
    }

    /// Writes the pack source (`packs/base/...`) under `root`.
    static func writePackSource(in root: URL, records: [String: String] = records, packJSON: String = packJSON) throws -> URL {
        let base = root.appendingPathComponent("packs/base")
        let additives = base.appendingPathComponent("additives")
        try FileManager.default.createDirectory(at: additives, withIntermediateDirectories: true)
        try Data(packJSON.utf8).write(to: base.appendingPathComponent("pack.json"))
        for (name, json) in records {
            try Data(json.utf8).write(to: additives.appendingPathComponent(name))
        }
        return base
    }

    /// The fixture pack, loaded through `PackSource`.
    static func pack() throws -> Pack {
        let scratch = try Scratch()
        return try PackSource.load(directory: writePackSource(in: scratch.url))
    }

    /// The fixture pack written as a built pack file in `scratch`.
    static func builtPack(in scratch: Scratch) throws -> URL {
        let url = scratch.url.appendingPathComponent("base-pack.json")
        try pack().write(to: url)
        return url
    }

    /// A store in a fresh folder, built from the fixture pack.
    static func store(in scratch: Scratch) throws -> AdditiveStore {
        try AdditiveStore(location: scratch.location, basePackURL: builtPack(in: scratch))
    }
}
