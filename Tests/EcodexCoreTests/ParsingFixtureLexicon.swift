import Foundation
import EcodexCore

/// Builds the test lexicon from the fixtures: Open Food Facts names, the synonyms file and US names.
enum ParsingFixtureLexicon {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func lines(_ name: String) -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
        // Line feeds only: the taxonomy has names with U+2028 in them (`eo:E290, karbona dioksido\u{2028}`),
        // and splitting there made an empty line that ended the additive's block early.
        return text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(String.init)
    }

    static func jsonLines(_ name: String) -> [[String: Any]] {
        lines(name).filter { !$0.isEmpty }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Languages taken from the taxonomy: the six label languages plus a few the OFF cases use.
    static let languages: Set<String> = ["en", "de", "fr", "es", "it", "nl", "pl", "fi", "pt", "ru"]

    /// Names that are also ordinary food or ordinary words: they count only in additive context.
    static let contextOnlyNames: Set<String> = [
        "caramel", "karamell", "caramelo", "caramello", "karamel", "amaranth", "amarante", "amaranto",
        "paprika extract", "extrait de paprika", "paprikaextrakt", "vitamin c",
        "vitamine c", "vitamina c", "curcuma", "turmeric", "kurkuma", "safran", "saffron", "azafrán", "zafferano",
        "gold", "silver", "or", "argent", "oro", "plata", "argento", "silber", "iron", "fer", "calcium", "calcio",
        "sodium", "potassium", "magnesium", "magnésium", "aluminium", "aluminum",
        "gelatin", "wax", "c-vitamiini", "lactique", "carbonates", "carbonate", "carbonatos", "karbonaatit",
        // Anions of mineral nutrients (`sélénite de sodium`), context-only in the shipped data too.
        "selenite", "sélénite",
    ]

    /// Salts and amino acids labels add as nutrients: all their names need additive context,
    /// as in the shipped data (`nutrient_salts` in packs/tools/curated.json).
    static let nutrientSalts: Set<String> = ["E170", "E327", "E333", "E341", "E343", "E511", "E526", "E529", "E530",
                                              "E578", "E579", "E585", "E1001"]

    /// Additives that are foods in their own right (gelatine): all their names need additive
    /// context, as in the shipped data (`food_records` in packs/tools/curated.json).
    static let foodRecords: Set<String> = ["E428"]

    /// US regulatory and trade names that the taxonomy lacks or spells differently.
    static let handNames: [(String, String, String)] = [
        ("FD&C Yellow No. 5", "E102", "us"), ("Yellow 5", "E102", "us"), ("Yellow 5 Lake", "E102", "us"),
        ("FD&C Yellow No. 6", "E110", "us"), ("Yellow 6", "E110", "us"), ("Yellow 6 Lake", "E110", "us"),
        ("FD&C Red No. 40", "E129", "us"), ("Red 40", "E129", "us"), ("Red 40 Lake", "E129", "us"),
        ("FD&C Red No. 3", "E127", "us"), ("Red 3", "E127", "us"),
        ("FD&C Blue No. 1", "E133", "us"), ("Blue 1", "E133", "us"), ("Blue 1 Lake", "E133", "us"),
        ("FD&C Blue No. 2", "E132", "us"), ("Blue 2", "E132", "us"),
        ("FD&C Green No. 3", "E143", "us"), ("Green 3", "E143", "us"),
        ("sunset yellow FCF", "E110", "en"), ("Gelborange S", "E110", "de"),
        ("mono- and diglycerides of fatty acids", "E471", "en"), ("mono and diglycerides", "E471", "en"),
        ("caramel color", "E150", "us"), ("caramel", "E150", "en"), ("Karamell", "E150", "de"),
        ("amaranth", "E123", "en"), ("carmine", "E120", "en"), ("paprika extract", "E160c", "en"),
        ("vitamin C", "E300", "en"),
    ]

    static let shared: Lexicon = build()

    static func build(languages: Set<String> = languages) -> Lexicon {
        var entries: [LexiconEntry] = []
        var codes = Set<ECode>()
        func add(_ name: String, _ code: ECode, _ lang: String) {
            let n = name.trimmingCharacters(in: .whitespaces)
            guard !n.isEmpty else { return }
            let lower = n.lowercased()
            // Short lowercase words (`or`, `fer`) and vitamin names are ordinary words on labels;
            // short capitals (`BHA`) are acronyms.
            let contextOnly = contextOnlyNames.contains(lower) || (n.count <= 3 && n != n.uppercased())
                || lower.hasPrefix("vitamin")
                || code.lineage.contains { nutrientSalts.contains($0.description) || foodRecords.contains($0.description) }
            entries.append(LexiconEntry(name: n, code: code, lang: lang, contextOnly: contextOnly))
            codes.insert(code)
        }
        // Taxonomy blocks: the code is the first field of the `en:` line.
        var blockCode: ECode?
        var functions: [ECode: [String]] = [:]
        for line in lines("additives.txt") {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { blockCode = nil; continue }
            if line.hasPrefix("<") || line.hasPrefix("#") { continue }
            // `additives_classes:en: en:colour, en:stabilizer`: the record's functions, as the pack spells them.
            if line.hasPrefix("additives_classes:en:"), let code = blockCode {
                functions[code] = line.dropFirst("additives_classes:en:".count).split(separator: ",").map {
                    let id = $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "en:", with: "")
                        .replacingOccurrences(of: "-", with: " ")
                    return ["stabilizer": "stabiliser", "emulsifying salts": "emulsifying salt"][id] ?? id
                }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let lang = String(line[..<colon])
            guard lang.count == 2 else { continue }
            let fields = line[line.index(after: colon)...].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // `E14XX` (modified starches) is a family, not a code.
            if lang == "en", let first = fields.first { blockCode = ECode(first).flatMap { $0.number >= 100 ? $0 : nil } }
            guard let code = blockCode, languages.contains(lang) else { continue }
            for f in fields where ECode(f) == nil { add(f, code, lang) }
        }
        for row in jsonLines("additive-synonyms.jsonl") {
            if let c = (row["code"] as? String).flatMap(ECode.init), let n = row["name"] as? String {
                add(n, c, row["lang"] as? String ?? "en")
            }
        }
        for (n, c, l) in handNames { add(n, ECode(c)!, l) }
        return Lexicon(entries: entries, knownCodes: codes, functions: functions)
    }
}
