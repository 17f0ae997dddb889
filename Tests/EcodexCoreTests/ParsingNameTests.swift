import Testing
import EcodexCore

@Suite("Parsing: names, context and functions")
struct ParsingNameTests {
    typealias S = ParsingTestSupport

    @Test("Names in any language, case, diacritics and punctuation", arguments: [
        ("Sugar, tartrazine, salt", ["E102"]),
        ("TARTRAZINE", ["E102"]),
        ("Zucker, Tartrazin", ["E102"]),
        ("sucre, acide citrique", ["E330"]),
        ("SUCRE, ACIDE CITRIQUE", ["E330"]),
        ("acido citrico, zucchero", ["E330"]),
        ("mono- and diglycerides of fatty acids", ["E471"]),
        ("Mono and diglycerides, salt", ["E471"]),
        ("FD&C Yellow No. 5", ["E102"]),
        ("FD&C Yellow #5, FD&C Red #40", ["E102", "E129"]),
        ("Yellow 5, Red 40 Lake", ["E102", "E129"]),
        ("sunset yellow FCF", ["E110"]),
        ("Gelborange S", ["E110"]),
        ("lécithine de soja", ["E322"]),
        ("Natriumbenzoat", ["E211"]),
        ("sodium benzoate and potassium sorbate", ["E211", "E202"]),
        ("colorants : lutéine et tartrazine", ["E161b", "E102"]),
    ])
    func names(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("A name inside a longer word does not match", arguments: [
        "Tartrazinefree water",
        "pectinase enzyme",
        "sugar, agarwood smoke",
    ])
    func insideWords(text: String) {
        S.expectCodes(text, [])
    }

    @Test("A compound of a source and an additive's name counts under a class word of its function", arguments: [
        ("Emulgator: Sonnenblumenlecithine", ["E322"]),
        ("Zucker, Emulgator Rapslecithin, Salz", ["E322"]),
        ("emulgator (zonnebloemlecithine), suiker", ["E322"]),
    ] as [(String, [String])])
    func compounds(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("A compound counts for nothing alone, when it names another substance, or as a class word", arguments: [
        ("Zucker, Sonnenblumenlecithin, Salz", []),
        ("Trägerstoff: Maltodextrin", []),
        ("Verdickungsmittel: Maltodextrin, Zucker", []),
        // `lukcorantes` ends in the Portuguese class word `corantes` (colours): no colour context.
        ("Zucker, lukcorantes: Karamell, Salz", []),
    ] as [(String, [String])])
    func notCompounds(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("A slip of a class word is read as that class word, not by its last part")
    func slipOfAClassWordIsNoCompound() {
        // `regulator` is a known word too (of `acidity regulator`).
        let r = S.parser.parse("Säuereregulator: Kaliumcarbonat")
        #expect(r.mentions.map(\.function) == ["acidity regulator"])
    }

    @Test("Fuzzy names for OCR slips, none for short names", arguments: [
        ("tartrazime", "E102"),
        ("sodium benzaote", "E211"),
        ("potasium sorbate", "E202"),
        ("acide citrlque", "E330"),
    ])
    func fuzzy(text: String, code: String) {
        S.expectMention(text, code: code, kind: .fuzzy)
        let m = S.parser.parse(text).mentions.first
        #expect((m?.confidence ?? 1) < 1)
    }

    @Test("Short names get no fuzziness; edits at a word's ends make other words", arguments: [
        "sugar, agan", "salt, pectim", "carbonated water", "ácido fólico", "Karotten", "pectinase",
    ])
    func shortNoFuzzy(text: String) {
        #expect(S.parser.parse(text).mentions.allSatisfy { $0.kind != .fuzzy })
    }

    @Test("Two shape slips in one long word, within a long name's edit budget", arguments: [
        ("leavening (sodium bicorbonote)", "leavening (sodium bicarbonate)"),
        ("SODIUM BICORBONOTE, salt", "SODIUM BICARBONATE, salt"),
    ])
    func twoShapeSlips(text: String, clean: String) {
        #expect(!S.codes(clean).isEmpty)
        #expect(S.codes(text) == S.codes(clean), "\(text)")
    }

    @Test("Two slips need a long name, shape pairs, and the word's first and last letters", arguments: [
        "Tartrozime, sugar",
        "sodium bicxrbonxte",
        "sodium aicarbonatb",
    ])
    func twoSlipsStayStrict(text: String) {
        #expect(S.codes(text).allSatisfy { !$0.hasPrefix("E50") }, "\(text)")
        #expect(!S.codes(text).contains("E102"), "\(text)")
    }

    @Test("Plural endings on a name's word: -e, -en, -s, -es, -n", arguments: [
        ("Emulgator: Sojalecithine, Zucker", ["E322"]),
        ("Geliermittel Pektine", ["E440"]),
        ("sodium benzoates", ["E211"]),
        ("Zucker, Natriumbenzoate", ["E211"]),
    ])
    func pluralStems(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("Plural stems need a known word of six letters or more", arguments: [
        "Karotten, Zucker",
        "carbonated water",
        "Salzes, Essige",
        "pectinase enzyme",
    ])
    func pluralStemsStayStrict(text: String) {
        S.expectCodes(text, [])
    }

    @Test("Context-only names count only in additive context", arguments: [
        ("caramel", []),
        ("sugar, caramel, salt", []),
        ("colour: caramel", ["E150"]),
        ("Farbstoff: Karamell", ["E150"]),
        ("colour (caramel)", ["E150"]),
        ("amaranth", []),
        ("colour: amaranth", ["E123"]),
        ("colorant: carmine", ["E120"]),
        ("Eau, sucre, vitamine C", []),
        ("Eau, sucre, antioxydant: vitamine C", ["E300"]),
        ("caramel (E150d)", ["E150d"]),
        // A header keeps vouching for names of its own class after codes in its scope.
        ("Sugar, colours: E102, E129, carmine.", ["E102", "E129", "E120"]),
        ("Farbstoffe: E 102, E110, amaranth", ["E102", "E110", "E123"]),
        ("colorant : E120, vitamine C, E500", ["E120", "E500"]),
    ] as [(String, [String])])
    func contextOnly(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("Function hints in six languages", arguments: [
        ("colour: E150d", "colour"),
        ("Farbstoff E 150d", "colour"),
        ("Farbstoffe: E 102", "colour"),
        ("Konservierungsstoff: Kaliumsorbat", "preservative"),
        ("Säuerungsmittel Citronensäure", "acid"),
        ("Emulgator (Sojalecithin)", "emulsifier"),
        ("Verdickungsmittel: E415", "thickener"),
        ("Süßungsmittel: Aspartam", "sweetener"),
        ("colorant : E120", "colour"),
        ("conservateur : E202", "preservative"),
        ("émulsifiant : lécithine de soja", "emulsifier"),
        ("épaississant : gomme xanthane", "thickener"),
        ("acidifiant : acide citrique", "acid"),
        ("édulcorant : sucralose", "sweetener"),
        ("colorante: E110", "colour"),
        ("conservante (E211)", "preservative"),
        ("emulsionante: E322", "emulsifier"),
        ("espesante: E412", "thickener"),
        ("edulcorante: E951", "sweetener"),
        ("addensante: E440", "thickener"),
        ("conservanti: E250", "preservative"),
        ("kleurstof: E160a", "colour"),
        ("conserveermiddel: E202", "preservative"),
        ("verdikkingsmiddel: E407", "thickener"),
        ("zoetstof: E955", "sweetener"),
        ("emulgator: E471", "emulsifier"),
        ("acidity regulator (330)", "acidity regulator"),
        ("ACIDITY REGULATORS: E331", "acidity regulator"),
        ("flavor enhancer: E621", "flavour enhancer"),
        ("raising agents: E500", "raising agent"),
        ("anti-caking agent (E551)", "anti-caking agent"),
        ("stabilizer: E412", "stabiliser"),
        ("stabiliser: E412", "stabiliser"),
        ("flour treatment agent potassium iodate", "flour treatment agent"),
        ("humectant: glycerol", "humectant"),
        ("glazing agent: beeswax", "glazing agent"),
    ])
    func functions(text: String, function: String) {
        let m = S.parser.parse(text).mentions
        #expect(m.count == 1, "\(text) → \(m.map(\.code))")
        #expect(m.first?.function == function, "\(text)")
    }

    @Test("A name and its code are one mention")
    func merge() {
        let text = "Sugar, citric acid (E330), salt"
        let r = S.parser.parse(text)
        #expect(r.mentions.count == 1)
        let m = r.mentions[0]
        #expect(m.code.description == "E330")
        #expect(m.matchedText == ["citric acid", "E330"])
        #expect(S.spanText(text, m) == "citric acid (E330")
        #expect(m.ingredient == "citric acid")

        let fr = S.parser.parse("acide citrique E-330, E-102 tartrazine").mentions
        #expect(fr.map(\.code.description) == ["E330", "E102"])
        #expect(fr.map(\.matchedText.count) == [2, 2])

        let de = S.parser.parse("Farbstoff E 150d").mentions
        #expect(de.count == 1)
        #expect(de.first?.matchedText == ["Farbstoff", "E 150d"])
        #expect(de.first?.ingredient == "Farbstoff")
        #expect(de.first.map { S.spanText("Farbstoff E 150d", $0) } == "E 150d")
    }

    @Test("Mentions carry their ingredient")
    func ingredients() {
        let r = S.parser.parse("Water, Emulsifiers (E442, E476), acidity regulators: 330, colour: caramel")
        #expect(r.mentions.map(\.code.description) == ["E442", "E476", "E330", "E150"])
        #expect(r.mentions.map(\.ingredient) == ["Emulsifiers", "Emulsifiers", "acidity regulators", "colour"])
        #expect(r.mentions.map(\.function) == ["emulsifier", "emulsifier", "acidity regulator", "colour"])
    }
}
