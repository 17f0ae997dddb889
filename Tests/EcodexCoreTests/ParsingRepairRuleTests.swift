import Testing
@testable import EcodexCore

/// One table per repair rule of `Sources/EcodexCore/Parsing/Repairs/`: rows where the rule
/// repairs the slip (positive) and rows where it must not (negative). A row is the text, the
/// OCR word confidence (nil: typed text) and the codes the parser reads, through the test
/// lexicon or, for rules whose names only the shipped data holds, the shipped base pack.
@Suite("Parsing: repair rules")
struct ParsingRepairRuleTests {
    typealias Row = (text: String, confidence: Double?, codes: [String])

    /// OCR words for `text` (split on white space, one line), every word at `confidence`.
    static func codes(_ row: Row, shipped: Bool = false) -> [String] {
        let words = row.confidence.map { confidence in
            row.text.split(whereSeparator: \.isWhitespace).map {
                OCRWord(text: String($0), confidence: confidence, box: BoundingBox(x: 0, y: 0, width: 1, height: 1),
                        line: 0)
            }
        }
        if shipped { return ParsingConventionTests.shipped.parse(row.text, words: words).mentions.map(\.code.description) }
        return ParsingTestSupport.codes(row.text, words: words)
    }

    static func check(_ row: Row, shipped: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(codes(row, shipped: shipped) == row.codes, "\(row.text) at \(row.confidence.map { "\($0)" } ?? "typed")",
                sourceLocation: sourceLocation)
    }

    @Test("BracketSlipWord: a bracket read as I, l or 1 glued to a word", arguments: [
        ("acidulantes Iácido cítrico, ácido málico)", nil, ["E330", "E296"]),
        ("Backtriebmittel 1Natriumcarbonat, Natriumcitrat", nil, ["E500(i)", "E331"]),
        ("acidity regulator lsodium citratel", nil, ["E331"]),
        // Words that end so stay words: `-ol` names alcohols, five letters stay, all capitals are Italian.
        ("butanol, propanol", nil, []),
        ("lagar, sugar", nil, []),
        ("AROMI NATURALI, COLORANTI", nil, []),
    ] as [Row])
    func bracketSlipWord(_ row: Row) { Self.check(row) }

    @Test("BrokenOverLinesUnsure: a code whose prefix and number stand on two lines, read unsure", arguments: [
        ("Lda LANN ANDERE iia MN e\n222 10574886", 95.0, ["E222"]),
        ("Lda LANN ANDERE iia MN e\n222 10574886", nil, ["E222"]),
        ("Konservierungsstoff: E\n222, Salz", 40.0, ["E222"]),
        ("Lda LANN ANDERE iia MN e\n222 10574886", 40.0, []),
    ] as [Row])
    func brokenOverLinesUnsure(_ row: Row) { Self.check(row) }

    @Test("CalciumSpelling: Kalzium and kalsium are calcium, never potassium", arguments: [
        ("surhetsregulerende middel: kalsiumlaktat, kalsiumklorid", nil, ["E327", "E509"]),
        ("Säureregulator: Kalziumlaktat; Trennmittel: Kalziumcarbonat", nil, ["E327", "E170(i)"]),
        ("surhetsregulerende middel: kaliumlaktat, kaliumklorid", nil, ["E326", "E508"]),
    ] as [Row])
    func calciumSpelling(_ row: Row) { Self.check(row, shipped: true) }

    @Test("CalciumSpelling: the spellings tried", arguments: [
        ("KALSIUMLAKTAT", ["KALCIUMLAKTAT", "CALCIUMLAKTAT"]),
        ("KALZIUMCARBONAT", ["KALCIUMCARBONAT", "CALCIUMCARBONAT"]),
        ("KALIUMLAKTAT", []),
        ("KALZI", []),
    ])
    func calciumSpellings(_ word: String, _ spellings: [String]) {
        let folded = ArraySlice(word.unicodeScalars.map(\.value))
        #expect(ParseSession.calciumSpellings(folded).map { String(String.UnicodeScalarView($0.compactMap(Unicode.Scalar.init))) }
            == spellings)
    }

    @Test("CaramelClass: a caramel colour's class names its code", arguments: [
        ("water, caramel colour (class IV), phosphoric acid", nil, ["E150d", "E338"]),
        ("water, class III caramel, salt", nil, ["E150c"]),
        ("colour (caramel I), salt", nil, ["E150a"]),
        // No class: the colour of any class; caramel alone is a food.
        ("water, caramel colour, vitamin (I), salt", nil, ["E150"]),
        ("water, caramel, salt", nil, []),
    ] as [Row])
    func caramelClass(_ row: Row) { Self.check(row, shipped: true) }

    @Test("CaramelProcess: a caramel colour's process names its class", arguments: [
        ("colour: caramel (ammonia sulphite process), salt", nil, ["E150d"]),
        ("Colour: caramel (ammonia process)", nil, ["E150c"]),
        ("bojilo: amonijačno-sulfitna karamela", nil, ["E150d"]),
        ("bojilo: sulfitna karamela", nil, ["E150b"]),
    ] as [Row])
    func caramelProcess(_ row: Row) { Self.check(row, shipped: true) }

    @Test("CompoundTail: a compound of a source and an additive's name, under its class word", arguments: [
        ("Emulgator: Sonnenblumenlecithine", nil, ["E322"]),
        ("emulgator (zonnebloemlecithine), suiker", nil, ["E322"]),
        ("Zucker, Sonnenblumenlecithin, Salz", nil, []),
        ("Trägerstoff: Maltodextrin", nil, []),
        ("Zucker, lukcorantes: Karamell, Salz", nil, []),
    ] as [Row])
    func compoundTail(_ row: Row) { Self.check(row) }

    @Test("DigitSlipWord: letters read as digits of their shape inside a word", arguments: [
        ("S0DIUM NITRITE", nil, ["E250"]),
        ("C1TRIC ACID, SALT", nil, ["E330"]),
        ("CALCIUM PR0PIONATE", nil, ["E282"]),
        // Codes and quantities stay numbers.
        ("Vitamin B12, 100g, 5OOml", nil, []),
        ("Farbstoff: E1O2", nil, ["E102"]),
    ] as [Row])
    func digitSlipWord(_ row: Row) { Self.check(row) }

    @Test("EdgeLossWord: a long word with a letter lost or doubled at its edge, under its class word", arguments: [
        ("Säureregulator: atriumcitrate", nil, ["E331"]),
        ("Feuchthaltemittel: Sorbitsiru", nil, ["E420(ii)"]),
        ("Süßungsmittel: Cyclamatt", nil, ["E952"]),
        ("water, atriumcitrate, salt", nil, []),
        ("Farbstoff: atriumcitrate", nil, []),
    ] as [Row])
    func edgeLossWord(_ row: Row) { Self.check(row, shipped: true) }

    @Test("FattyAcidsAfterOf: fatty acids after a word for `of` are another additive's tail", arguments: [
        ("Emulgator: Mono- und Cliglyceride von Speisefettsäuren", nil, ["E471"]),
        ("emulsifier: mono- and diglycerides of fatty acids", nil, ["E471"]),
        ("Trennmittel: Speisefettsäuren", nil, ["E570"]),
    ] as [Row])
    func fattyAcidsAfterOf(_ row: Row) { Self.check(row) }

    @Test("GluedNameWords: two words of a name read without the space between them", arguments: [
        ("natural flavors, potassiumcitrate, salt", nil, ["E332(ii)"]),
        ("acidulant (phosphoricacid), natural flavor", nil, ["E338"]),
        ("sugar, saltsugar, water", nil, []),
    ] as [Row])
    func gluedNameWords(_ row: Row) { Self.check(row) }

    @Test("GlycerideEster: an ester word before mono- and diglycerides names the ester", arguments: [
        ("esteri lattici dei mono- e digliceridi degli acidi grassi", nil, ["E472"]),
        ("ésteres de ácido diacetiltartárico de mono y diglicéridos de ácidos grasos", nil, ["E472"]),
        ("Polyglycerol esters of fatty acids and mono- and diglycerides", nil, ["E475", "E471"]),
        ("emulsifier: mono- and diglycerides of fatty acids", nil, ["E471"]),
    ] as [Row])
    func glycerideEster(_ row: Row) { Self.check(row) }

    @Test("HyphenJoin: one word split by a hyphen", arguments: [
        ("emulsionanti: mono- e di-gliceridi degli acidi grassi, sale", nil, ["E471"]),
        ("Säuerungsmittel: Citronen-\nsäure", nil, ["E330"]),
        ("Emulgator: Leci-\nthine", nil, ["E322"]),
        ("emulsifier: mono-\nand diglycerides", nil, ["E471"]),
    ] as [Row])
    func hyphenJoin(_ row: Row) { Self.check(row) }

    @Test("MicrobeQualifier: lactic acid bacteria and cultures are not lactic acid", arguments: [
        ("Milk, lactic acid bacteria", nil, []),
        ("Milch, Milchsäure-Bakterien", nil, []),
        ("leche, bacterias del ácido láctico", nil, []),
        ("Milk, lactic acid, bacterial cultures", nil, ["E270"]),
        ("Cultures, acidity regulator: lactic acid", nil, ["E270"]),
    ] as [Row])
    func microbeQualifier(_ row: Row) { Self.check(row) }

    @Test("OtherMetalSalt: an anion qualified by a metal outside the additive's salts", arguments: [
        ("Cereals, minerals: iron pyrophosphate", nil, []),
        ("céréales, fer (pyrophosphate ferrique)", nil, []),
        ("cereali, difosfato di ferro", nil, []),
        ("raising agent: sodium pyrophosphate", nil, ["E450(i)"]),
    ] as [Row])
    func otherMetalSalt(_ row: Row) { Self.check(row) }

    @Test("SaturationWord: a name qualified as saturated is a nutrition table's line", arguments: [
        ("davon gesditigte Fettsduren 0 g", nil, []),
        ("AivOn peratiigte Fettsduren | GOM acides pras satares", 20.0, []),
        ("Trennmittel: Fettsduren, Zucker", 20.0, ["E570"]),
    ] as [Row])
    func saturationWord(_ row: Row) { Self.check(row) }

    @Test("SaturationWord: through the shipped data, whose fatty acids need no class word", arguments: [
        ("Fett / Matières grasses 0 g, davon gesättigte Fettsäuren / dont acides gras saturés 0 g", nil, []),
        ("Überzugsmittel: gesdttigte Fettsäuren", nil, []),
        ("Überzugsmittel: Fettsäuren", nil, ["E570"]),
    ] as [Row])
    func saturationWordShipped(_ row: Row) { Self.check(row, shipped: true) }

    @Test("SaturationWord: the words read as saturation words", arguments: [
        ("GESATTIGTE", true), ("GESDTTIGTE", true), ("GESDITIGTE", true), ("SATURES", true), ("SATARES", true),
        ("SATURATES", true), ("NATURE", false), ("SATIN", false), ("GESAMT", false),
    ])
    func isSaturationWord(_ word: String, _ expected: Bool) {
        #expect(ParseSession.isSaturationWord(word) == expected, "\(word)")
    }

    @Test("SpaceJoin: one word split by a space or a lost line-end hyphen", arguments: [
        ("soy leci thin, salt", nil, ["E322"]),
        ("phos\nphoric acid", nil, ["E338"]),
        ("salt, calciu\nm sulfate, sugar", nil, ["E516"]),
        ("Säuerungsmittel (C\nitronensäure)", nil, ["E330"]),
        ("soy lecithin", nil, ["E322"]),
        ("pane pro pane, sale", nil, []),
        ("pane pro\npane, sale", nil, []),
    ] as [Row])
    func spaceJoin(_ row: Row) { Self.check(row) }

    @Test("SpelledOutUnsure: a code spelled in single digits from unsure words", arguments: [
        ("Margarine 80% E 2 5 0 S Zutaten: Sheabutter", 95.0, ["E250"]),
        ("Margarine 80% E 2 5 0 S Zutaten: Sheabutter", nil, ["E250"]),
        ("Konservierungsstoff: E 2 5 0, Salz", 50.0, ["E250"]),
        ("Margarine 80% E 2 5 0 S Zutaten: Sheabutter", 50.0, []),
        ("Farbstoff: Beta-Carotin, Margarine 80% E 2 5 0 S", 50.0, ["E160a"]),
    ] as [Row])
    func spelledOutUnsure(_ row: Row) { Self.check(row) }

    @Test("USColourNumber: US colour names as OCR reads them, glued or a digit read as a letter", arguments: [
        ("ARTIFICIAL COLOR (YELLOW6; YELLOWS; RED 40, BLUE 1)", nil, ["E110", "E102", "E129", "E133"]),
        ("Red 4O, BLUE l, biue 2", nil, ["E129", "E133", "E132"]),
        ("Sugar, Red Dye 40, Yellow Dye #5, Blue Dye No. 1", nil, ["E129", "E102", "E133"]),
        ("red 49, yellow split peas", nil, []),
        ("Sugar, red dye, salt", nil, []),
    ] as [Row])
    func usColourNumber(_ row: Row) { Self.check(row) }

    @Test("USColourNumber: a number as small print reads it", arguments: [
        ("4O", "40"), ("S", "5"), ("l", "1"), ("12", "12"), ("4X", nil),
    ] as [(String, String?)])
    func slipDigits(_ read: String, _ digits: String?) {
        let folded = ArraySlice(read.uppercased().unicodeScalars.map(\.value))
        let repaired = ParseSession.slipDigits(folded).map { String(String.UnicodeScalarView($0.compactMap(Unicode.Scalar.init))) }
        #expect(repaired == digits, "\(read)")
    }

    @Test("WeakClassWord: a short class word read with a slip from unsure words vouches for no weak name", arguments: [
        ("Zucker, faree (prta), Salz", 40.0, []),
        ("Zucker, faree (E102), Salz", 40.0, ["E102"]),
        ("Zucker, Verdickungsmitel: PES, Salz", 50.0, ["E407a"]),
    ] as [Row])
    func weakClassWord(_ row: Row) { Self.check(row) }

    @Test("WeakOCRName: a short or slipped name from unsure words needs its own class word", arguments: [
        ("Zucker, PES, Salz", 50.0, []),
        ("Zucker, PES, Salz", nil, ["E407a"]),
        ("Zucker, PES, Salz", 95.0, ["E407a"]),
        ("Verdickungsmittel: PES, Salz", 50.0, ["E407a"]),
        ("LECITHIN, PES, THICKENER; SALT", 50.0, ["E322", "E407a"]),
        ("Säuerungsmittel: Citronensäure, ADA", 50.0, ["E330"]),
        ("daher tann sich absetzen wie tgitientyaucuns stabilisants.", 50.0, []),
        ("Zucker, PES Verdickungsmittel, Salz", 50.0, ["E407a"]),
    ] as [Row])
    func weakOCRName(_ row: Row) { Self.check(row) }
}
